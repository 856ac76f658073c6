/**
 * 4.3.1 Tribal combination: two tribes each move up to one area into a common area and are
 * inverted; they take no part in growth or movement this turn (AMBIG-58 for the destination).
 */
import { mayEnterTerrain } from '../barbarian/land-movement.ts';
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { CoreLegalOrder } from '../model/legal-orders.ts';
import { blocksPlayer, unitsByArea, unitsOf } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import { type Game, patchUnit, type Transition } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';

/** Areas a tribe reaches with at most one move (its own included). */
const reach = (
  ctx: EngineContext,
  g: Game,
  t: Unit,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): AreaId[] => [
  t.area,
  ...ctx.map
    .landLinks(t.area)
    .map((l) => l.to)
    .filter((a) => mayEnterTerrain(ctx, g, t, a) && !blocksPlayer(ctx, g, a, t.owner, byArea)),
];

/** The combination area may hold nothing but the two tribes (AMBIG-58, 6). */
const areaFreeFor = (byArea: ReadonlyMap<AreaId, readonly Unit[]>, area: AreaId, a: Unit, b: Unit): boolean =>
  (byArea.get(area) ?? []).every((u) => u.id === a.id || u.id === b.id || u.kind === 'leader');

/** 4.3.1: the combinations open to the player. */
export function combinationLegal(ctx: EngineContext, g: Game, player: PlayerId): CoreLegalOrder[] {
  const byArea = unitsByArea(g);
  const tribes = unitsOf(g, player).filter((u) => u.kind === 'tribe' && !u.inverted);
  const reachable = new Map<AreaId, Unit[]>();
  for (const t of tribes) {
    for (const a of reach(ctx, g, t, byArea)) {
      const l = reachable.get(a);
      if (l) l.push(t);
      else reachable.set(a, [t]);
    }
  }
  const pairs = new Map<string, CoreLegalOrder & { type: 'combine' }>();
  for (const [area, ts] of [...reachable.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    for (let i = 0; i < ts.length; i++) {
      for (let j = i + 1; j < ts.length; j++) {
        const a = ts[i]!;
        const b = ts[j]!;
        if (!areaFreeFor(byArea, area, a, b)) continue;
        const [x, y] = a.id < b.id ? [a, b] : [b, a];
        const key = `${x.id}|${y.id}`;
        const entry = pairs.get(key);
        if (entry) entry.areas.push(area);
        else pairs.set(key, { type: 'combine', tribes: [x.id, y.id], areas: [area] });
      }
    }
  }
  return [...pairs.values()];
}

/** 4.3.1: two tribes combine into one area, inverted. */
export function applyCombine(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: { tribes: [Unit['id'], Unit['id']]; area: AreaId },
): Result<Transition> {
  const [ia, ib] = order.tribes;
  const a = g.units[ia];
  const b = g.units[ib];
  if (!a || !b || ia === ib) return err('order/unknown_unit', { units: order.tribes });
  if (a.owner !== player || b.owner !== player) return err('order/not_your_unit', { units: order.tribes });
  if (a.kind !== 'tribe' || b.kind !== 'tribe') return err('order/not_a_tribe', { units: order.tribes });
  if (a.inverted || b.inverted) return err('order/tribe_inverted', { units: order.tribes });
  const byArea = unitsByArea(g);
  for (const t of [a, b]) {
    if (!reach(ctx, g, t, byArea).includes(order.area))
      return err('order/not_adjacent', { unit: t.id, to: order.area });
  }
  if (!areaFreeFor(byArea, order.area, a, b)) return err('order/area_occupied', { area: order.area });
  let s = patchUnit(g, a.id, { area: order.area, inverted: true });
  s = patchUnit(s, b.id, { area: order.area, inverted: true });
  return ok({
    state: s,
    events: [{ type: 'tribesCombined', player, tribes: [a.id, b.id], area: order.area }],
  });
}

/** 4.3.1: is at least one combination possible? (Early exit: used to skip an idle phase.) */
export function combinationPossible(ctx: EngineContext, g: Game, player: PlayerId): boolean {
  const byArea = unitsByArea(g);
  const seen = new Map<AreaId, Unit>();
  for (const t of unitsOf(g, player)) {
    if (t.kind !== 'tribe' || t.inverted) continue;
    for (const a of reach(ctx, g, t, byArea)) {
      const other = seen.get(a);
      if (other && areaFreeFor(byArea, a, other, t)) return true;
      if (!other) seen.set(a, t);
    }
  }
  return false;
}
