/**
 * 13.7 Tribute for the strong bot: money paid for non-aggression (not binding, 12).
 *
 * - As payer (a kingdom or empire, while the receiver's turn has not reached its combat): when the
 *   receiver's units next to its cities are strong enough to take them, it pays up to the tax those
 *   cities bring in a turn, within what the engine allows (its legal `realmTribute` amounts) and
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
import type { Board } from './board.ts';
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

/** Cities of `me` that the receiver's units next to them could take (attack at 3-2 or better, or walk in). */
function threatened(state: GameState, d: Distances, me: PlayerId, receiver: PlayerId): AreaId[] {
  const strength = (owner: PlayerId, near: (a: AreaId) => boolean) =>
    Object.values(state.units)
      .filter((u) => u.owner === owner && u.kind !== 'leader' && near(u.area))
      .reduce((s, u) => s + strengthOf(u.kind, state.options), 0);
  const out: AreaId[] = [];
  for (const [area, c] of Object.entries(state.cities)) {
    if (c?.owner !== me) continue;
    const attack = strength(receiver, (a) => d.between(a, area as AreaId) === 1);
    if (attack === 0) continue;
    const defence = strength(me, (a) => a === area);
    if (attack >= 1.5 * defence) out.push(area as AreaId);
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
  const cities = threatened(state, d, me, receiver);
  if (cities.length === 0) return null;
  const value = cities.reduce((s, a) => s + (engine.map.area(a)?.city?.tax ?? 0), 0);
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
