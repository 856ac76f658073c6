/**
 * 5.1 Land movement: movement capability, the road bonus (AMBIG-49, Byzantium–Nicaea included
 * through the map's road flag on that red-arrow edge), red-arrow crossings, blocking by
 * unfriendly units and neutral garrisons, passing through friendly units (never stopping on a
 * friendly garrison, 11.3), deserts (9.3.1).
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { tribesIgnoreDesert } from '../model/options.ts';
import { blocksPlayer, passableThrough, playerById } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';
import { isShip, movementOf, type Unit } from '../model/units.ts';

/** 9.3.1 / 13.2.2: may this unit enter this area at all (deserts)? */
export const mayEnterTerrain = (ctx: EngineContext, g: Game, unit: Unit, area: AreaId): boolean => {
  const a = ctx.map.area(area);
  if (a?.kind !== 'land') return false;
  if (!a.desert || unit.kind !== 'tribe') return true;
  const people = playerById(g, unit.owner)?.cycle?.people;
  return people !== undefined && tribesIgnoreDesert(ctx.options, people);
};

const startsOnRoad = (ctx: EngineContext, area: AreaId): boolean =>
  ctx.map.landLinks(area).some((l) => l.road);

/** 11.3: friendly units may pass through a friendly (4)-0 garrison but not end their move with it. */
const garrisonStands = (unit: Unit, area: AreaId, byArea: ReadonlyMap<AreaId, readonly Unit[]>): boolean =>
  (byArea.get(area) ?? []).some((u) => u.kind === 'garrison' && u.owner === unit.owner && u.id !== unit.id);

/**
 * 5.1: every area this unit may end its move in, each with one shortest legal path (start excluded).
 * Breadth-first over (area, still-all-road) so a destination reachable only with the road bonus
 * is found too.
 */
export function destinations(
  ctx: EngineContext,
  g: Game,
  unit: Unit,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): { to: AreaId; path: AreaId[] }[] {
  if (isShip(unit.kind) || unit.inverted) return [];
  const ma = movementOf(unit.kind, ctx.options);
  if (ma <= 0) return [];
  const roadMA = startsOnRoad(ctx, unit.area) ? ma + 1 : ma;
  type Node = { area: AreaId; road: boolean; steps: number; path: AreaId[] };
  const seen = new Set<string>([`${unit.area}|1`]);
  const result = new Map<AreaId, AreaId[]>();
  let frontier: Node[] = [{ area: unit.area, road: true, steps: 0, path: [] }];
  while (frontier.length > 0) {
    const next: Node[] = [];
    for (const n of frontier) {
      for (const link of ctx.map.landLinks(n.area)) {
        const road = n.road && link.road;
        const limit = road ? roadMA : ma;
        if (n.steps + 1 > limit) continue;
        if (!mayEnterTerrain(ctx, g, unit, link.to)) continue;
        // 13.4: the owner's own mercenaries may be passed through, never stopped on.
        const through = blocksPlayer(ctx, g, link.to, unit.owner, byArea);
        if (through && !passableThrough(ctx, g, link.to, unit.owner, byArea)) continue;
        const key = `${link.to}|${road ? 1 : 0}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const path = [...n.path, link.to];
        const ends = !through && link.to !== unit.area && !garrisonStands(unit, link.to, byArea);
        if (ends && !result.has(link.to)) result.set(link.to, path);
        next.push({ area: link.to, road, steps: n.steps + 1, path });
      }
    }
    frontier = next;
  }
  return [...result.entries()].map(([to, path]) => ({ to, path })).sort((a, b) => (a.to < b.to ? -1 : 1));
}

export type PathError =
  | 'order/not_adjacent'
  | 'order/unreachable'
  | 'order/blocked'
  | 'order/desert'
  | 'order/area_occupied';

/** 5.1: check a declared path step by step; returns the first problem, or null. */
export function checkPath(
  ctx: EngineContext,
  g: Game,
  unit: Unit,
  path: readonly AreaId[],
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
  player: PlayerId,
): { code: PathError; at: AreaId } | null {
  if (isShip(unit.kind) || unit.inverted) return { code: 'order/unreachable', at: unit.area };
  const ma = movementOf(unit.kind, ctx.options);
  let from = unit.area;
  let allRoad = startsOnRoad(ctx, unit.area);
  for (const [i, to] of path.entries()) {
    const link = ctx.map.landLinks(from).find((l) => l.to === to);
    if (!link) return { code: 'order/not_adjacent', at: to };
    allRoad = allRoad && link.road;
    if (!mayEnterTerrain(ctx, g, unit, to)) return { code: 'order/desert', at: to };
    const passing = i < path.length - 1 && passableThrough(ctx, g, to, player, byArea);
    if (!passing && blocksPlayer(ctx, g, to, player, byArea)) return { code: 'order/blocked', at: to };
    from = to;
  }
  const limit = allRoad ? ma + 1 : ma;
  if (path.length > limit) return { code: 'order/unreachable', at: from };
  if (garrisonStands(unit, from, byArea)) return { code: 'order/area_occupied', at: from };
  return null;
}
