/**
 * The strong bot: a strategy through every stage, decided from the engine's legal orders and the
 * consequences the engine states (attack columns, plan costs), never from rules of its own.
 *
 * - Entry: the start position with the best prospects (start.ts).
 * - Barbarian: grow to a large horde, then turn most of it into combat units at once while
 *   keeping enough tribes for the ten units of the countdown (9.3.x); keep the largest group
 *   (9.3.4); give up a horde that can no longer reach a countdown (14.3).
 * - Movement and combat: concentrate on the best cities within reach and attack at good odds
 *   (moves.ts, combat.ts); pillage never (a city taxed every turn outlasts three turns' loot).
 * - Kingdom and empire: found the kingdom with the capital in the richest city; balance upkeep,
 *   purchases and the Administration Table (economy.ts); turn idle 4-2s in cities into garrisons
 *   on becoming an empire (the strategy notes, 11.1); answer rebellions by losing the least; give
 *   up a decayed empire once its income is small (14.3, the engine says when that is allowed).
 * - Agreements when the options are on (agreements.ts, tribute.ts): ransoms paid and asked (13.6),
 *   mercenaries offered and hired (13.4), bids at auctions (13.3), tribute paid for cities under
 *   threat (13.7); what it agreed is kept: leases never ended early, their price and its bids kept
 *   back from its plans, a payer of tribute spared for the turn.
 */

import type { Engine } from '../engine.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import { realmPlayer } from '../model/realm.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import { isRealmAnytimeOrder } from '../realm/diplomacy-orders.ts';
import { navalChoice } from '../sim/naval-policy.ts';
import type { Policy } from '../sim/policy.ts';
import { seededChooser } from '../sim/policy.ts';
import { expand } from '../turn/concrete-orders.ts';
import { supportMovesOwed } from '../turn/movement-phase.ts';
import { agreementChoice, bidChoice } from './agreements.ts';
import { type Board, readBoard } from './board-facts.ts';
import { type Clock, UNBOUNDED } from './clock.ts';
import { strongCombat } from './combat-play.ts';
import { distancesOf } from './distances.ts';
import { economicPlan } from './economic-plan.ts';
import { strongMove } from './moves.ts';
import { chooseStart } from './start.ts';
import { keepsBargain, payersThisTurn, sparing, tributeChoice, tributeMemory } from './tribute-play.ts';
import { seaworthy } from './voyages.ts';

export interface StrongTaste {
  /** Tribes to grow to before combining (9.2, 9.3.x). */
  readonly hordeSize: number;
  /** Tribes kept uncombined so that tribes plus new units reach the countdown's ten (9.3.x). */
  readonly keepTribes: number;
  /** An empire with a last income under this gives up its position (14.3). */
  readonly abandonIncome: number;
  /** Spread of the random factor on each move's gain (0: none); a search's other plans (expert.ts). */
  readonly jitter?: number;
}

export const STRONG_TASTE: StrongTaste = { hordeSize: 16, keepTribes: 4, abandonIncome: 8 };

type Of<T extends LegalOrder['type']> = Extract<LegalOrder, { type: T }>;

