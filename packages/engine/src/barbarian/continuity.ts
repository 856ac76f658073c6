/**
 * 9.3.4 Continuity: a barbarian's tribes must form one group, linked through areas holding its
 * tribes or barbarian combat units; marked sea areas link shores (13.1.1) and "A" areas link
 * each other for Arabs and Africans (13.2.2). Checked in the administration phase.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { arabsAfricansInPlay, tribalSeaCrossingsFor } from '../model/options.ts';
import type { People } from '../model/people.ts';
import { playerById, unitsOf } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';

/** 9.3.4: groups of areas (sorted) holding this player's tribes; each group lists its tribe areas. */
export function tribeGroups(ctx: EngineContext, g: Game, player: PlayerId): AreaId[][] {
  return tribeGroupsAmong(ctx, playerById(g, player)?.cycle?.people, unitsOf(g, player));
}

/**
 * 9.3.4: the same groups for one player's units as given (`people` its people): what a group would
 * be if those units stood there, without building a whole game state for it (the consequences of
 * each possible move ask this once per destination).
 */
export function tribeGroupsAmong(
  ctx: EngineContext,
  people: People | undefined,
  mine: readonly Pick<Unit, 'kind' | 'area'>[],
): AreaId[][] {
  // One pass over the units (asked once per destination of a move when foreseeing 9.3.4). The walk
  // takes each area out of `unreached` as it reaches it: no third set of areas seen.
  const unreached = new Set<AreaId>();
  const tribeAreas = new Set<AreaId>();
  for (const u of mine) {
    if (u.kind === 'leader') continue;
    unreached.add(u.area);
    if (u.kind === 'tribe') tribeAreas.add(u.area);
  }
  const seaLinks = people !== undefined && tribalSeaCrossingsFor(ctx.options, people);
  const aLinks = arabsAfricansInPlay(ctx.options) && (people === 'ARAB' || people === 'AFRICAN');
  const groups: AreaId[][] = [];
  // A group is a connected set, whatever the order its neighbours are visited in (each kept in order).
  const walk: Walk = { unreached, stack: [] };
  const { stack } = walk;
  // Each group is found from its first tribe area in any order, then the groups are put in order
  // of their least area: the order a walk from the sorted tribe areas would find them in.
  for (const start of tribeAreas) {
    if (!unreached.has(start)) continue;
    const group: AreaId[] = [];
    reach(walk, start);
    while (stack.length > 0) {
      const a = stack.pop()!;
      if (tribeAreas.has(a)) insertInOrder(group, a);
      for (const l of ctx.map.landLinks(a)) reach(walk, l.to);
      if (seaLinks && people) {
        for (const sea of ctx.map.seasOf(a)) {
          if (ctx.map.area(sea)?.seaCrossingFor.includes(people))
            for (const n of ctx.map.shoresOf(sea)) reach(walk, n);
        }
      }
      if (aLinks && ctx.map.area(a)?.aMarked) for (const n of ctx.map.aAreas) reach(walk, n);
    }
    groups.push(group);
  }
  // Every group holds its start, so each has a first area. (Most hordes are one group: nothing to sort.)
  return groups.length > 1 ? groups.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)) : groups;
}

/** A walk over the areas holding the player's units: those not reached yet, those still to visit. */
interface Walk {
  readonly unreached: Set<AreaId>;
  readonly stack: AreaId[];
}

/** Reach `area` in the walk: to visit if it holds the player's units and was not reached yet. */
function reach(walk: Walk, area: AreaId): void {
  if (walk.unreached.delete(area)) walk.stack.push(area);
}

/** Put an area in its place in a list kept sorted (groups are small; sorting each one copied it). */
function insertInOrder(list: AreaId[], area: AreaId): void {
  let i = list.length;
  list.push(area);
  for (; i > 0 && area < list[i - 1]!; i--) list[i] = list[i - 1]!;
  list[i] = area;
}
