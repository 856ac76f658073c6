/**
 * The analysis board's engine side: a playable game built from what one viewer sees, its hidden
 * parts filled with neutral defaults and never with the truth (docs/analysis-board.md); the next
 * roll set by the person; a position written as a link and read back, garbage refused by code.
 */
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  type Engine,
  type GameEvent,
  type GameState,
  hashState,
  initialRealmPlayer,
  openPosition,
  type PlayerId,
  POSITION_FORMAT,
  positionFromView,
  seedRng,
  sharePosition,
  simplePolicy,
  simSetup,
  withNextRoll,
} from '../../src/index.ts';
import type { RealmState } from '../../src/model/realm.ts';

const engine = createEngine();
const P = (s: string) => s as PlayerId;

/** A simulated world played until someone may attack (a neutral garrison or a neighbour). */
function untilAnAttack(engine: Engine, seed: string): { state: GameState; player: PlayerId } {
  const created = engine.createGame(simSetup(seed, 3));
  if (!created.ok) throw new Error(created.error.code);
  const policy = simplePolicy(seed);
  let s = created.value;
  for (let i = 0; i < 5000; i++) {
    const [player] = engine.waitingFor(s);
    if (!player) break;
    if (
      engine
        .legalOrders(s, player)
        .some((o) => o.type === 'combatAttack' && o.choices.some((c) => c.odds !== 'autoAE'))
    )
      return { state: s, player };
    const order = policy.choose(engine, s, player);
    if (!order) break;
    const r = engine.applyOrder(s, player, order);
    if (!r.ok) throw new Error(r.error.code);
    s = r.value.state;
  }
  throw new Error('no attack came up');
}

/** The same state with sealed choices of its players: plans (4.5), bids (13.3), an offer between two (13.4). */
function withSecrets(state: GameState): GameState {
  const realm = state.realm as RealmState;
  const plan = (percent: number) => ({
    disband: [],
    garrisonDisband: [],
    purchases: [],
    adminPercent: percent,
  });
  const bid = {
    turn: state.turn,
    list: [{ bidder: P('p2'), auctioneer: P('p3'), kind: 'cavalry' as const, amount: 17 }],
  };
  return {
    ...state,
    realm: {
      ...realm,
      players: {
        ...realm.players,
        p1: { ...initialRealmPlayer(), plan: plan(10) },
        p2: { ...initialRealmPlayer(), plan: plan(30), bids: bid },
      },
      leases: [{ owner: P('p2'), hirer: P('p3'), units: [], price: 23, status: 'offered', turn: state.turn }],
    },
  };
}

describe('a position from what a viewer sees (the board never learns the hidden truth)', () => {
  const { state } = untilAnAttack(engine, 'board-view');
  const secret = withSecrets(state);

  it("keeps the viewer's own choices and fills the others' with neutral defaults", () => {
    const built = positionFromView(engine.view(secret, P('p1')), 'my-seed');
    const realm = built.realm as RealmState;
    // The viewer's own plan is theirs to see (4.5).
    expect(realm.players.p1?.plan?.adminPercent).toBe(10);
    // 4.5: p2's plan is not carried out yet: on the board p2 has not decided (the default plan
    // applies when its economic phase comes), which is how a player who has not chosen plays.
    expect(realm.players.p2?.plan).toBeNull();
    // 13.3: p2's standing bid is sealed: on the board p2 has bid nothing.
    expect(realm.players.p2?.bids).toBeUndefined();
    // 13.4: an offer between two others was never made, as far as the board knows.
    expect(realm.leases).toEqual([]);
    // None of the sealed numbers is anywhere in the built game.
    const text = JSON.stringify(built);
    expect(text).not.toContain('"adminPercent":30');
    expect(text).not.toContain('"amount":17');
    expect(text).not.toContain('"price":23');
  });

  it("rolls from the person's seed, not the world's; with no dice set and no undo window", () => {
    const built = positionFromView(engine.view(secret, P('p1')), 'my-seed');
    expect(built.rng).toEqual(seedRng('my-seed'));
    expect(built.rng).not.toEqual(state.rng);
    expect(built.riggedDice).toEqual([]);
    expect(built.undo).toBeNull();
    // The record sheet reaches a viewer as events: the board starts a fresh page (no rule reads it).
    expect(built.realm?.sheet).toEqual([]);
  });

  it('shows the viewer the same board it was built from', () => {
    const view = engine.view(secret, P('p1'));
    const again = engine.view(positionFromView(view, 'my-seed'), P('p1'));
    const { canUndo: _a, ...before } = JSON.parse(JSON.stringify(view));
    const { canUndo: _b, ...after } = JSON.parse(JSON.stringify(again));
    expect(after).toEqual(before);
    expect(engine.waitingFor(positionFromView(view, 'x'))).toEqual(engine.waitingFor(secret));
  });

  it('gives the side to move the same legal orders as the world does', () => {
    const { state, player } = untilAnAttack(engine, 'board-legal');
    const built = positionFromView(engine.view(state, null), 'seed');
    expect(engine.legalOrders(built, player)).toEqual(engine.legalOrders(state, player));
  });
});

