/**
 * 14.1 / 14.3 Neutral garrisons outside combat: the open-scenario set-up, reappearance in
 * never-owned empty cities (14.1, AMBIG-29), and the administration-phase removal of city-less
 * garrisons no longer next to a garrisoned city.
 */
import type { EngineContext } from './engine-context.ts';
import type { GameEvent } from './events.ts';
import type { AreaId } from './ids.ts';
import { neutralReappearsIfNeverOwned } from './options.ts';
import { citiesInPlay, cityAt, neutralGarrisonStrengthAt, unitsByArea } from './queries.ts';
import type { NeutralGarrison } from './state.ts';
import { type Game, omitKeys, type Transition } from './state-ops.ts';

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
  readonly neutrals: object;
  readonly cities: object;
  readonly cityAreas: readonly AreaId[];
  readonly value: readonly AreaId[];
}
/** One slot, for the latest pair (a WeakMap per record would only add garbage-collector work). */
let recentCandidates: CachedCandidates | null = null;

/**
 * The cities in play with no garrison that were never owned. `settle` asks after every change of
 * the units, while garrisons and city ownership change far more rarely: the list is cached per
 * immutable (neutrals, cities) pair.
 */
function reappearanceCandidates(ctx: EngineContext, g: Game): readonly AreaId[] {
  const cityAreas = citiesInPlay(ctx);
  const hit = recentCandidates;
  if (hit && hit.neutrals === g.neutrals && hit.cities === g.cities && hit.cityAreas === cityAreas)
    return hit.value;
  const value = cityAreas.filter((id) => !g.neutrals[id] && !g.cities[id]?.everOwned);
  recentCandidates = { neutrals: g.neutrals, cities: g.cities, cityAreas, value };
  return value;
}

/** 14.1 / AMBIG-29: every never-owned, empty, unmarked city gets its garrison back at once. */
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
    if (g.markers.some((m) => m.area === id)) continue;
    const strength = neutralGarrisonStrengthAt(ctx, id);
    neutrals = { ...neutrals, [id]: { strength } };
    events.push({ type: 'neutralPlaced', area: id, strength });
  }
  return { state: neutrals === g.neutrals ? g : { ...g, neutrals }, events };
}

/**
 * 14.1 / 14.3 step 2: in the administration phase, a garrison in an area without a city goes
 * when no adjacent area holds both a city and a neutral garrison.
 */
export function removeIsolatedNeutrals(ctx: EngineContext, g: Game): Transition {
  const events: GameEvent[] = [];
  const removed: AreaId[] = [];
  const cityGarrison = (a: AreaId) => cityAt(ctx, a) !== null && g.neutrals[a] !== undefined;
  for (const id of Object.keys(g.neutrals).sort() as AreaId[]) {
    if (cityAt(ctx, id) !== null) continue;
    if (ctx.map.landLinks(id).some((l) => cityGarrison(l.to))) continue;
    removed.push(id);
    events.push({ type: 'neutralRemoved', area: id, reason: 'noCityNeighbour' });
  }
  return { state: removed.length ? { ...g, neutrals: omitKeys(g.neutrals, removed) } : g, events };
}
