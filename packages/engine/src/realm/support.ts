/**
 * 11.5 The imperial boundary and support. An empire unit is supported when it is inside the
 * boundary, next to an inside area free of unfriendly units, next to an unbroken chain of friendly
 * units reaching such an area, or next to a sea touching an inside area with a friendly ship.
 * Neutral garrisons are unfriendly (AMBIG-51). Barbarian and kingdom units are always supported.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { actingNeutralAt, unitsByArea } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import { omitKeys } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';

const inside = (ctx: EngineContext, a: AreaId): boolean => {
  const area = ctx.map.area(a);
  return area?.kind === 'land' && area.insideEmpire;
};

/** 11.5: the support test for one area and owner, on a given placement of units. */
export function isSupportedAt(
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  at: AreaId,
  byArea: ReadonlyMap<AreaId, readonly Unit[]> = unitsByArea(g),
): boolean {
  if (inside(ctx, at)) return true;
  const unfriendly = (a: AreaId) =>
    (byArea.get(a) ?? []).some((u) => u.owner !== player && u.kind !== 'leader') ||
    actingNeutralAt(ctx, g, a, byArea) !== null;
  const friendly = (a: AreaId) =>
    (byArea.get(a) ?? []).some((u) => u.owner === player && u.kind !== 'leader');
  const anchorNext = (a: AreaId) => ctx.map.landLinks(a).some((l) => inside(ctx, l.to) && !unfriendly(l.to));
  // Conditions 2 and 3: from `at`, walk through areas holding friendly units.
  const seen = new Set<AreaId>([at]);
  const queue: AreaId[] = [at];
  while (queue.length) {
    const a = queue.shift()!;
    if (anchorNext(a)) return true;
    for (const l of ctx.map.landLinks(a)) {
      if (!seen.has(l.to) && friendly(l.to)) {
        seen.add(l.to);
        queue.push(l.to);
      }
    }
  }
  // Condition 4: a sea next to `at` touching an inside area with a friendly ship.
  return ctx.map
    .seasOf(at)
    .some((sea) =>
      ctx.map
        .shoresOf(sea)
        .some(
          (s) => inside(ctx, s) && (byArea.get(s) ?? []).some((u) => u.owner === player && u.kind === 'ship'),
        ),
    );
}

/** 11.5: the empire's units that are unsupported now (removed unpaid in the economic phase). */
export function unsupportedUnits(ctx: EngineContext, g: GameStateCore, player: PlayerId): Unit[] {
  const byArea = unitsByArea(g);
  const memo = new Map<AreaId, boolean>();
  const lent = new Set((g.realm?.leases ?? []).flatMap((l) => l.units));
  return Object.values(g.units).filter((u) => {
    // 13.4: hired barbarian mercenaries are barbarian units, never unsupported (11.5).
    if (u.owner !== player || lent.has(u.id)) return false;
    if (!memo.has(u.area)) memo.set(u.area, isSupportedAt(ctx, g, player, u.area, byArea));
    return !memo.get(u.area);
  });
}

/** 11.5: would removing these units (disbanded at will) leave another unit unsupported that is supported now? */
export function removalBreaksSupport(
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  removed: readonly string[],
): boolean {
  if (removed.length === 0) return false;
  const before = new Set(unsupportedUnits(ctx, g, player).map((u) => u.id));
  const units = omitKeys(g.units, removed);
  return unsupportedUnits(ctx, { ...g, units }, player).some((u) => !before.has(u.id));
}
