/**
 * Derived facts, computed from the state and never stored twice: who stands where, move order,
 * what acts as a neutral garrison, what blocks movement, unit counts.
 */

import type { EngineContext } from './context.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { MapCityInput } from './map-index.ts';
import { neutralGarrisonStrength } from './neutral-garrison.ts';
import { optionalCitiesInPlay } from './options.ts';
import type { GameStateCore, PlayerState } from './state.ts';
import type { Unit } from './units.ts';

/** A player of the game, by id. */
export const playerById = (state: GameStateCore, id: PlayerId): PlayerState | undefined => {
  // A plain loop: this runs several times for every order.
  for (const p of state.players) if (p.id === id) return p;
  return undefined;
};

// States are immutable, so derived indices are cached on the `units` record they describe (never
// stale). The cached arrays are typed readonly, so a caller that sorts or pushes in place does not
// compile. (They are not frozen at run time: this V8 reads frozen arrays several times slower, and
// every rule loops over them.)
interface UnitIndex {
  list: readonly Unit[] | null;
  byArea: ReadonlyMap<AreaId, readonly Unit[]> | null;
  byOwner: ReadonlyMap<PlayerId, readonly Unit[]> | null;
}
const unitIndexes = new WeakMap<object, UnitIndex>();

const indexFor = (state: GameStateCore): UnitIndex => {
  let index = unitIndexes.get(state.units);
  if (!index) {
    index = { list: null, byArea: null, byOwner: null };
    unitIndexes.set(state.units, index);
  }
  return index;
};

/**
 * `next` is `prev` with one unit replaced in place (same key) or added at the end: when the list
 * of `prev` is at hand, derive the list of `next` from it instead of listing every unit again.
 */
export function carryUnitList(prev: object, next: object, before: Unit | undefined, after: Unit): void {
  const list = unitIndexes.get(prev)?.list;
  if (!list) return;
  let out: Unit[];
  if (before === undefined) out = [...list, after];
  else {
    const at = list.indexOf(before);
    if (at < 0 || list.lastIndexOf(before) !== at) return;
    out = list.slice();
    out[at] = after;
  }
  unitIndexes.set(next, { list: out, byArea: null, byOwner: null });
}

/** Every unit, in insertion order (cached; read only). */
const unitList = (state: GameStateCore): readonly Unit[] => {
  const index = indexFor(state);
  if (!index.list) index.list = Object.values(state.units);
  return index.list;
};

/** A player's units (cached per immutable units record; read only). */
export const unitsOf = (state: GameStateCore, player: PlayerId): readonly Unit[] => {
  const index = indexFor(state);
  if (!index.byOwner) index.byOwner = groupBy(unitList(state), (u) => u.owner);
  return index.byOwner.get(player) ?? [];
};

/** 5.1, 6: the units standing in an area. */
export const unitsIn = (state: GameStateCore, area: AreaId): Unit[] =>
  unitList(state).filter((u) => u.area === area);

/** Units of every owner per area, built once for loops that ask many areas (read only). */
export const unitsByArea = (state: GameStateCore): ReadonlyMap<AreaId, readonly Unit[]> => {
  const index = indexFor(state);
  if (!index.byArea) index.byArea = groupBy(unitList(state), (u) => u.area);
  return index.byArea;
};

function groupBy<K>(list: readonly Unit[], key: (u: Unit) => K): Map<K, Unit[]> {
  const m = new Map<K, Unit[]>();
  for (const u of list) {
    const k = key(u);
    const l = m.get(k);
    if (l) l.push(u);
    else m.set(k, [u]);
  }
  return m;
}

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
  byArea?: ReadonlyMap<AreaId, readonly Unit[]>,
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
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): boolean => {
  const here = byArea.get(area) ?? [];
  if (here.some((u) => u.owner !== player && u.kind !== 'leader')) return true;
  return actingNeutralAt(ctx, state, area, byArea) !== null;
};

/**
 * 13.4: an area whose only other units are `player`'s own mercenaries serving a hirer: its units
 * may pass through it (both sides treat them as friendly) but not stop there (one owner an area).
 */
export const passableThrough = (
  ctx: EngineContext,
  state: GameStateCore,
  area: AreaId,
  player: PlayerId,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): boolean => {
  const others = (byArea.get(area) ?? []).filter((u) => u.owner !== player && u.kind !== 'leader');
  if (others.length === 0 || actingNeutralAt(ctx, state, area, byArea) !== null) return false;
  const lent = leasedFrom(state, player);
  return others.every((u) => lent.includes(u.id));
};

/** 13.4: the units `owner` has leased out that a hirer commands now (read from the realm state). */
export const leasedFrom = (state: GameStateCore, owner: PlayerId): readonly UnitId[] =>
  (state.realm?.leases ?? [])
    .filter((l) => l.owner === owner && (l.status === 'active' || l.status === 'ending'))
    .flatMap((l) => l.units)
    .filter((id) => state.units[id] !== undefined);

const moveOrders = new WeakMap<object, readonly PlayerId[]>();

/**
 * 4.1: move order. Newest cycle first; ties by the 2d6 rolled when those cycles started
 * (kept unique, AMBIG-44); seat as a last, never-needed tie-break.
 */
export const moveOrder = (state: GameStateCore): PlayerId[] => {
  // Cached on the players list it is computed from.
  let order = moveOrders.get(state.players);
  if (!order) {
    order = computeMoveOrder(state);
    moveOrders.set(state.players, order);
  }
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
  // 13.4 / AMBIG-21: units leased out to a hirer still count for their barbarian owner.
  let nonTribe = leasedFrom(state, player).length;
  for (const u of unitList(state)) {
    if (u.owner !== player || u.kind === 'leader') continue;
    if (u.kind === 'tribe') tribes++;
    else nonTribe++;
  }
  return { total: tribes + nonTribe, nonTribe, tribes };
};

/** 9.3.3: how many tribes a player has on the board. */
export const tribeCount = (state: GameStateCore, player: PlayerId): number => {
  let n = 0;
  for (const u of unitsOf(state, player)) if (u.kind === 'tribe') n++;
  return n;
};
