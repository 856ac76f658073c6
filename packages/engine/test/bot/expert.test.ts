/**
 * The expert searches on what its seat may see, never on what it may not: its whole-phase plan is
 * the same on a state whose hidden parts (the dice's future 2.4, others' sealed plans 4.5 and
 * standing bids 13.3) are scrambled as on the state itself, and the two states show the seat the
 * same view. It plays through the engine's public contract with every order accepted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { UNBOUNDED } from '../../src/bot/clock.ts';
import { combatSearch, EXPERT_TASTE, expertPolicy, search, weigh } from '../../src/bot/expert.ts';
import { createBot } from '../../src/bot/levels.ts';
import { createEngine, type Engine, type GameState, type PlayerId, simSetup } from '../../src/index.ts';
import type { RealmPlayer } from '../../src/model/realm.ts';
import { seedRng } from '../../src/model/rng.ts';
import { UNIT_KINDS } from '../../src/model/units.ts';

const KIND = UNIT_KINDS[5];

const TASTE = { ...EXPERT_TASTE, variants: 2, unboundedRounds: 2 };
let engine: Engine;
/** Expert seats' movement phases met in a seeded game, at their first decision. */
const phases: { state: GameState; player: PlayerId }[] = [];
/** Expert seats' combat decisions met in that game where an attack could be made (7). */
const fights: { state: GameState; player: PlayerId }[] = [];
let refused: string[] = [];

beforeAll(() => {
  engine = createEngine();
  const opt = { auction: true, tribute: true };
  const created = engine.createGame({ ...simSetup('expert-test', 4), options: { opt, victory: 'basic' } });
  if (!created.ok) throw new Error(created.error.code);
  let state: GameState = created.value;
  const experts = new Set(['p1', 'p3']);
  const bots = new Map(
    state.players.map((p) => [
      p.id,
      experts.has(p.id) ? expertPolicy(`e:${p.id}`, undefined, TASTE) : createBot('strong', `e:${p.id}`),
    ]),
  );
  refused = [];
  for (let n = 0; state.turn <= 30 && n < 60_000; n++) {
    const player = engine.waitingFor(state)[0] as PlayerId | undefined;
    if (!player) break;
    const step = state.step;
    if (
      experts.has(player) &&
      step.kind === 'playerTurn' &&
      step.phase === 'movement' &&
      step.moved.length === 0 &&
      state.realm
    )
      phases.push({ state, player });
    if (
      experts.has(player) &&
      step.kind === 'playerTurn' &&
      step.phase === 'combat' &&
      engine.legalOrders(state, player).some((o) => o.type === 'combatAttack')
    )
      fights.push({ state, player });
    const order = bots.get(player)!.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0]!;
    const r = engine.applyOrder(state, player, order);
    if (!r.ok) {
      refused.push(`${player} ${r.error.code} ${JSON.stringify(order)}`);
      break;
    }
    state = r.value.state;
  }
}, 300_000);

/** The state with everything the seat may not see replaced. */
function scrambled(state: GameState, me: PlayerId): GameState {
  const realm = state.realm!;
  const players: Record<string, RealmPlayer> = Object.fromEntries(
    Object.entries(realm.players).map(([id, p]) => [
      id,
      id === me
        ? p
        : ({
            ...p,
            plan: { disband: [], garrisonDisband: [], purchases: [], adminPercent: 60 },
            bids: {
              turn: state.turn,
              list: [{ bidder: id as PlayerId, auctioneer: me, kind: KIND, amount: 9 }],
            },
          } as RealmPlayer),
    ]),
  );
  return {
    ...state,
    rng: seedRng('someone else entirely'),
    riggedDice: [6, 6, 1],
    realm: { ...realm, players },
  };
}

describe('expert bot', () => {
  it('plays 30 turns through the contract with every order accepted', () => {
    expect(refused).toEqual([]);
    expect(phases.length).toBeGreaterThan(4);
  });

  it('plans the same on a state whose hidden parts are scrambled (it never reads them)', () => {
    const some = phases.filter((_, i) => i % 2 === 0).slice(-5);
    for (const { state, player } of some) {
      const other = scrambled(state, player);
      expect(engine.view(other, player)).toEqual(engine.view(state, player));
      expect(engine.hash(other)).not.toBe(engine.hash(state));
      // Every plan tried and every score of its rollouts (dice included) are the same.
      const seen = weigh(engine, state, player, UNBOUNDED, 'same-seed', TASTE);
      expect(weigh(engine, other, player, UNBOUNDED, 'same-seed', TASTE)).toEqual(seen);
      const plan = search(engine, state, player, UNBOUNDED, 'same-seed', TASTE);
      expect(search(engine, other, player, UNBOUNDED, 'same-seed', TASTE)).toEqual(plan);
      expect(plan.length).toBeGreaterThan(0);
    }
  }, 300_000);

  it('chooses its attacks the same on a state whose hidden parts are scrambled (7, 2.4)', () => {
    expect(fights.length).toBeGreaterThan(2);
    for (const { state, player } of fights.slice(-6)) {
      const other = scrambled(state, player);
      expect(engine.view(other, player)).toEqual(engine.view(state, player));
      const strong = createBot('strong', 'same-seed').choose(engine, state, player);
      if (!strong) continue;
      const chosen = combatSearch(engine, state, player, strong, UNBOUNDED, 'same-seed', TASTE);
      expect(combatSearch(engine, other, player, strong, UNBOUNDED, 'same-seed', TASTE)).toEqual(chosen);
      expect(engine.applyOrder(state, player, chosen).ok).toBe(true);
    }
  }, 300_000);
});
