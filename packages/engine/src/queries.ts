/**
 * Derived facts (STYLE habit 5: computed, never stored twice): who stands where, move order,
 * what acts as a neutral garrison, unit counts.
 */
import { neutralGarrisonStrength } from './combat/neutral.ts';
import type { EngineContext } from './engine-context.ts';
import type { AreaId, PlayerId } from './ids.ts';
import type { MapCityInput } from './map-index.ts';
import { optionalCitiesInPlay } from './options.ts';
import type { GameStateCore, PlayerState } from './state.ts';
import type { Unit } from './units.ts';

export const playerById = (state: GameStateCore, id: PlayerId): PlayerState | undefined =>
  state.players.find((p) => p.id === id);

// States are immutable, so derived indices are cached per `units` object (never stale). The
// cached arrays are frozen: a caller that sorts or pushes in place fails loudly.
const LIST_CACHE = new WeakMap<object, Unit[]>();
const AREA_CACHE = new WeakMap<object, Map<AreaId, Unit[]>>();

/** Every unit, in insertion order (cached; callers must not mutate the array). */
export const unitList = (state: GameStateCore): Unit[] => {
  let l = LIST_CACHE.get(state.units);
  if (!l) {
    l = Object.freeze(Object.values(state.units)) as Unit[];
    LIST_CACHE.set(state.units, l);
  }
  return l;
};

const OWNER_CACHE = new WeakMap<object, Map<PlayerId, Unit[]>>();

/** A player's units (cached per immutable units record; callers must not mutate the array). */
export const unitsOf = (state: GameStateCore, player: PlayerId): Unit[] => {
  let byOwner = OWNER_CACHE.get(state.units);
  if (!byOwner) {
    byOwner = new Map();
    for (const u of unitList(state)) {
      const l = byOwner.get(u.owner);
      if (l) l.push(u);
      else byOwner.set(u.owner, [u]);
    }
    for (const l of byOwner.values()) Object.freeze(l);
    OWNER_CACHE.set(state.units, byOwner);
  }
  return byOwner.get(player) ?? [];
};

export const unitsIn = (state: GameStateCore, area: AreaId): Unit[] =>
  unitList(state).filter((u) => u.area === area);

/** Units of every owner per area, built once for loops that ask many areas. */
export const unitsByArea = (state: GameStateCore): Map<AreaId, Unit[]> => {
  const cached = AREA_CACHE.get(state.units);
  if (cached) return cached;
  const m = new Map<AreaId, Unit[]>();
  for (const u of unitList(state)) {
    const l = m.get(u.area);
    if (l) l.push(u);
    else m.set(u.area, [u]);
  }
  for (const l of m.values()) Object.freeze(l);
  AREA_CACHE.set(state.units, m);
  return m;
};

/** 14.1 / AMBIG-5: the strength a neutral garrison placed in this area defends with. */
export const neutralGarrisonStrengthAt = (ctx: EngineContext, area: AreaId): number =>
  neutralGarrisonStrength(cityAt(ctx, area), ctx.options.cfg.neutralStrengthCap);

/** The city areas in play (optional cities only with 13.2.3 / opt.optionalCities). */
export const citiesInPlay = (ctx: EngineContext): readonly AreaId[] =>
  optionalCitiesInPlay(ctx.options) ? ctx.map.cityAreas : ctx.map.baseCityAreas;

/** The city in an area, if it is in play (optional cities only with 13.2.3 / opt.optionalCities). */
export const cityAt = (ctx: EngineContext, area: AreaId): MapCityInput | null => {
  const city = ctx.map.area(area)?.city ?? null;
  if (!city) return null;
  return city.optional && !optionalCitiesInPlay(ctx.options) ? null : city;
};

/**
 * 14.1 and 9.5: the neutral garrison defending an area, if any: a placed garrison, or a pillage
 * marker once no unit stands on it (the pillager's units gone, no reconqueror in the city).
 */
export const actingNeutralAt = (
  ctx: EngineContext,
  state: GameStateCore,
  area: AreaId,
  byArea?: Map<AreaId, Unit[]>,
): { strength: number; source: 'garrison' | 'marker' } | null => {
  const n = state.neutrals[area];
  if (n) return { strength: n.strength, source: 'garrison' };
  const marker = state.markers.find((m) => m.area === area);
  if (!marker) return null;
  // AMBIG-9: a Pirate Attack's marker is not a barbarian's and holds no garrison by default.
  if (marker.pirates && !ctx.options.cfg.pirateMarkerIsNeutral) return null;
  const here = byArea ? (byArea.get(area) ?? []) : unitsIn(state, area);
  if (here.some((u) => u.kind !== 'leader')) return null;
  return { strength: neutralGarrisonStrengthAt(ctx, area), source: 'marker' };
};

/**
 * 5.1: does an area block this player's units? Any unfriendly non-leader unit or acting neutral
 * blocks; lone leaders do not (10.2).
 */
export const blocksPlayer = (
  ctx: EngineContext,
  state: GameStateCore,
  area: AreaId,
  player: PlayerId,
  byArea: Map<AreaId, Unit[]>,
): boolean => {
  const here = byArea.get(area) ?? [];
  if (here.some((u) => u.owner !== player && u.kind !== 'leader')) return true;
  return actingNeutralAt(ctx, state, area, byArea) !== null;
};

/**
 * 4.1: move order. Newest cycle first; ties by the 2d6 rolled when those cycles started
 * (kept unique, AMBIG-44); seat as a last, never-needed tie-break.
 */
const ORDER_CACHE = new WeakMap<object, PlayerId[]>();

export const moveOrder = (state: GameStateCore): PlayerId[] => {
  const cached = ORDER_CACHE.get(state.players);
  if (cached) return [...cached];
  const order = computeMoveOrder(state);
  ORDER_CACHE.set(state.players, order);
  return [...order];
};

const computeMoveOrder = (state: GameStateCore): PlayerId[] =>
  state.players
    .filter((p) => p.status === 'active' && p.cycle)
    .sort(
      (a, b) =>
        (b.cycle?.startedTurn ?? 0) - (a.cycle?.startedTurn ?? 0) ||
        (b.cycle?.orderRoll ?? 0) - (a.cycle?.orderRoll ?? 0) ||
        a.seat - b.seat,
    )
    .map((p) => p.id);

/** 9.3.x / 9.3.5: a barbarian's units of any kind (tribes count one each; leaders never). */
export const countUnits = (
  state: GameStateCore,
  player: PlayerId,
): { total: number; nonTribe: number; tribes: number } => {
  let tribes = 0;
  let nonTribe = 0;
  for (const u of unitList(state)) {
    if (u.owner !== player || u.kind === 'leader') continue;
    if (u.kind === 'tribe') tribes++;
    else nonTribe++;
  }
  return { total: tribes + nonTribe, nonTribe, tribes };
};

export const tribeCount = (state: GameStateCore, player: PlayerId): number =>
  unitList(state).filter((u) => u.owner === player && u.kind === 'tribe').length;
