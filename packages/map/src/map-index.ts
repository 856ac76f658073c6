/**
 * Id-indexed lookups over a MapData and the precomputed lists the engine and client need. Build one
 * with `indexMap(map)`; it never mutates the map.
 */
import type { Area, Edge, EdgeKind, MapData, Province, SeaCrossingPeople, StartPosition } from './schema.ts';
import { EDGE_KINDS, SEA_CROSSING_PEOPLES, START_POSITIONS } from './schema.ts';

export interface MapIndex {
  readonly map: MapData;
  readonly areas: ReadonlyMap<string, Area>;
  readonly provinces: ReadonlyMap<string, Province>;
  readonly landAreas: readonly string[];
  readonly seaAreas: readonly string[];
  /** Land areas touching at least one sea area (ships end moves here, 5.2). */
  readonly coastalAreas: readonly string[];
  /** Areas with a city, optional ones included (check `city.optional`). */
  readonly cities: readonly string[];
  readonly garrisonSymbolAreas: readonly string[];
  readonly aMarkedAreas: readonly string[];
  /** The area carrying each printed start label. */
  readonly startLabels: ReadonlyMap<StartPosition, string>;
  /**
   * Where each position's first units may go: the labelled area for the eight base positions (9);
   * the "A" areas of Mesopotamia and Syria (ARAB) or Mauretania (AFRICAN) (13.2.2); every land area of
   * Persia (PERSIAN, 13.2.3).
   */
  readonly startAreas: ReadonlyMap<StartPosition, readonly string[]>;
  /** Sea areas marked for each people's tribal sea crossings (13.1.1). */
  readonly seaCrossings: ReadonlyMap<SeaCrossingPeople, readonly string[]>;
  area(id: string): Area;
  /** All edges at an area. */
  edgesOf(id: string): readonly Edge[];
  /** The edge between two areas, if any (order does not matter). */
  edge(a: string, b: string): Edge | undefined;
  /** Neighbours of an area along edges of the given kinds (all kinds when omitted). */
  neighbours(id: string, kinds?: readonly EdgeKind[]): readonly string[];
  /** Land neighbours a land unit can step to: shared land borders and red arrows (5.1). */
  landNeighbours(id: string): readonly string[];
  /** Sea areas a land area's coasts touch, or a sea area's sea and white-arrow neighbours. */
  seaNeighbours(id: string): readonly string[];
  /** Land areas a ship may sail to along the shore: land borders marked `shoreline` (5.2). */
  shoreNeighbours(id: string): readonly string[];
  provinceAreas(provinceId: string): readonly string[];
  /** The id of the coast of a land area that touches a sea area (5.2: Athens has two), if any. */
  coastOf(landId: string, seaId: string): string | undefined;
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function group<K, V>(entries: Iterable<[K, V]>): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const [k, v] of entries) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

function startAreasOf(map: MapData): Map<StartPosition, string[]> {
  const land = map.areas.filter((a) => a.kind === 'land');
  const aIn = (provinces: readonly string[]) =>
    land.filter((a) => a.aMarked && provinces.includes(a.province ?? '')).map((a) => a.id);
  const out = new Map<StartPosition, string[]>();
  for (const start of START_POSITIONS) {
    if (start === 'ARAB') out.set(start, aIn(['mesopotamia', 'syria']));
    else if (start === 'AFRICAN') out.set(start, aIn(['mauretania']));
    else if (start === 'PERSIAN')
      out.set(
        start,
        land.filter((a) => a.province === 'persia').map((a) => a.id),
      );
    else
      out.set(
        start,
        land.filter((a) => a.startPosition === start).map((a) => a.id),
      );
  }
  return out;
}

export function indexMap(map: MapData): MapIndex {
  const areas = new Map(map.areas.map((a) => [a.id, a]));
  const edges = new Map(map.edges.map((e) => [pairKey(e.a, e.b), e]));
  const edgesAt = group(
    map.edges.flatMap((e): [string, Edge][] => [
      [e.a, e],
      [e.b, e],
    ]),
  );
  const byKind = new Map<string, string[]>();
  const neighboursFor = (id: string, kinds: readonly EdgeKind[]) => {
    const key = `${id}/${kinds.join(',')}`;
    let list = byKind.get(key);
    if (!list) {
      list = (edgesAt.get(id) ?? [])
        .filter((e) => kinds.includes(e.kind))
        .map((e) => (e.a === id ? e.b : e.a));
      byKind.set(key, list);
    }
    return list;
  };
  const ids = (pred: (a: Area) => boolean) => map.areas.filter(pred).map((a) => a.id);
  const provinceAreas = group(
    map.areas.filter((a) => a.province !== null).map((a): [string, string] => [a.province ?? '', a.id]),
  );
  return {
    map,
    areas,
    provinces: new Map(map.provinces.map((p) => [p.id, p])),
    landAreas: ids((a) => a.kind === 'land'),
    seaAreas: ids((a) => a.kind === 'sea'),
    coastalAreas: ids((a) => a.kind === 'land' && a.coastal),
    cities: ids((a) => a.city !== null),
    garrisonSymbolAreas: ids((a) => a.garrisonSymbol),
    aMarkedAreas: ids((a) => a.aMarked),
    startLabels: new Map(
      map.areas.flatMap((a): [StartPosition, string][] => (a.startPosition ? [[a.startPosition, a.id]] : [])),
    ),
    startAreas: startAreasOf(map),
    seaCrossings: new Map(SEA_CROSSING_PEOPLES.map((p) => [p, ids((a) => a.seaCrossingFor.includes(p))])),
    area(id) {
      const a = areas.get(id);
      if (!a) throw new Error(`unknown area ${id}`);
      return a;
    },
    edgesOf: (id) => edgesAt.get(id) ?? [],
    edge: (a, b) => edges.get(pairKey(a, b)),
    neighbours: (id, kinds = EDGE_KINDS) => neighboursFor(id, kinds),
    landNeighbours: (id) => neighboursFor(id, ['land', 'redArrow']),
    seaNeighbours: (id) =>
      areas.get(id)?.kind === 'sea' ? neighboursFor(id, ['sea', 'whiteArrow']) : neighboursFor(id, ['coast']),
    shoreNeighbours: (id) =>
      (edgesAt.get(id) ?? [])
        .filter((e) => e.kind === 'land' && e.shoreline)
        .map((e) => (e.a === id ? e.b : e.a)),
    provinceAreas: (p) => provinceAreas.get(p) ?? [],
    coastOf: (landId, seaId) => areas.get(landId)?.coasts.find((c) => c.seas.includes(seaId))?.id,
  };
}
