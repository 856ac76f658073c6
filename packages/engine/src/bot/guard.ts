/**
 * Orders a bot never gives, whatever its level, taken out of the legal orders it is shown: a
 * policy that picks among what is left cannot make an absurd mistake. The engine's own foreseen
 * consequences decide (src/model/consequences.ts); the one count made here is a voyage's sea
 * areas, the number the sinking roll is made against (5.3).
 */
import type { Engine } from '../engine.ts';
import { columnRatio } from '../model/column-ratio.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { GameState } from '../model/state.ts';

export interface Guard {
  /** Drop voyages whose sinking chance is at least this (5.3: seas entered in 6); 1: keep all. */
  readonly voyageRisk: number;
  /** Drop attack choices below this odds ratio (7.1), a naval landing's owed attack aside (8.2); 0: keep all. */
  readonly leastAttackOdds: number;
}

/**
 * The newcomer's guard: it keeps its horde together, never throws its last units away, and is
 * cautious, attacking only at 3-1 or better (the simple policy goes in at 2-1).
 */
export const NOVICE_GUARD: Guard = { voyageRisk: 1 / 2, leastAttackOdds: 3 };

/** The levels that plan: no voyage with a third or more of sinking (two sea areas or more, 5.3). */
export const STRONG_GUARD: Guard = { voyageRisk: 1 / 3, leastAttackOdds: 0 };

/** 5.3: a ship sinks on a die at most the number of sea areas it entered. */
export function voyageRisk(engine: Engine, path: readonly AreaId[]): number {
  return Math.min(1, path.filter((a) => engine.map.area(a)?.kind === 'sea').length / 6);
}

/** The legal orders with the guarded ones taken out. */
export function guardedOrders(
  engine: Engine,
  state: GameState,
  player: PlayerId,
  legal: readonly LegalOrder[],
  guard: Guard,
): LegalOrder[] {
  const mine = Object.values(state.units).filter((u) => u.owner === player && u.kind !== 'leader');
  const few = mine.length <= 2;
  const out: LegalOrder[] = [];
  for (const o of legal) {
    if (o.type === 'move') {
      // 9.3.4 a horde cut apart for good, or a move that only loses (6, 9.2, 11.5).
      const destinations = o.destinations.filter(
        (d) =>
          !d.onlyLoses &&
          !(d.consequences ?? []).some(
            (c) =>
              (c.kind === 'hordeCutApart' && !c.mendable) ||
              (c.kind === 'mayBeLost' && c.chance >= guard.voyageRisk),
          ),
      );
      if (destinations.length) out.push({ ...o, destinations });
      continue;
    }
    if (o.type === 'seaCrossing') {
      // 13.1.1: a tribe's crossing with its chance of loss.
      const risky = (o.consequences ?? []).some(
        (c) => c.kind === 'mayBeLost' && c.chance >= guard.voyageRisk,
      );
      if (!o.onlyLoses && !risky) out.push(o);
      continue;
    }
    if (o.type === 'shipMove') {
      // 5.3: the ship and all it carries go down together; a landing (8.2) is fought on arrival.
      const risk = voyageRisk(engine, o.path);
      if (risk >= guard.voyageRisk) continue;
      if (few && o.cargo.length > 0 && risk > 0) continue;
      out.push(o);
      continue;
    }
    if (o.type === 'combatAttack' && o.landing !== true) {
      // 7.1: the last units never go into an attack below 3-1 (an exchange or a loss ends the realm).
      const all = new Set<string>(mine.map((u) => u.id));
      const choices = o.choices.filter(
        (c) =>
          columnRatio(c.odds) >= guard.leastAttackOdds &&
          !(few && c.attackers.every((a) => all.has(a)) && columnRatio(c.odds) < 3),
      );
      if (choices.length) out.push({ ...o, choices });
      continue;
    }
    out.push(o);
  }
  return out;
}

/** The engine as a policy sees it: the same, but its legal orders guarded. */
export function guardedEngine(engine: Engine, guard: Guard): Engine {
  return {
    ...engine,
    legalOrders: (state, player) =>
      guardedOrders(engine, state, player, engine.legalOrders(state, player), guard),
  };
}
