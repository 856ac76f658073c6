/**
 * 10.2 Leaders: a leader is eliminated as soon as it stands in an area with an unfriendly unit
 * (a player's unit of another colour, or a neutral garrison). A sweep run after every order
 * catches every way this can happen (movement through, advance after combat, placement).
 * With opt.optionalLeaders the leader would be captured instead (13.6): not yet modelled, so it
 * is eliminated too.
 */
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { UnitId } from '../model/ids.ts';
import { actingNeutralAt, unitsByArea } from '../model/queries.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { removeUnits } from '../model/state-ops.ts';

/** 10.2: the leaders sharing an area with an unfriendly unit. */
export function exposedLeaders(ctx: EngineContext, g: Game): UnitId[] {
  const byArea = unitsByArea(g);
  const out: UnitId[] = [];
  for (const [area, units] of byArea) {
    for (const l of units) {
      if (l.kind !== 'leader') continue;
      const enemy = units.some((u) => u.owner !== l.owner && u.kind !== 'leader');
      if (enemy || actingNeutralAt(ctx, g, area, byArea) !== null || g.neutrals[area]) out.push(l.id);
    }
  }
  return out.sort();
}

/** 10.2: remove every exposed leader (one `leaderEliminated` fact each). */
export function eliminateExposedLeaders(ctx: EngineContext, g: Game): Transition {
  const ids = exposedLeaders(ctx, g);
  if (ids.length === 0) return { state: g, events: [] };
  const events: GameEvent[] = ids.map((id) => ({
    type: 'leaderEliminated',
    unit: id,
    area: g.units[id]!.area,
  }));
  return { state: removeUnits(g, ids), events };
}