describe('setting the next roll', () => {
  it('an attack rolls the dice set, whatever the seed', () => {
    const { state, player } = untilAnAttack(engine, 'board-dice');
    const attack = engine
      .legalOrders(state, player)
      .flatMap((o) => (o.type === 'combatAttack' ? [o] : []))
      .find((o) => o.choices.some((c) => c.odds !== 'autoAE'));
    if (!attack) throw new Error('no attack');
    const choice = attack.choices.find((c) => c.odds !== 'autoAE')!;
    const order = { type: 'combatAttack', target: attack.target, attackers: choice.attackers };
    for (const [seed, faces] of [
      ['one', [6, 5]],
      ['two', [6, 5]],
      ['three', [1, 2]],
    ] as const) {
      const built = positionFromView(engine.view(state, null), seed);
      const set = withNextRoll(built, faces);
      if (!set.ok) throw new Error(set.error.code);
      const r = engine.applyOrder(set.value, player, order);
      if (!r.ok) throw new Error(r.error.code);
      const resolved = r.value.events.find(
        (e): e is Extract<GameEvent, { type: 'combatResolved' }> => e.type === 'combatResolved',
      );
      expect(resolved?.dice).toEqual(faces);
      // The dice set are used up: the next roll comes from the board's seed again.
      expect(r.value.state.riggedDice).toEqual([]);
    }
  });

  it('refuses faces a die does not have', () => {
    const built = positionFromView(engine.view(untilAnAttack(engine, 'board-dice').state, null), 's');
    for (const faces of [[0], [7], [2.5], []]) {
      const r = withNextRoll(built, faces);
      expect(r.ok ? 'taken' : r.error.code).toBe('position/invalid');
    }
    expect(withNextRoll(built, [3, 4]).ok).toBe(true);
    // Pure: the state given is not changed.
    expect(built.riggedDice).toEqual([]);
  });
});

describe('a position as a link', () => {
  const { state, player } = untilAnAttack(engine, 'board-link');
  const secret = withSecrets(state);

  it("carries what a spectator sees, never a sealed choice (not even the sharer's own)", () => {
    const link = sharePosition(secret);
    expect(link.format).toBe(POSITION_FORMAT);
    const text = JSON.stringify(link);
    expect(text).not.toContain('"adminPercent":10');
    expect(text).not.toContain('"amount":17');
    expect(text).not.toContain('"price":23');
    expect(text).not.toContain('"rng"');
  });

  it('reads back to a game with the same board, playable by the same side', () => {
    const link = JSON.parse(JSON.stringify(sharePosition(state)));
    const opened = openPosition(engine, link, 'reader');
    if (!opened.ok) throw new Error(opened.error.message);
    expect(hashState(engine.view(opened.value, null))).toBe(hashState(engine.view(state, null)));
    expect(engine.legalOrders(opened.value, player)).toEqual(engine.legalOrders(state, player));
  });

  it('reads back a position whose hordes rolled their entry order (AMBIG-44 packs the rolls into one key)', () => {
    const entered = withSecrets(state);
    const packed = {
      ...entered,
      players: entered.players.map((p, i) =>
        p.cycle ? { ...p, cycle: { ...p.cycle, orderRoll: 3327 + i } } : p,
      ),
    };
    const opened = openPosition(engine, JSON.parse(JSON.stringify(sharePosition(packed))), 'reader');
    expect(opened.ok ? 'ok' : opened.error.message).toBe('ok');
  });

  it('refuses garbage with a code for each kind of fault', () => {
    const link = JSON.parse(JSON.stringify(sharePosition(state)));
    const code = (raw: unknown) => {
      const r = openPosition(engine, raw, 's');
      return r.ok ? 'opened' : r.error.code;
    };
    expect(code(null)).toBe('position/unknown_format');
    expect(code({ format: 'bke-record', version: 1 })).toBe('position/unknown_format');
    expect(code({ ...link, version: 99 })).toBe('position/unknown_version');
    expect(code({ ...link, position: { ...link.position, turn: -1 } })).toBe('position/invalid');
    const name = { ...link.position.players[0], name: 'bad\u0007name' };
    expect(
      code({ ...link, position: { ...link.position, players: [name, ...link.position.players.slice(1)] } }),
    ).toBe('position/invalid');
    expect(code({ ...link, position: { ...link.position, mapVersion: 'another-map' } })).toBe(
      'position/map_mismatch',
    );
    const [first] = Object.values(link.position.units) as { id: string }[];
    const lost = {
      ...link.position.units,
      [first!.id]: { ...link.position.units[first!.id], area: 'atlantis' },
    };
    expect(code({ ...link, position: { ...link.position, units: lost } })).toBe('position/unplayable');
    expect(code(link)).toBe('opened');
  });
});