export function strongPolicy(
  seed: string,
  clock: () => Clock = () => UNBOUNDED,
  taste = STRONG_TASTE,
): Policy {
  const choose = seededChooser(seed);
  const memory = tributeMemory();
  return {
    aside(engine, state, player) {
      return tributeChoice(engine, state, player, () => distancesOf(engine.map), memory);
    },
    choose(engine, state, player) {
      const budget = clock();
      const all = engine.legalOrders(state, player);
      // 13.7: a player who paid this one tribute this turn is spared (tribute.ts).
      const spared = payersThisTurn(state, player);
      const legal = all.filter(
        (o) =>
          o.type !== 'declareAbandon' &&
          o.type !== 'undo' &&
          !isRealmAnytimeOrder(o) &&
          keepsBargain(o, spared),
      );
      const of = <T extends LegalOrder['type']>(t: T) => legal.filter((o) => o.type === t) as Of<T>[];
      const board = sparing(readBoard(engine, state, player), state, spared);
      const me = state.players.find((p) => p.id === player);
      const cycle = me?.cycle ?? null;
      const step = state.step;
      const abandon = () =>
        all.some((o) => o.type === 'declareAbandon' && o.abandon)
          ? ({ type: 'declareAbandon', abandon: true } as const)
          : null;

      if (step.kind === 'entry') {
        const army = of('persianArmy')[0];
        if (army) return { type: 'persianArmy', units: army.units, leader: army.leader };
        const placed = of('placeEntryTribes')[0];
        if (placed) return expand(placed, choose);
        return chooseStart(engine, state, board, of('chooseStart'));
      }
      if (step.kind === 'economic') {
        if (cycle && cycle.stage !== 'barbarian' && !me?.abandoning && decayed(state, board, player, taste)) {
          const a = abandon();
          if (a) return a;
        }
        const ransom = agreementChoice(state, board, all, false);
        if (ransom) return ransom;
        if (cycle && cycle.stage !== 'barbarian' && realmPlayer(state, player).plan === null) {
          const plan = economicPlan(engine, state, board, legal as never);
          if (plan) return plan;
        }
        return bidChoice(engine, state, player, legal) ?? { type: 'endPhase' };
      }
      if (step.kind === 'administration') return administration(engine, state, board, legal, choose);
      if (step.kind !== 'playerTurn') return null;

      // 5.3, 8.2: voyages only with their risk weighed, landings only where the force is enough.
      const naval = navalChoice(engine, state, player, seaworthy(engine, state, board, legal), choose);
      if (naval) return naval;
      const tribes = board.mine.filter((u) => u.kind === 'tribe' && !u.inverted).length;
      const countdown = cycle?.countdownStartTurn ?? null;
      if (step.phase === 'combination') {
        const c = of('combine')[0];
        const age = cycle ? state.turn - cycle.startedTurn : 0;
        const ready = tribes >= taste.hordeSize || (age >= 5 && tribes >= 6) || countdown !== null;
        const combat = board.mine.some((u) => u.kind !== 'tribe' && u.kind !== 'leader');
        // Keep a few tribes for the count of ten (9.3.x) unless the count has started or units already exist.
        const keep = countdown !== null || combat ? 0 : Math.min(taste.keepTribes, Math.floor(tribes / 3));
        if (c && ready && tribes - 2 >= keep) return combineChoice(board, c);
        return { type: 'endPhase' };
      }
      if (step.phase === 'growth') {
        const s = of('split')[0];
        if (s && countdown === null && tribes < taste.hordeSize) return s;
        return { type: 'endPhase' };
      }
      if (step.phase === 'movement') {
        if (hopeless(state, player)) {
          const a = abandon();
          if (a) return a;
        }
        const deal = agreementChoice(state, board, all, step.moved.length === 0);
        if (deal) return deal;
        // 11.5: unsupported empire units must try to regain support before the phase may end.
        const owed = supportMovesOwed({ map: engine.map, options: state.options }, state, player);
        const regain = of('move').find((m) => owed.includes(m.unit));
        if (regain?.destinations[0])
          return { type: 'move', unit: regain.unit, path: regain.destinations[0].path };
        const spread = taste.jitter ?? 0;
        const noise = spread > 0 ? () => 1 + spread * (choose(1001) / 1000 - 0.5) : undefined;
        return strongMove(state, board, of('move'), step.moved, budget, noise);
      }
      if (step.phase === 'stacking') {
        // 6: the weakest unit of an overstacked area goes.
        const out = of('disband').sort(
          (a, b) =>
            strengthOf(state.units[a.unit]?.kind ?? 'tribe', state.options) -
            strengthOf(state.units[b.unit]?.kind ?? 'tribe', state.options),
        )[0];
        return out ?? null;
      }
      return strongCombat(state, board, legal, choose);
    },
  };
}

/** Combine the pair whose area has the best prospects (new units are created there, 9.1). */
function combineChoice(board: Board, c: Of<'combine'>): Order {
  const area =
    [...c.areas].sort((a, b) => nearestTarget(board, a) - nearestTarget(board, b))[0] ?? c.areas[0]!;
  return { type: 'combine', tribes: c.tribes, area };
}

