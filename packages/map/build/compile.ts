/**
 * Compiles the authored source into MapData: rasterises the world (raster.ts), reads adjacency,
 * coasts and border attributes off the raster, applies the authored connections (roads, red and
 * white arrows, attribute overrides) and traces every outline. Throws on any inconsistency between the
 * source and the geometry, such as a road between two areas that do not touch.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { geoPath } from 'd3-geo';
import {
  type Area,
  BOARD_SIDES,
  type BoardSide,
  type City,
  type Coast,
  type Edge,
  type EdgeKind,
  type MapData,
  mapDataSchema,
} from '../src/schema.ts';
import { parseSource, type SourceArea, type SourceCity, type SourceMap } from './parse.ts';
import {
  buildTerrain,
  dilate,
  grow,
  LAND,
  makeFrame,
  OFF,
  offBoardSide,
  project,
  type Seed,
  SIDES,
  WATER,
} from './raster.ts';
import { borderLines, outline } from './trace.ts';

/** Shortest shared border, in pixel edges, that makes two areas adjacent. */
const MIN_BORDER: Record<'land' | 'coast' | 'sea', number> = { land: 5, coast: 2, sea: 3 };

export interface BuildResult {
  map: MapData;
  /** Human-readable notes for the author (short borders, thin areas). */
  notes: string[];
}

function defaultSourceDir(): string {
  return fileURLToPath(new URL('../source', import.meta.url));
}

/** 14.1 / AMBIG-5: tax value, minimum 2, capped at 3 unless the book states the value (Byzantium 4). */
export function neutralStrength(city: SourceCity): number {
  if (city.neutralStrength !== null) return city.neutralStrength;
  if (city.optional) return 2;
  return Math.max(2, Math.min(3, city.tax));
}

/** The version is a hash of the compiled content, so it changes exactly when the map does. */
function contentHash(map: Omit<MapData, 'version'>): string {
  return createHash('sha256').update(JSON.stringify(map)).digest('hex').slice(0, 12);
}

interface Raster {
  width: number;
  height: number;
  labels: Int32Array;
  kind: Uint8Array;
  side: Uint8Array;
  river: Uint8Array;
  mountain: Uint8Array;
  island: Uint8Array;
}

function seedsFor(src: SourceMap, frame: ReturnType<typeof makeFrame>, kind: Uint8Array): Seed[] {
  const seeds: Seed[] = [];
  const errors: string[] = [];
  src.areas.forEach((area, label) => {
    const want = area.kind === 'land' ? LAND : WATER;
    for (const p of area.seeds) {
      const [x, y] = project(frame, p);
      const spot = nearestOfKind(frame.width, frame.height, kind, x, y, want);
      if (spot === null)
        errors.push(`${area.line}: seed ${p.join(' ')} of ${area.id} is not on ${area.kind}`);
      else seeds.push({ x: spot[0] + 0.5, y: spot[1] + 0.5, label });
    }
  });
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return seeds;
}

function nearestOfKind(w: number, h: number, kind: Uint8Array, x: number, y: number, want: number) {
  const cx = Math.floor(x);
  const cy = Math.floor(y);
  for (let r = 0; r <= 8; r++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const px = cx + dx;
        const py = cy + dy;
        if (px >= 0 && py >= 0 && px < w && py < h && kind[py * w + px] === want) return [px, py] as const;
      }
    }
  }
  return null;
}

