/**
 * A simple rule-following policy for `sim`: it grows until the horde is big enough for the
 * countdown, then combines; spreads tribes into free areas; moves combat units towards neutral
 * cities; attacks neutral garrisons (and weak enemies) at good odds; advances into what it
 * beats; pillages some cities. Deterministic given its own seed.
 */

import type { Engine } from '../engine.ts';
import { columnRatio } from '../model/column-ratio.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import { type RngState, rollDie, seedRng } from '../model/rng.ts';
import type { GameState } from '../model/state.ts';
import { isRealmAnytimeOrder } from '../realm/diplomacy-orders.ts';
import { type Chooser, expand } from '../turn/concrete-orders.ts';
import { supportMovesOwed } from '../turn/movement-phase.ts';
import { diplomacyChoice } from './diplomacy-policy.ts';
import { navalChoice } from './naval-policy.ts';
import { realmPlanChoice, wantsToAbandon } from './realm-policy.ts';

export interface Policy {
  choose(engine: Engine, state: GameState, player: PlayerId): Order | null;
  /**
   * An order given while others act (13.7 tribute is paid in the receiver's turn), asked of every
   * seat the game is not waiting for after each order; null when there is none.
   */
  aside?(engine: Engine, state: GameState, player: PlayerId): Order | null;
}

/** A seeded chooser: uniform picks from a private PRNG (never the game's dice). */
export function seededChooser(seed: string): Chooser {
  let rng: RngState = seedRng(seed);
  return (n: number) => {
    const [v, next] = rollDie(rng, Math.max(1, n));
    rng = next;
    return v - 1;
  };
}

