/**
 * 8.2 Naval landings (AMBIG-16, AMBIG-17) and 8.3 retreats by ships: the bookkeeping that ties the
 * movement phase (where a landing is declared) to the combat phase (where it is fought).
 *
 * Representation (engine decision, docs/rules-decisions.md "Naval"): a ship that lands sails its
 * path as usual but stops in the last sea area it crossed, with its cargo; the landing is recorded
 * in the combat sub-state (`landings`). The force stays at sea until its compulsory attack: it then
 * lands in the target once the target is clear, or goes back to a shore of that sea (8.2, AMBIG-17).
 * So an area never holds two players' units, and the stacking of the waiting force is that of a
 * legal stack at sea.
 */

import { combatStateOf, type Landing } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { isLegalStack, type StackPiece } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import type { Unit, UnitKind } from '../model/units.ts';
import { UNIT_PROFILES } from '../model/units.ts';
import { shipGraph } from './sea-graph.ts';

const isSea = (ctx: EngineContext, a: AreaId): boolean => ctx.map.area(a)?.kind === 'sea';

/** 8.2: every landing recorded this player turn and not yet closed. */
export const landingsOf = (g: GameStateCore): readonly Landing[] => combatStateOf(g).landings ?? [];

/** 8.2: the landing a unit (ship or cargo) belongs to, while it still waits at sea. */
export function landingOfUnit(g: GameStateCore, id: UnitId): Landing | null {
  const u = g.units[id];
  if (!u) return null;
  for (const l of landingsOf(g))
    if ((l.ship === id || l.cargo.includes(id)) && u.area === l.sea && g.units[l.ship]) return l;
  return null;
}

/** 8.2: the fighting units (ships and carried non-leader units) still waiting to land on `target`. */
export function landingForce(g: GameStateCore, target: AreaId): UnitId[] {
  const out: UnitId[] = [];
  for (const l of landingsOf(g)) {
    if (l.target !== target) continue;
    const ship = g.units[l.ship];
    if (!ship || ship.area !== l.sea) continue;
    out.push(l.ship);
    for (const id of l.cargo) {
      const u = g.units[id];
      if (u && u.area === l.sea && u.kind !== 'leader') out.push(id);
    }
  }
  return out;
}

/** 8.2: every unit of the landings on `target` (leaders included), still at sea. */
export function landingUnits(g: GameStateCore, target: AreaId): UnitId[] {
  return landingsOf(g)
    .filter((l) => l.target === target)
    .flatMap((l) => [l.ship, ...l.cargo].filter((id) => g.units[id]?.area === l.sea));
}

/** 8.2: the targets of `player`'s landings that are still owed an attack (ship alive, at sea, not yet attacked). */
export function owedLandingTargets(g: GameStateCore, player: PlayerId): AreaId[] {
  const attacked = combatStateOf(g).attackers;
  const out = new Set<AreaId>();
  for (const l of landingsOf(g)) {
    if (l.player !== player) continue;
    const ship = g.units[l.ship];
    if (ship && ship.area === l.sea && !attacked.includes(l.ship)) out.add(l.target);
  }
  return [...out].sort();
}

/** 8.2: one or two ships, or one ship with its carried unit (leaders do not count). */
export function isLandingForce(kinds: readonly UnitKind[]): boolean {
  const ships = kinds.filter((k) => UNIT_PROFILES[k].ship).length;
  const troops = kinds.filter((k) => !UNIT_PROFILES[k].ship && k !== 'leader').length;
  return (ships === 1 && troops <= 1) || (ships === 2 && troops === 0);
}

/** 8.2: record a declared landing (movement phase). */
export function recordLanding<S extends GameStateCore>(g: S, landing: Landing): S {
  const c = combatStateOf(g);
  return { ...g, combat: { ...c, landings: [...(c.landings ?? []), landing] } };
}

/** 8.2: forget the landings on `target` (landed, turned back or destroyed). */
export function closeLandings<S extends GameStateCore>(g: S, target: AreaId): S {
  const c = combatStateOf(g);
  if (!c.landings?.some((l) => l.target === target)) return g;
  return { ...g, combat: { ...c, landings: c.landings.filter((l) => l.target !== target) } };
}

/** 8.2: the areas whose ships may no longer intercept this phase (a landing was made into them). */
export const landingBlockedAreas = (g: GameStateCore): AreaId[] => [
  ...new Set(landingsOf(g).map((l) => l.target)),
];

// ---- 8.3 retreats by ships ----

const pieceOf = (u: Unit): StackPiece => ({ kind: u.kind, owner: u.owner, inverted: u.inverted === true });

/**
 * 8.3 (and 8.2 for a landing force): the shores a ship retreating across the sea area `sea` may end
 * on: coastal areas of that sea other than `from`, free of unfriendly units (and neutrals), where it
 * stacks legally; those not next to the areas it fought come first (7.3 criterion 2).
 */
export function seaRetreatShores(
  ctx: EngineContext,
  ship: Unit,
  sea: AreaId,
  avoid: readonly AreaId[],
  fought: readonly AreaId[],
  occupants: (area: AreaId) => readonly StackPiece[],
): AreaId[] {
  const ok = ctx.map.shoresOf(sea).filter((shore) => {
    if (avoid.includes(shore) || ctx.map.area(shore)?.kind !== 'land') return false;
    const present = occupants(shore);
    if (present.some((p) => p.owner !== ship.owner && p.kind !== 'leader')) return false;
    return isLegalStack([...present, pieceOf(ship)]);
  });
  const far = ok.filter(
    (a) => !fought.includes(a) && !fought.some((f) => ctx.map.landLinks(f).some((l) => l.to === a)),
  );
  return [...(far.length ? far : ok)].sort();
}

/** 8.3: the coastal areas next to `area` that a ship reaches along the coast (shoreline, white arrow). */
export function coastalNeighbours(ctx: EngineContext, area: AreaId): AreaId[] {
  if (isSea(ctx, area)) return [];
  return (shipGraph(ctx.map).get(area) ?? [])
    .filter((s) => s.via !== 'coast' && !isSea(ctx, s.to))
    .map((s) => s.to);
}