const nearestTarget = (board: Board, a: AreaId): number =>
  Math.min(99, ...board.targets.map((t) => board.distances.between(a, t.area)));

/** 14.3: a realm with no units left, or an empire whose income has fallen low. */
function decayed(state: GameState, board: Board, player: PlayerId, taste: StrongTaste): boolean {
  const p = state.players.find((x) => x.id === player);
  if (!p?.cycle) return false;
  if (board.mine.filter((u) => u.kind !== 'leader').length === 0) return true;
  return (
    p.cycle.stage === 'empire' &&
    state.turn - p.cycle.stageTurn >= 6 &&
    realmPlayer(state, player).lastIncome < taste.abandonIncome
  );
}

/** 9.3.x: a horde that cannot grow any more and has no countdown after twelve turns never will. */
function hopeless(state: GameState, player: PlayerId): boolean {
  const p = state.players.find((x) => x.id === player);
  const cycle = p?.cycle;
  if (!p || p.abandoning || cycle?.stage !== 'barbarian' || cycle.countdownStartTurn !== null) return false;
  return state.flags.growthBanned.includes(player) && state.turn - cycle.startedTurn >= 10;
}

function administration(
  engine: Engine,
  state: GameState,
  board: Board,
  legal: readonly LegalOrder[],
  choose: (n: number) => number,
): Order | null {
  const me = board.me;
  const tax = (a: AreaId | null) => (a ? (engine.map.area(a)?.city?.tax ?? 0) : 0);
  const strength = (id: string) => strengthOf(state.units[id]?.kind ?? 'tribe', state.options);
  const first = legal[0];
  if (!first) return engine.timeoutOrders(state, me)[0] ?? null;
  switch (first.type) {
    case 'keepGroup': {
      const keep = (legal as Of<'keepGroup'>[]).sort((a, b) => b.group.length - a.group.length)[0]!;
      return { type: 'keepGroup', area: keep.area };
    }
    case 'removeUnits': {
      // 9.3.5: the weakest go, tribes first.
      const units = [...first.candidates].sort((a, b) => strength(a) - strength(b)).slice(0, first.count);
      return { type: 'removeUnits', units };
    }
    case 'foundKingdom': {
      // 10.1/10.3: the capital in the richest city; the leader with the strongest unit.
      const capital = [...first.capital].sort((a, b) => tax(b) - tax(a))[0] ?? null;
      const leaderWith = [...first.leaderWith].sort((a, b) => strength(b) - strength(a))[0] ?? null;
      return { type: 'foundKingdom', leaderWith, capital };
    }
    case 'realmCities': {
      const loss = (o: LegalOrder) =>
        o.type === 'realmCities' ? o.cities.reduce((s, a) => s + tax(a), 0) : 99;
      return [...legal].sort((a, b) => loss(a) - loss(b))[0] as Order;
    }
    case 'realmProvince': {
      const mine = (prov: string) =>
        board.owned.filter((a) => engine.map.area(a)?.province === prov).reduce((s, a) => s + tax(a), 0);
      const loss = (o: LegalOrder) => (o.type === 'realmProvince' ? mine(o.province) : 99);
      return [...legal].sort((a, b) => loss(a) - loss(b))[0] as Order;
    }
    case 'realmCapital': {
      const best = (legal as Of<'realmCapital'>[]).sort((a, b) => tax(b.area) - tax(a.area))[0]!;
      return best;
    }
    case 'realmGarrisons': {
      // The strategy notes: 4-2s standing in their own cities become garrisons (upkeep 1, 11.3).
      const inCity = (id: string) => {
        const area = state.units[id]?.area;
        return area !== undefined && board.owned.includes(area);
      };
      const sets = (legal as Of<'realmGarrisons'>[]).filter((o) => o.units.every(inCity));
      return sets.sort((a, b) => b.units.length - a.units.length)[0] ?? (legal[0] as Order);
    }
    default:
      return engine.timeoutOrders(state, me)[0] ?? expand(first, choose);
  }
}
