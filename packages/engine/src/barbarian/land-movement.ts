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

/** One state of the search: an area reached, whether every step so far ran along a road. */
interface Step {
  readonly area: AreaId;
  readonly road: boolean;
  readonly steps: number;
  /** The step this one was reached from (null at the start): the path is read back only for a destination. */
  readonly from: Step | null;
}

const pathTo = (s: Step): AreaId[] => {
  const path = new Array<AreaId>(s.steps);
  for (let at: Step | null = s; at?.from; at = at.from) path[at.steps - 1] = at.area;
  return path;
};

/** What an area is to one unit's move (5.1, 13.4): barred, passed through only, or a place to stop. */
const BARRED = 1;
const THROUGH = 2;
const OPEN = 3;
const PASSAGE = 3;
/** What the search has marked an area with, beside its passage: seen on an all-road path, off it, kept. */
const SEEN_ROAD = 4;
const SEEN_OFF = 8;
const FOUND = 16;

const passageOf = (
  ctx: EngineContext,
  g: Game,
  unit: Unit,
  area: AreaId,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): number => {
  if (!mayEnterTerrain(ctx, g, unit, area)) return BARRED;
  // 13.4: the owner's own mercenaries may be passed through, never stopped on.
  if (!blocksPlayer(ctx, g, area, unit.owner, byArea)) return OPEN;
  return passableThrough(ctx, g, area, unit.owner, byArea) ? THROUGH : BARRED;
};

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
  // One set of marks per area (its passage, asked once however it is reached, and what the search
  // has seen there): one small map per unit instead of a string key per step.
  const marks = new Map<AreaId, number>([[unit.area, SEEN_ROAD]]);
  const result: { to: AreaId; path: AreaId[] }[] = [];
  // First in, first out: the steps are taken in order of their distance, as level by level.
  const queue: Step[] = [{ area: unit.area, road: true, steps: 0, from: null }];
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    for (const link of ctx.map.landLinks(n.area)) {
      const road = n.road && link.road;
      const limit = road ? roadMA : ma;
      if (n.steps + 1 > limit) continue;
      let m = marks.get(link.to) ?? 0;
      if ((m & PASSAGE) === 0) m |= passageOf(ctx, g, unit, link.to, byArea);
      const seen = road ? SEEN_ROAD : SEEN_OFF;
      if ((m & PASSAGE) === BARRED || (m & seen) !== 0) {
        marks.set(link.to, m);
        continue;
      }
      m |= seen;
      const step: Step = { area: link.to, road, steps: n.steps + 1, from: n };
      const ends = (m & PASSAGE) === OPEN && link.to !== unit.area && !garrisonStands(unit, link.to, byArea);
      if (ends && (m & FOUND) === 0) {
        m |= FOUND;
        insertByArea(result, { to: link.to, path: pathTo(step) });
      }
      marks.set(link.to, m);
      queue.push(step);
    }
  }
  return result;
}

/**
 * Put a destination in its place in a list kept in order of area id (the order the legal orders
 * list them in): the lists are short, and sorting each one afterwards copied it.
 */
function insertByArea<T extends { to: AreaId }>(list: T[], item: T): void {
  let i = list.length;
  list.push(item);
  for (; i > 0 && item.to < list[i - 1]!.to; i--) list[i] = list[i - 1]!;
  list[i] = item;
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
