/**
 * 13.7 Tribute for the strong bot: money paid for non-aggression (not binding, 12).
 *
 * - As payer (a kingdom or empire, while the receiver's turn has not reached its combat): when the
 *   receiver's units next to its cities are strong enough to take them, it pays up to the tax those
 *   cities are expected to lose this turn (each city's tax times the chance it falls), within what
 *   the engine allows (its legal `realmTribute` amounts) and
 *   what it can spare after upkeep and its other promises. A receiver that takes one of those
 *   cities in the turn it was paid is never paid again.
 * - As receiver it keeps the bargain: in a turn it was paid by a player it neither attacks that
 *   player's units nor walks into that player's cities.
 */
import type { Engine } from '../engine.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import { realmPlayer } from '../model/realm.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import { spareMoney } from './agreements.ts';
import type { Board } from './board-facts.ts';
import type { Distances } from './distances.ts';

/** What the payer remembers of its tributes: whom it paid for which cities, and who broke faith. */
export interface TributeMemory {
  paid: { receiver: PlayerId; turn: number; cities: AreaId[] }[];
  distrusted: Set<PlayerId>;
  /** `turn|receiver` already decided this turn. */
  decided: Set<string>;
}

export const tributeMemory = (): TributeMemory => ({ paid: [], distrusted: new Set(), decided: new Set() });

/** 13.7: the players who paid this one tribute in the current turn (it spares them this turn). */
export function payersThisTurn(state: GameState, me: PlayerId): Set<PlayerId> {
  const out = new Set<PlayerId>();
  if (!state.options.opt.tribute) return out;
  for (const p of state.players) {
    const paid = realmPlayer(state, p.id).tributePaid;
    if (paid?.turn === state.turn && (paid.to[me] ?? 0) > 0) out.add(p.id);
  }
  return out;
}

/** The board with the payers' cities and units taken out of the targets (the bargain kept). */
export function sparing(board: Board, state: GameState, spared: ReadonlySet<PlayerId>): Board {
  if (spared.size === 0) return board;
  const theirs = (a: AreaId) =>
    spared.has(state.cities[a]?.owner as PlayerId) ||
    (board.others.get(a) ?? []).some((u) => spared.has(u.owner as PlayerId));
  return { ...board, targets: board.targets.filter((t) => !theirs(t.area)) };
}

/** 13.7: the attacks that keep the bargain (a landing's owed attack is made whatever, 8.2). */
export const keepsBargain = (o: LegalOrder, spared: ReadonlySet<PlayerId>): boolean =>
  o.type !== 'combatAttack' || o.landing === true || o.defender === null || !spared.has(o.defender);

/**
 * The chance the receiver takes a city it attacks at this ratio of strengths, read off the shape
 * of the Combat Results Table (7.1, C.1): a defender eliminated or retreating from 3-1 up most of
 * the time, about half the time at 2-1, rarely below 3-2.
 */
const takes = (ratio: number): number => (ratio >= 3 ? 0.8 : ratio >= 2 ? 0.55 : ratio >= 1.5 ? 0.3 : 0);

/**
 * Cities of `me` that the receiver's units next to them could take (attack at 3-2 or better, or
 * walk in), each with the chance it falls this turn.
 */
function threatened(
  state: GameState,
  d: Distances,
  me: PlayerId,
  receiver: PlayerId,
): { area: AreaId; chance: number }[] {
  const strength = (owner: PlayerId, near: (a: AreaId) => boolean) =>
    Object.values(state.units)
      .filter((u) => u.owner === owner && u.kind !== 'leader' && near(u.area))
      .reduce((s, u) => s + strengthOf(u.kind, state.options), 0);
  const out: { area: AreaId; chance: number }[] = [];
  for (const [area, c] of Object.entries(state.cities)) {
    if (c?.owner !== me) continue;
    const attack = strength(receiver, (a) => d.between(a, area as AreaId) === 1);
    if (attack === 0) continue;
    const defence = strength(me, (a) => a === area);
    const chance = defence === 0 ? 1 : takes(attack / defence);
    if (chance > 0) out.push({ area: area as AreaId, chance });
  }
  return out;
}

/**
 * 13.7: the tribute this bot pays now, while another player acts, or null. Cheap when the option is
 * off or the choice for this receiver and turn is made.
 */
export function tributeChoice(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  distances: () => Distances,
  memory: TributeMemory,
): Order | null {
  if (!state.options.opt.tribute || state.step.kind !== 'playerTurn') return null;
  const receiver = state.step.player;
  if (receiver === me) return null;
  const stage = state.players.find((p) => p.id === me)?.cycle?.stage;
  if (stage !== 'kingdom' && stage !== 'empire') return null;
  const d = distances();
  // A receiver paid for cities it then took broke faith.
  memory.paid = memory.paid.filter((x) => {
    const taken = (a: AreaId) =>
      state.cities[a]?.owner === x.receiver ||
      Object.values(state.units).some((u) => u.owner === x.receiver && u.area === a);
    if (x.cities.some(taken)) memory.distrusted.add(x.receiver);
    return x.turn >= state.turn - 1;
  });
  const key = `${state.turn}|${receiver}`;
  if (memory.decided.has(key) || memory.distrusted.has(receiver)) return null;
  const threats = threatened(state, d, me, receiver);
  const cities = threats.map((t) => t.area);
  if (cities.length === 0) return null;
  // Tribute buys nothing binding (12): it is worth at most the tax the cities would be expected
  // to lose this turn, so a city barely threatened is not paid for.
  const value = Math.floor(
    threats.reduce((s, t) => s + t.chance * (engine.map.area(t.area)?.city?.tax ?? 0), 0),
  );
  if (value <= 0) return null;
  const spare = spareMoney(state, me);
  const amounts = engine
    .legalOrders(state, me)
    .filter((o): o is Extract<LegalOrder, { type: 'realmTribute' }> => o.type === 'realmTribute')
    .filter((o) => o.to === receiver && o.amount <= Math.min(value, spare))
    .sort((a, b) => b.amount - a.amount);
  const pay = amounts[0];
  memory.decided.add(key);
  if (memory.decided.size > 64) memory.decided = new Set([...memory.decided].slice(-32));
  if (!pay) return null;
  memory.paid.push({ receiver, turn: state.turn, cities });
  return { type: 'realmTribute', to: receiver, amount: pay.amount };
}
