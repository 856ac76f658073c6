/**
 * The engine's view of the map: the fields of @bke/map's MapData it reads (structurally
 * compatible, so a loaded MapData is accepted as is), compiled once per engine into id-indexed
 * lookups — land neighbours with their edge flags, coasts, start areas, "A" areas.
 */
import type { AreaId } from './ids.ts';
import type { StartPosition } from './people.ts';

export interface MapCityInput {
  readonly name: string;
  readonly tax: number;
  readonly optional: boolean;
  readonly neutralStrength: number;
}

export interface MapAreaInput {
  readonly id: string;
  readonly name: string;
  readonly kind: 'land' | 'sea';
  readonly province: string | null;
  readonly city: MapCityInput | null;
  readonly desert: boolean;
  readonly coastal: boolean;
  readonly insideEmpire: boolean;
  readonly garrisonSymbol: boolean;
  readonly startPosition: StartPosition | null;
  readonly aMarked: boolean;
  readonly seaCrossingFor: readonly string[];
}

export interface MapEdgeInput {
  readonly a: string;
  readonly b: string;
  readonly kind: 'land' | 'coast' | 'sea' | 'redArrow' | 'whiteArrow';
  readonly river: boolean;
  readonly mountain: boolean;
  readonly road: boolean;
  readonly redArrow: boolean;
  readonly whiteArrow: boolean;
  readonly imperialBoundary: boolean;
}

export interface MapInput {
  readonly version: string;
  readonly provinces: readonly { readonly id: string; readonly name: string }[];
  readonly areas: readonly MapAreaInput[];
  readonly edges: readonly MapEdgeInput[];
}

/** One land step a non-ship unit may take (5.1): a land border or a red-arrow crossing. */
export interface LandLink {
  readonly to: AreaId;
  readonly road: boolean;
  readonly river: boolean;
  readonly mountain: boolean;
  readonly redArrow: boolean;
}

export interface MapIndex {
  readonly version: string;
  readonly areaIds: readonly AreaId[];
  readonly area: (id: AreaId) => MapAreaInput | undefined;
  readonly isLand: (id: AreaId) => boolean;
  /** Land and red-arrow neighbours, sorted by id for deterministic generation. */
  readonly landLinks: (id: AreaId) => readonly LandLink[];
  /** The edge between two areas, if any (either direction). */
  readonly edge: (a: AreaId, b: AreaId) => MapEdgeInput | undefined;
  /** Sea areas touching a land area (coast edges). */
  readonly seasOf: (land: AreaId) => readonly AreaId[];
  /** Land areas touching a sea area. */
  readonly shoresOf: (sea: AreaId) => readonly AreaId[];
  /** Areas carrying a start-position label. */
  readonly startAreas: (pos: StartPosition) => readonly AreaId[];
  readonly cityAreas: readonly AreaId[];
  /** City areas without the optional cities (13.2.3). */
  readonly baseCityAreas: readonly AreaId[];
  readonly aAreas: readonly AreaId[];
  /** Areas whose borders include the imperial boundary edge. */
  readonly onImperialBoundary: (id: AreaId) => boolean;
}

const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Compile the map once; every later lookup is O(1) or a precomputed list. */
export const indexMap = (map: MapInput): MapIndex => {
  const areas = new Map<string, MapAreaInput>();
  for (const a of map.areas) areas.set(a.id, a);
  const edges = new Map<string, MapEdgeInput>();
  const land = new Map<string, LandLink[]>();
  const seas = new Map<string, AreaId[]>();
  const shores = new Map<string, AreaId[]>();
  const boundary = new Set<string>();
  const push = <T>(m: Map<string, T[]>, k: string, v: T) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };
  for (const e of map.edges) {
    edges.set(key(e.a, e.b), e);
    if (e.imperialBoundary) {
      boundary.add(e.a);
      boundary.add(e.b);
    }
    const ka = areas.get(e.a)?.kind;
    const kb = areas.get(e.b)?.kind;
    if ((e.kind === 'land' || e.kind === 'redArrow') && ka === 'land' && kb === 'land') {
      const flags = {
        road: e.road,
        river: e.river,
        mountain: e.mountain,
        redArrow: e.kind === 'redArrow' || e.redArrow,
      };
      push(land, e.a, { to: e.b as AreaId, ...flags });
      push(land, e.b, { to: e.a as AreaId, ...flags });
    } else if (e.kind === 'coast') {
      const [l, s] = ka === 'sea' ? [e.b, e.a] : [e.a, e.b];
      push(seas, l, s as AreaId);
      push(shores, s, l as AreaId);
    }
  }
  for (const l of land.values()) l.sort((x, y) => (x.to < y.to ? -1 : 1));
  for (const l of seas.values()) l.sort();
  for (const l of shores.values()) l.sort();
  const areaIds = map.areas.map((a) => a.id as AreaId).sort();
  const startAreas = new Map<string, AreaId[]>();
  for (const a of map.areas) if (a.startPosition) push(startAreas, a.startPosition, a.id as AreaId);
  return {
    version: map.version,
    areaIds,
    area: (id) => areas.get(id),
    isLand: (id) => areas.get(id)?.kind === 'land',
    landLinks: (id) => land.get(id) ?? [],
    edge: (a, b) => edges.get(key(a, b)),
    seasOf: (id) => seas.get(id) ?? [],
    shoresOf: (id) => shores.get(id) ?? [],
    startAreas: (pos) => startAreas.get(pos) ?? [],
    cityAreas: areaIds.filter((id) => areas.get(id)?.city),
    baseCityAreas: areaIds.filter((id) => areas.get(id)?.city && !areas.get(id)?.city?.optional),
    aAreas: areaIds.filter((id) => areas.get(id)?.aMarked),
    onImperialBoundary: (id) => boundary.has(id),
  };
};