/** Breadth-first distance from each area to the nearest area satisfying `goal` (land links). */
function distanceTo(engine: Engine, goal: (a: AreaId) => boolean): Map<AreaId, number> {
  const dist = new Map<AreaId, number>();
  let frontier = engine.map.areaIds.filter(goal);
  for (const a of frontier) dist.set(a, 0);
  for (let d = 1; frontier.length; d++) {
    const next: AreaId[] = [];
    for (const a of frontier) {
      for (const l of engine.map.landLinks(a)) {
        if (!dist.has(l.to)) {
          dist.set(l.to, d);
          next.push(l.to);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

export function simplePolicy(seed: string): Policy {
  const choose = seededChooser(seed);
  return {
    choose(engine, state, player) {
      const all = engine.legalOrders(state, player);
      // Standing choices (interception, tribute, leases, ransoms) are never owed.
      const legal = all.filter(
        (o) => o.type !== 'declareAbandon' && o.type !== 'undo' && !isRealmAnytimeOrder(o),
      );
      const of = <T extends LegalOrder['type']>(t: T) =>
        legal.filter((o) => o.type === t) as Extract<LegalOrder, { type: T }>[];
      const me = state.players.find((p) => p.id === player);
      const myUnits = Object.values(state.units).filter((u) => u.owner === player);
      const tribes = myUnits.filter((u) => u.kind === 'tribe').length;
      const step = state.step;
      if (step.kind === 'entry') {
        // 13.2.3: a Persian picks one of the armies offered (each concrete, with its placement).
        const armies = of('persianArmy');
        const army = armies[choose(armies.length)];
        if (army) return { type: 'persianArmy', units: army.units, leader: army.leader };
        return expand(of('chooseStart')[choose(of('chooseStart').length)]!, choose);
      }
      if (step.kind === 'economic') {
        // Kingdoms and empires give a plan, and may give up a decaying position.
        if (
          wantsToAbandon(state, player) &&
          engine.applyOrder(state, player, { type: 'declareAbandon', abandon: true }).ok
        )
          return { type: 'declareAbandon', abandon: true };
        const plan = realmPlanChoice(state, player, legal, choose);
        if (plan) return plan;
        const p = of('pillage')[0];
        const countdown = me?.cycle?.countdownStartTurn ?? null;
        if (p && countdown !== null && choose(2) === 0) return { type: 'pillage', area: p.area };
        return { type: 'endPhase' };
      }
      if (step.kind === 'administration') {
        const keep = of('keepGroup').sort((a, b) => b.group.length - a.group.length)[0];
        if (keep) return { type: 'keepGroup', area: keep.area };
        const [first] = engine.timeoutOrders(state, player);
        return first ?? null;
      }
      if (step.kind !== 'playerTurn') return null;
      // Ships: voyages, landings and their owed attacks, captures (src/sim/naval-policy.ts).
      const naval = navalChoice(engine, state, player, legal, choose);
      if (naval) return naval;
      const countdown = me?.cycle?.countdownStartTurn ?? null;
      if (step.phase === 'combination') {
        const c = of('combine')[0];
        if (c && (countdown !== null || tribes >= 14 || boxedIn(state, player, tribes)))
          return expand(c, choose);
        return { type: 'endPhase' };
      }
      if (step.phase === 'growth') {
        const s = of('split')[0];
        if (s && tribes < 20 && countdown === null) return s;
        return { type: 'endPhase' };
      }
      if (step.phase === 'movement') {
        if (
          hopelessHorde(state, player) &&
          engine.applyOrder(state, player, { type: 'declareAbandon', abandon: true }).ok
        )
          return { type: 'declareAbandon', abandon: true };
        // 13.4 / 13.6 when the options are on: leases and ransoms, at the start of the phase.
        const deal = diplomacyChoice(state, player, all, choose);
        if (deal) return deal;
        // 11.5: unsupported empire units must try to regain support before the phase may end.
        const owed = supportMovesOwed({ map: engine.map, options: state.options }, state, player);
        const regain = of('move').find((m) => owed.includes(m.unit));
        const to = regain?.destinations[choose(regain.destinations.length)];
        if (regain && to) return { type: 'move', unit: regain.unit, path: to.path };
        return movementChoice(engine, state, player, of('move'), choose);
      }
      if (step.phase === 'stacking') return of('disband')[0] ?? null;
      // Combat: choices owed first, then attacks at 2-1 or better, then done.
      const owed = legal.find(
        (o) => o.type !== 'combatAttack' && o.type !== 'combatDone' && o.type !== 'endPhase',
      );
      if (owed) {
        if (
          owed.type === 'combatAdvance' &&
          of('combatStop' as LegalOrder['type']).length &&
          choose(3) === 0
        ) {
          return { type: 'combatStop' } as Order;
        }
        return expand(owed, choose);
      }
      for (const a of legal) {
        if (a.type !== 'combatAttack') continue;
        const choices = (a as unknown as { choices: { attackers: string[]; odds: string }[] }).choices;
        const best = [...choices].sort((x, y) => columnRatio(y.odds) - columnRatio(x.odds))[0];
        if (best && columnRatio(best.odds) >= 2) {
          return {
            type: 'combatAttack',
            target: (a as unknown as { target: string }).target,
            attackers: best.attackers,
          } as Order;
        }
      }
      if (legal.some((o) => o.type === 'combatDone')) return { type: 'combatDone' } as Order;
      return legal.some((o) => o.type === 'endPhase') ? { type: 'endPhase' } : null;
    },
  };
}

/**
 * A horde that stopped growing (its homeland is full, e.g. the Picts' nine free areas north of
 * the wall, fewer than the ten units of the countdown, 9.3.x): combine about a third of its tribes
 * while the rest still split into the freed areas, so the created units and the new tribes
 * together pass ten and the units can break out.
 */
function boxedIn(state: GameState, player: PlayerId, tribes: number): boolean {
  const cycle = state.players.find((p) => p.id === player)?.cycle;
  if (cycle?.stage !== 'barbarian' || cycle.countdownStartTurn !== null) return false;
  // Only in a turn the horde may still grow (9.2): the one turn that both creates and grows.
  if (state.flags.growthBanned.includes(player)) return false;
  if (state.turn - cycle.startedTurn < 6 || tribes < 4) return false;
  const inverted = Object.values(state.units).filter((u) => u.owner === player && u.inverted).length;
  // Three pairs out of nine: six tribes refill the rest, and the pairs' units make ten or more.
  return inverted < Math.min(6, 2 * Math.floor(tribes / 3));
}

/**
 * 9.3.x: a horde that can no longer grow (it owns combat units) and still has no countdown after
 * twelve turns will never become a kingdom (the strategy notes: it dwindles): the policy gives it up
 * (14.3, abandoning in the administration phase) to start a new cycle elsewhere.
 */
function hopelessHorde(state: GameState, player: PlayerId): boolean {
  const p = state.players.find((x) => x.id === player);
  const cycle = p?.cycle;
  if (!p || p.abandoning || cycle?.stage !== 'barbarian' || cycle.countdownStartTurn !== null) return false;
  return state.flags.growthBanned.includes(player) && state.turn - cycle.startedTurn >= 12;
}

function movementChoice(
  engine: Engine,
  state: GameState,
  player: PlayerId,
  moves: Extract<LegalOrder, { type: 'move' }>[],
  choose: Chooser,
): Order {
  const mine = Object.values(state.units).filter((u) => u.owner === player && u.kind !== 'leader');
  const occupiedByMe = new Set(mine.map((u) => u.area));
  const crowded = new Set(
    [...occupiedByMe].filter((a) => mine.filter((u) => u.area === a && !u.inverted).length > 1),
  );
  const neutralCity = distanceTo(engine, (a) => !!state.neutrals[a] && !!engine.map.area(a)?.city);
  for (const m of moves) {
    const unit = state.units[m.unit];
    if (!unit) continue;
    if (unit.kind === 'tribe') {
      // Spread: a tribe sharing its area moves to a free area.
      if (!crowded.has(unit.area)) continue;
      const free = m.destinations.filter((d) => !occupiedByMe.has(d.to));
      const d = free[choose(free.length)];
      if (d) return { type: 'move', unit: m.unit, path: d.path };
      continue;
    }
    // Combat units: close in on the nearest neutral city, to an area free of own units.
    const here = neutralCity.get(unit.area) ?? 99;
    const better = m.destinations
      .filter(
        (d) =>
          !occupiedByMe.has(d.to) &&
          (neutralCity.get(d.to) ?? 99) < here &&
          (neutralCity.get(d.to) ?? 99) >= 1,
      )
      .sort((a, b) => (neutralCity.get(a.to) ?? 99) - (neutralCity.get(b.to) ?? 99));
    const d = better[0];
    if (d) return { type: 'move', unit: m.unit, path: d.path };
  }
  return { type: 'endPhase' };
}
