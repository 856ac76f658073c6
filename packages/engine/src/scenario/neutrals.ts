/**
 * 14.1 / 14.3 Neutral garrisons outside combat: the open-scenario set-up, reappearance in
 * unowned empty cities (14.1, AMBIG-29), and the administration-phase removal of city-less
 * garrisons no longer next to a garrisoned city.
 */
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId } from '../model/ids.ts';
import { neutralReappearsIfNeverOwned } from '../model/options.ts';
import {
  actingNeutralAt,
  citiesInPlay,
  cityAt,
  neutralGarrisonStrengthAt,
  unitsByArea,
} from '../model/queries.ts';
import type { NeutralGarrison } from '../model/state.ts';
import { type Game, omitKeys, type Transition } from '../model/state-ops.ts';

/**
 * 14.3 set-up: a garrison in every city inside the imperial boundary (optional cities when in
 * play), and in every garrison-symbol area adjacent to the boundary.
 */
export function initialNeutrals(ctx: EngineContext): Record<string, NeutralGarrison> {
  const out: Record<string, NeutralGarrison> = {};
  for (const id of ctx.map.areaIds) {
    const area = ctx.map.area(id);
    if (area?.kind !== 'land') continue;
    const city = cityAt(ctx, id);
    const inCity = city !== null && (area.insideEmpire || city.optional);
    const symbol = area.garrisonSymbol && (area.insideEmpire || ctx.map.onImperialBoundary(id));
    if (inCity || symbol) out[id] = { strength: neutralGarrisonStrengthAt(ctx, id) };
  }
  return out;
}

interface CachedCandidates {
  readonly cities: object;
  readonly cityAreas: readonly AreaId[];
  readonly value: readonly AreaId[];
}
/** Per neutral-garrisons record, for the cities record and city set it was computed with. */
const candidatesCache = new WeakMap<object, CachedCandidates>();

/**
 * The unowned cities in play with no garrison, except those 13.2.3 leaves open. `settle` asks after
 * every change of the units, while garrisons and city ownership change far more rarely: the list is
 * cached per immutable (neutrals, cities) pair.
 */
function reappearanceCandidates(ctx: EngineContext, g: Game): readonly AreaId[] {
  const cityAreas = citiesInPlay(ctx);
  const hit = candidatesCache.get(g.neutrals);
  if (hit && hit.cities === g.cities && hit.cityAreas === cityAreas) return hit.value;
  const value = cityAreas.filter((id) => {
    const c = g.cities[id];
    return !g.neutrals[id] && !c?.owner && !c?.garrisonRemoved;
  });
  candidatesCache.set(g.neutrals, { cities: g.cities, cityAreas, value });
  return value;
}

/**
 * 14.1 / AMBIG-29: every unowned city has a neutral garrison: one left empty with nothing acting as
 * its garrison gets it back at once — a city taken but not yet owned in an economic phase, or one
 * whose garrison could not be placed when it became unowned because another player's unit stood in
 * it. An owned city keeps its owner when left empty (3), and 13.2.3 leaves Ecbatana and Susa open.
 */
export function restoreNeutrals(ctx: EngineContext, g: Game): Transition {
  if (!neutralReappearsIfNeverOwned(ctx.options)) return { state: g, events: [] };
  // While a combat awaits its advance/pursuit choice, regeneration (14.1) is the combat's call.
  if (g.combat?.pending) return { state: g, events: [] };
  const candidates = reappearanceCandidates(ctx, g);
  if (candidates.length === 0) return { state: g, events: [] };
  const byArea = unitsByArea(g);
  let neutrals = g.neutrals;
  const events: GameEvent[] = [];
  for (const id of candidates) {
    if ((byArea.get(id) ?? []).length > 0) continue;
    if (actingNeutralAt(ctx, g, id, byArea)) continue;
    const strength = neutralGarrisonStrengthAt(ctx, id);
    neutrals = { ...neutrals, [id]: { strength } };
    events.push({ type: 'neutralPlaced', area: id, strength });
  }
  return { state: neutrals === g.neutrals ? g : { ...g, neutrals }, events };
}

/**
 * 14.1 / 14.3 step 2: in the administration phase, a garrison in an area without a city goes
 * when no adjacent area holds both a city and a neutral garrison — a placed one, or a pillage
 * marker acting as one once its pillager has left (9.5).
 */
export function removeIsolatedNeutrals(ctx: EngineContext, g: Game): Transition {
  const events: GameEvent[] = [];
  const removed: AreaId[] = [];
  const byArea = unitsByArea(g);
  const cityGarrison = (a: AreaId) => cityAt(ctx, a) !== null && actingNeutralAt(ctx, g, a, byArea) !== null;
  for (const id of Object.keys(g.neutrals).sort() as AreaId[]) {
    if (cityAt(ctx, id) !== null) continue;
    if (ctx.map.landLinks(id).some((l) => cityGarrison(l.to))) continue;
    removed.push(id);
    events.push({ type: 'neutralRemoved', area: id, reason: 'noCityNeighbour' });
  }
  return { state: removed.length ? { ...g, neutrals: omitKeys(g.neutrals, removed) } : g, events };
}
