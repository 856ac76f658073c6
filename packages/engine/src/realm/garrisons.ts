/**
 * 11.3 Garrison units: where an empire may build a (4)-0 garrison, and which garrisons are
 * isolated enough to be disbanded at will in the economic phase.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { actingNeutralAt, citiesInPlay, cityAt, unitsByArea } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import type { Unit } from '../model/units.ts';

const friendlyCity = (ctx: EngineContext, g: GameStateCore, a: AreaId, player: PlayerId): boolean =>
  cityAt(ctx, a) !== null && g.cities[a]?.owner === player;

interface GarrisonGeometry {
  readonly inPlay: readonly AreaId[];
  /** The cities in play of each province. */
  readonly provinceCities: ReadonlyMap<string, readonly AreaId[]>;
  /** Non-desert land areas of a province inside the boundary, in map order. */
  readonly landInside: readonly AreaId[];
}
/** Per map, for the city set in play (optional cities or not). */
const geometries = new WeakMap<object, GarrisonGeometry>();

/** What 11.3 reads from the map alone, computed once per map and city set (not per call). */
function geometryOf(ctx: EngineContext): GarrisonGeometry {
  const inPlay = citiesInPlay(ctx);
  const cached = geometries.get(ctx.map);
  if (cached?.inPlay === inPlay) return cached;
  const provinceCities = new Map<string, AreaId[]>();
  for (const a of ctx.map.cityAreas) {
    const prov = ctx.map.area(a)?.province;
    if (prov && cityAt(ctx, a)) provinceCities.set(prov, [...(provinceCities.get(prov) ?? []), a]);
  }
  const landInside = ctx.map.areaIds.filter((a) => {
    const area = ctx.map.area(a);
    return area?.kind === 'land' && !area.desert && area.insideEmpire && !!area.province;
  });
  const geometry = { inPlay, provinceCities, landInside };
  geometries.set(ctx.map, geometry);
  return geometry;
}

/**
 * 11.3 / AMBIG-54: the areas where a garrison may be built now: non-desert, inside the boundary,
 * empty of every unit and neutral garrison, unpillaged if a city, and "friendly": in a province
 * whose cities are all the player's, any such area; in a province with some friendly city, an
 * area with a friendly city, or next to one (then with no unfriendly city, and not next to an
 * area of the same province holding unfriendly units).
 */
export function garrisonBuildAreas(ctx: EngineContext, g: GameStateCore, player: PlayerId): AreaId[] {
  const byArea = unitsByArea(g);
  const unfriendlyUnits = (a: AreaId) =>
    (byArea.get(a) ?? []).some((u) => u.owner !== player && u.kind !== 'leader') ||
    actingNeutralAt(ctx, g, a, byArea) !== null;
  const { provinceCities, landInside } = geometryOf(ctx);
  // How many of each province's cities are the player's (asked once per province, not per area).
  const friendlyCount = new Map<string, number>();
  const friendlyIn = (province: string, cities: readonly AreaId[]): number => {
    let n = friendlyCount.get(province);
    if (n === undefined) {
      n = cities.filter((c) => friendlyCity(ctx, g, c, player)).length;
      friendlyCount.set(province, n);
    }
    return n;
  };
  return landInside.filter((a) => {
    const area = ctx.map.area(a);
    if (area?.kind !== 'land' || !area.province) return false;
    if ((byArea.get(a) ?? []).length > 0 || g.neutrals[a]) return false;
    if (g.markers.some((m) => m.area === a)) return false;
    const cities = provinceCities.get(area.province) ?? [];
    const mine = friendlyIn(area.province, cities);
    if (mine === 0) return false;
    if (mine === cities.length) return true;
    if (friendlyCity(ctx, g, a, player)) return true;
    if (cityAt(ctx, a)) return false; // an unfriendly city
    const links = ctx.map.landLinks(a);
    if (!links.some((l) => friendlyCity(ctx, g, l.to, player))) return false;
    return !links.some((l) => ctx.map.area(l.to)?.province === area.province && unfriendlyUnits(l.to));
  });
}

/**
 * 11.3: garrisons that may be disbanded at will: not with a friendly city, not next to one, and
 * not next to a friendly unit that is itself next to a friendly city.
 */
export function isolatedGarrisons(ctx: EngineContext, g: GameStateCore, player: PlayerId): UnitId[] {
  const byArea = unitsByArea(g);
  const nextToCity = (a: AreaId) => ctx.map.landLinks(a).some((l) => friendlyCity(ctx, g, l.to, player));
  const friendlyHere = (a: AreaId, except: Unit) =>
    (byArea.get(a) ?? []).some((u) => u.owner === player && u.id !== except.id && u.kind !== 'leader');
  return Object.values(g.units)
    .filter((u) => {
      if (u.owner !== player || u.kind !== 'garrison') return false;
      if (friendlyCity(ctx, g, u.area, player) || nextToCity(u.area)) return false;
      return !ctx.map.landLinks(u.area).some((l) => friendlyHere(l.to, u) && nextToCity(l.to));
    })
    .map((u) => u.id)
    .sort();
}
