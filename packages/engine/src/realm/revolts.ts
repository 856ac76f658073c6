/**
 * Board changes shared by the kingdom and empire rules: leaders left alone with no unit (10.2), cities
 * revolting to neutral garrisons (11.7, 14.1), whole provinces revolting (11.7.2 results 5/10).
 */
import type { EngineContext } from '../model/context.ts';
import type { RealmEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { actingNeutralAt, cityAt, neutralGarrisonStrengthAt, playerById, unitsOf } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';
import { removeUnits } from '../model/state-ops.ts';

/** 10.2: a leader is eliminated when no friendly unit is left stacked with it (AMBIG-2: lone leaders
 *  that moved alone keep living; this is only called right after units were removed). */
export function removeOrphanLeaders(
  g: Game,
  player: PlayerId,
  areas?: readonly AreaId[],
): { state: Game; removed: UnitId[] } {
  const mine = unitsOf(g, player);
  const removed = mine
    .filter(
      (l) =>
        l.kind === 'leader' &&
        (areas === undefined || areas.includes(l.area)) &&
        !mine.some((u) => u.area === l.area && u.kind !== 'leader'),
    )
    .map((l) => l.id);
  return { state: removeUnits(g, removed), removed };
}

/**
 * 11.7 / 14.1: these cities of the player revolt: its units in them leave the board (AMBIG-8
 * 'eliminated'), the cities become unowned and get neutral garrisons.
 */
export function revoltCities(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  cities: readonly AreaId[],
  reason: string,
): { state: Game; events: RealmEvent[] } {
  if (cities.length === 0) return { state: g, events: [] };
  const gone = Object.values(g.units)
    .filter((u) => u.owner === player && cities.includes(u.area))
    .map((u) => u.id);
  let s = removeUnits(g, gone);
  const cityStates = { ...s.cities };
  const neutrals = { ...s.neutrals };
  for (const a of cities) {
    if (!cityAt(ctx, a)) continue;
    cityStates[a] = { owner: null, everOwned: true };
    // Engine decision: a city another player's unit stands in (it changes owner only at the next
    // economic phase, 3) revolts to no one, without a neutral garrison beside that unit (it gets one
    // if the unit leaves, 14.1). A pillage marker acting as a garrison (9.5) holds the city already;
    // a pirates' marker does not (AMBIG-9), so that city is garrisoned like the others.
    const occupied = Object.values(s.units).some((u) => u.area === a && u.kind !== 'leader');
    if (!occupied && !actingNeutralAt(ctx, s, a))
      neutrals[a] = { strength: neutralGarrisonStrengthAt(ctx, a) };
  }
  s = { ...s, cities: cityStates, neutrals };
  const cap = playerById(s, player)?.capital;
  if (cap && cities.includes(cap)) {
    s = { ...s, players: s.players.map((p) => (p.id === player ? { ...p, capital: null } : p)) };
  }
  return { state: s, events: [{ type: 'citiesRevolted', player, cities: [...cities], units: gone, reason }] };
}

/** 11.7.2 results 5, 10: the player's cities (owned, in play) in a province. */
export function citiesInProvince(ctx: EngineContext, g: Game, player: PlayerId, province: string): AreaId[] {
  return ctx.map.cityAreas.filter(
    (a) => cityAt(ctx, a) && g.cities[a]?.owner === player && ctx.map.area(a)?.province === province,
  );
}

/** 11.7.2 results 5 / 10: the province revolts: every friendly unit in it goes, its cities turn neutral. */
export function revoltProvince(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  province: string,
): { state: Game; events: RealmEvent[] } {
  const units = Object.values(g.units)
    .filter((u) => u.owner === player && ctx.map.area(u.area)?.province === province)
    .map((u) => u.id);
  const s = removeUnits(g, units);
  const r = revoltCities(ctx, s, player, citiesInProvince(ctx, s, player, province), 'provincialRebellion');
  const events: RealmEvent[] = [];
  if (units.length) events.push({ type: 'realmUnitsRemoved', player, units, reason: 'provincialRebellion' });
  return { state: r.state, events: [...events, ...r.events] };
}