function rasteriseAreas(src: SourceMap): { raster: Raster; frame: ReturnType<typeof makeFrame> } {
  const frame = makeFrame();
  const { width, height } = frame;
  const terrain = buildTerrain(frame, src.features);
  const { kind, side, river, mountain } = terrain;
  const seeds = seedsFor(src, frame, kind);
  const isLand = (label: number) => src.areas[label]?.kind === 'land';
  const labels = new Int32Array(width * height).fill(-1);
  const barrier = (i: number) => river[i] === 1 || mountain[i] === 1;
  grow(
    width,
    height,
    labels,
    (i) => kind[i] === LAND && !barrier(i),
    seeds.filter((s) => isLand(s.label)),
  );
  dilate(width, height, labels, (i) => kind[i] === LAND && barrier(i), isLand);
  // land that no land seed reached is a small island: it belongs to its sea area (2.1)
  const island = new Uint8Array(width * height);
  for (let i = 0; i < labels.length; i++) if (kind[i] === LAND && labels[i] === -1) island[i] = 1;
  grow(
    width,
    height,
    labels,
    (i) => kind[i] === WATER || island[i] === 1,
    seeds.filter((s) => !isLand(s.label)),
  );
  // water no sea seed reached is a lake: it belongs to the land around it
  dilate(width, height, labels, (i) => kind[i] === WATER, isLand);
  dilate(
    width,
    height,
    labels,
    (i) => kind[i] !== OFF,
    () => true,
  );
  return { raster: { width, height, labels, kind, side, river, mountain, island }, frame };
}

interface Contact {
  a: number;
  b: number;
  count: number;
  river: number;
  mountain: number;
  shore: number;
}

/** Counts shared pixel edges between every pair of labels, with how many run along barriers/shores. */
function contacts(r: Raster, isLand: (l: number) => boolean): Map<string, Contact> {
  const { width, height, labels } = r;
  const touchesSea = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const l = labels[y * width + x] as number;
      if (l < 0 || !isLand(l)) continue;
      for (let dy = -1; dy <= 1 && !touchesSea[y * width + x]; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const m = labels[ny * width + nx] as number;
          if (m >= 0 && !isLand(m)) touchesSea[y * width + x] = 1;
        }
      }
    }
  }
  const out = new Map<string, Contact>();
  const visit = (i: number, j: number) => {
    const p = labels[i] as number;
    const q = labels[j] as number;
    if (p < 0 || q < 0 || p === q) return;
    const a = Math.min(p, q);
    const b = Math.max(p, q);
    const k = `${a},${b}`;
    let c = out.get(k);
    if (!c) {
      c = { a, b, count: 0, river: 0, mountain: 0, shore: 0 };
      out.set(k, c);
    }
    c.count++;
    if (r.river[i] || r.river[j]) c.river++;
    if (r.mountain[i] || r.mountain[j]) c.mountain++;
    if (touchesSea[i] || touchesSea[j]) c.shore++;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x + 1 < width) visit(i, i + 1);
      if (y + 1 < height) visit(i, i + width);
    }
  }
  return out;
}

/** The pixel of each label farthest from its outline (chamfer distance), for labels and city dots. */
function labelPoints(r: Raster, count: number): [number, number][] {
  const { width, height, labels } = r;
  const dist = new Float32Array(width * height);
  const big = 1e9;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const l = labels[i];
      const edge =
        x === 0 ||
        y === 0 ||
        x === width - 1 ||
        y === height - 1 ||
        labels[i - 1] !== l ||
        labels[i + 1] !== l ||
        labels[i - width] !== l ||
        labels[i + width] !== l;
      dist[i] = edge ? 0 : big;
    }
  }
  const pass = (i: number, j: number, cost: number) => {
    const d = (dist[j] as number) + cost;
    if (d < (dist[i] as number)) dist[i] = d;
  };
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      pass(i, i - 1, 3);
      pass(i, i - width, 3);
      pass(i, i - width - 1, 4);
      pass(i, i - width + 1, 4);
    }
  }
  for (let y = height - 2; y > 0; y--) {
    for (let x = width - 2; x > 0; x--) {
      const i = y * width + x;
      pass(i, i + 1, 3);
      pass(i, i + width, 3);
      pass(i, i + width + 1, 4);
      pass(i, i + width - 1, 4);
    }
  }
  const best = new Float32Array(count).fill(-1);
  const at: [number, number][] = Array.from({ length: count }, () => [0, 0]);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as number;
    if (l < 0) continue;
    if ((dist[i] as number) > (best[l] as number)) {
      best[l] = dist[i] as number;
      at[l] = [(i % width) + 0.5, Math.floor(i / width) + 0.5];
    }
  }
  return at;
}

/** The board edges each label touches: off-board pixels next to it, by the side they lie beyond. */
function boardEdges(r: Raster, count: number): BoardSide[][] {
  const found = Array.from({ length: count }, () => new Set<BoardSide>());
  const { width, labels } = r;
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i] as number;
    if (l < 0) continue;
    const x = i % width;
    for (const j of [x + 1 < width ? i + 1 : -1, x > 0 ? i - 1 : -1, i + width, i - width]) {
      const s = j >= 0 && j < labels.length ? (r.side[j] as number) : 0;
      if (s > 0) found[l]?.add(SIDES[s - 1] as BoardSide);
    }
  }
  return found.map((set) => BOARD_SIDES.filter((s) => set.has(s)));
}

function boxes(r: Raster, count: number) {
  const b = Array.from({ length: count }, () => ({ x0: Infinity, y0: Infinity, x1: -1, y1: -1 }));
  for (let i = 0; i < r.labels.length; i++) {
    const l = r.labels[i] as number;
    if (l < 0) continue;
    const x = i % r.width;
    const y = Math.floor(i / r.width);
    const box = b[l]!;
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x);
    box.y1 = Math.max(box.y1, y);
  }
  return b;
}

function makeEdge(a: string, b: string, kind: EdgeKind): Edge {
  const [x, y] = a < b ? [a, b] : [b, a];
  return {
    a: x,
    b: y,
    kind,
    river: false,
    mountain: false,
    road: false,
    redArrow: kind === 'redArrow',
    whiteArrow: kind === 'whiteArrow',
    imperialBoundary: false,
    provinceBoundary: false,
    shoreline: false,
  };
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function geometricEdges(src: SourceMap, r: Raster, notes: string[]): Map<string, Edge> {
  const isLand = (l: number) => src.areas[l]?.kind === 'land';
  const edges = new Map<string, Edge>();
  for (const c of contacts(r, isLand).values()) {
    const A = src.areas[c.a] as SourceArea;
    const B = src.areas[c.b] as SourceArea;
    const kind =
      A.kind === 'land' && B.kind === 'land'
        ? 'land'
        : A.kind === 'sea' && B.kind === 'sea'
          ? 'sea'
          : 'coast';
    if (c.count < MIN_BORDER[kind]) continue;
    if (c.count < MIN_BORDER[kind] + 4) notes.push(`short ${kind} border ${A.id}|${B.id}: ${c.count}`);
    const e = makeEdge(A.id, B.id, kind);
    if (kind === 'land') {
      e.river = c.river / c.count >= 0.5;
      e.mountain = c.mountain / c.count >= 0.5;
      e.shoreline = c.shore >= 2;
    }
    edges.set(pairKey(A.id, B.id), e);
  }
  return edges;
}

function applyConnections(src: SourceMap, edges: Map<string, Edge>): void {
  const byId = new Map(src.areas.map((a) => [a.id, a]));
  const errors: string[] = [];
  for (const c of src.connections) {
    const A = byId.get(c.a);
    const B = byId.get(c.b);
    if (!A || !B) {
      errors.push(`${c.line}: unknown area ${A ? c.b : c.a}`);
      continue;
    }
    const k = pairKey(c.a, c.b);
    const existing = edges.get(k);
    if (c.kind === 'redArrow' || c.kind === 'whiteArrow') {
      const want = c.kind === 'redArrow' ? 'land' : 'sea';
      if (A.kind !== want || B.kind !== want) errors.push(`${c.line}: ${c.kind} joins two ${want} areas`);
      else if (existing) errors.push(`${c.line}: ${c.a} and ${c.b} already touch; no arrow needed`);
      else edges.set(k, makeEdge(c.a, c.b, c.kind));
      continue;
    }
    if (!existing) {
      const near = [...edges.values()].filter((e) => e.kind === 'land' && (e.a === c.a || e.b === c.a));
      const names = near.map((e) => (e.a === c.a ? e.b : e.a)).join(' ');
      errors.push(
        `${c.line}: ${c.kind} between ${c.a} and ${c.b}, which do not touch (${c.a} touches ${names})`,
      );
    } else if (c.kind === 'cut') edges.delete(k);
    else if (c.kind === 'road') {
      if (existing.kind !== 'land' && existing.kind !== 'redArrow') errors.push(`${c.line}: road off land`);
      existing.road = true;
    } else if (existing.kind !== 'land') errors.push(`${c.line}: ${c.kind} on a ${existing.kind} edge`);
    else existing[c.kind] = true;
  }
  if (errors.length > 0) throw new Error(errors.join('\n'));
}

function coastsOf(id: string, seas: string[], seaEdges: Set<string>): Coast[] {
  const groups: string[][] = [];
  const seen = new Set<string>();
  for (const s of [...seas].sort()) {
    if (seen.has(s)) continue;
    const group = [s];
    seen.add(s);
    for (let i = 0; i < group.length; i++) {
      for (const t of seas) {
        if (!seen.has(t) && seaEdges.has(pairKey(group[i] as string, t))) {
          seen.add(t);
          group.push(t);
        }
      }
    }
    groups.push(group.sort());
  }
  return groups.map((g, i) => ({
    id: groups.length === 1 ? `${id}-coast` : `${id}-coast-${i + 1}`,
    seas: g,
  }));
}

function toCity(c: SourceCity | null): City | null {
  if (c === null) return null;
  return { name: c.name, tax: c.tax, optional: c.optional, neutralStrength: neutralStrength(c) };
}

export function buildMap(dir: string = defaultSourceDir()): BuildResult {
  const src = parseSource(dir);
  const notes: string[] = [];
  const ids = new Set<string>();
  for (const a of src.areas) {
    if (ids.has(a.id)) throw new Error(`${a.line}: duplicate id ${a.id}`);
    ids.add(a.id);
    if (a.kind === 'land' && !src.provinces.some((p) => p.id === a.province)) {
      throw new Error(`${a.line}: unknown province ${a.province}`);
    }
  }
  const { raster, frame } = rasteriseAreas(src);
  const edges = geometricEdges(src, raster, notes);
  applyConnections(src, edges);
  const half = new Map(src.provinces.map((p) => [p.id, p.half]));
  const inside = (a: SourceArea) => a.kind === 'land' && (half.get(a.province ?? '') ?? null) !== null;
  const byId = new Map(src.areas.map((a) => [a.id, a]));
  for (const e of edges.values()) {
    if (e.kind !== 'land') continue;
    e.imperialBoundary = inside(byId.get(e.a)!) !== inside(byId.get(e.b)!);
    e.provinceBoundary = byId.get(e.a)?.province !== byId.get(e.b)?.province;
  }
  // a shoreline must also be a shared coast: both areas touch one same sea area
  const seasOf = (id: string) =>
    [...edges.values()]
      .filter((e) => e.kind === 'coast' && (e.a === id || e.b === id))
      .map((e) => (e.a === id ? e.b : e.a));
  for (const e of edges.values()) {
    if (e.shoreline) e.shoreline = seasOf(e.a).some((s) => seasOf(e.b).includes(s));
  }
  const sorted = [...edges.values()].sort((x, y) =>
    x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1,
  );
  const seaEdges = new Set(sorted.filter((e) => e.kind === 'sea').map((e) => pairKey(e.a, e.b)));
  const points = labelPoints(raster, src.areas.length);
  const bb = boxes(raster, src.areas.length);
  const edgesOfBoard = boardEdges(raster, src.areas.length);
  const areas: Area[] = src.areas.map((a, label) => {
    const box = bb[label]!;
    if (box.x1 < 0) throw new Error(`${a.line}: area ${a.id} got no pixels`);
    const seas = sorted
      .filter((e) => e.kind === 'coast' && (e.a === a.id || e.b === a.id))
      .map((e) => (e.a === a.id ? e.b : e.a));
    const [lx, ly] = points[label]!;
    return {
      id: a.id,
      name: a.name,
      kind: a.kind,
      province: a.kind === 'land' ? a.province : null,
      city: toCity(a.city),
      desert: a.desert,
      coastal: a.kind === 'land' && seas.length > 0,
      coasts: a.kind === 'land' ? coastsOf(a.id, seas, seaEdges) : [],
      insideEmpire: inside(a),
      garrisonSymbol: a.garrisonSymbol,
      startPosition: a.startPosition,
      aMarked: a.aMarked,
      seaCrossingFor: a.kind === 'sea' ? [...(a.seaCrossingFor as Area['seaCrossingFor'])] : [],
      path: outline(raster.width, (i) => raster.labels[i] === label, box),
      label: [Math.round(lx * 10) / 10, Math.round(ly * 10) / 10],
      boardEdges: edgesOfBoard[label] ?? [],
    };
  });
  const content = {
    view: { width: raster.width, height: raster.height },
    provinces: src.provinces.map((p) => ({ id: p.id, name: p.name, half: p.half })),
    areas,
    edges: sorted,
    decor: decor(src, raster, frame),
  };
  const map: MapData = { version: contentHash(content), ...content };
  return { map: mapDataSchema.parse(map), notes };
}

function decor(
  src: SourceMap,
  r: Raster,
  frame: ReturnType<typeof makeFrame>,
): NonNullable<MapData['decor']> {
  const path = geoPath(frame.projection).digits(1);
  const isLand = (l: number) => l >= 0 && src.areas[l]?.kind === 'land';
  const provinceIndex = new Map(src.provinces.map((p, i) => [p.id, i]));
  const inside = (l: number) => {
    const p = src.provinces.find((q) => q.id === src.areas[l]?.province);
    return p?.half != null;
  };
  const labelClass = (i: number, f: (l: number) => number) => {
    const l = r.labels[i] as number;
    return isLand(l) ? f(l) : -1;
  };
  // draw only the runs of a line that lie on the board
  const line = (name: string, kind: 'river' | 'mountain') =>
    src.features
      .filter((f) => f.kind === kind && f.name === name)
      .map((f) => {
        const runs: number[][][] = [[]];
        for (const p of f.points) {
          if (offBoardSide(p[0], p[1]) === null) runs[runs.length - 1]?.push([p[0], p[1]]);
          else runs.push([]);
        }
        const coordinates = runs.filter((r) => r.length >= 2);
        return path({ type: 'MultiLineString', coordinates }) ?? '';
      })
      .join('');
  const names = (kind: 'river' | 'mountain') => [
    ...new Set(src.features.filter((f) => f.kind === kind).map((f) => f.name)),
  ];
  return {
    islands: outline(r.width, (i) => r.island[i] === 1, { x0: 0, y0: 0, x1: r.width - 1, y1: r.height - 1 }),
    rivers: names('river').map((name) => ({ name, path: line(name, 'river') })),
    mountains: names('mountain').map((name) => ({ name, path: line(name, 'mountain') })),
    imperialBoundary: borderLines(r.width, r.height, (i) => labelClass(i, (l) => (inside(l) ? 1 : 0))),
    provinceBoundaries: borderLines(r.width, r.height, (i) =>
      labelClass(i, (l) => provinceIndex.get(src.areas[l]?.province ?? '') ?? 0),
    ),
  };
}
