/**
 * The map's geometry is decided on a raster: Natural Earth land (world-atlas, 1:50m) is projected and
 * rasterised, rivers and mountain ranges are drawn in as barriers, straits are cut open, and every pixel
 * is given to the nearest seed of its own kind (land or sea) that it can reach without crossing water,
 * a barrier or the map edge. Adjacency, coasts, labels and outlines are all read off this one raster, so
 * the picture and the rules cannot disagree.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { type GeoProjection, geoConicEqualArea, geoPath } from 'd3-geo';
import type { MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { BoardSide } from '../src/schema.ts';
import type { LonLat, SourceFeature } from './parse.ts';

const VIEW_WIDTH = 2000;

/**
 * The geographic window of the board: outside it a pixel is off the map. The east edge runs at 57°E
 * south of 37°N (all of Persia) and bends to 52°E north of 39.5°N, so that the Caspian Sea lies on the
 * east edge and the steppe north of it is an entry edge (C.8).
 */
const LON_MIN = -11.5;
const LAT_MIN = 22.5;
const LAT_MAX = 64.8;
function lonMax(lat: number): number {
  if (lat <= 37) return 57;
  if (lat >= 39.5) return 52;
  return 57 - ((lat - 37) / 2.5) * 5;
}

/** Which board edge a geographic point lies beyond, or null when it is on the board. */
export function offBoardSide(lon: number, lat: number): BoardSide | null {
  if (lat > LAT_MAX) return 'north';
  if (lat < LAT_MIN) return 'south';
  if (lon < LON_MIN) return 'west';
  if (lon > lonMax(lat)) return 'east';
  return null;
}

export const OFF = 0;
export const LAND = 1;
export const WATER = 2;

export interface Frame {
  projection: GeoProjection;
  width: number;
  height: number;
}

/** A conic equal-area projection centred on the Aegean, fitted to the board's window. */
export function makeFrame(): Frame {
  const projection = geoConicEqualArea().parallels([34, 58]).rotate([-22, 0]);
  const box = {
    type: 'MultiPoint' as const,
    coordinates: [
      [LON_MIN, 51.5],
      [LON_MIN, 36],
      [-10, 30],
      [5, 63],
      [25, LAT_MAX],
      [45, 61],
      [52, 60],
      [52, 46],
      [57, 36],
      [57, 26],
      [32, LAT_MIN],
      [-2, 27],
    ],
  };
  projection.fitWidth(VIEW_WIDTH - 20, box);
  const [[x0, y0], [, y1]] = geoPath(projection).bounds(box);
  const [tx, ty] = projection.translate();
  projection.translate([tx - x0 + 10, ty - y0 + 10]);
  return { projection, width: VIEW_WIDTH, height: Math.ceil(y1 - y0 + 20) };
}

export function project(frame: Frame, p: LonLat): [number, number] {
  const xy = frame.projection([p[0], p[1]]);
  if (xy === null) throw new Error(`cannot project ${p[0]} ${p[1]}`);
  return [xy[0], xy[1]];
}

function loadLand(): Polygon | MultiPolygon {
  const require = createRequire(import.meta.url);
  const file = require.resolve('world-atlas/land-50m.json');
  const topo = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ land: GeometryCollection }>;
  const land = feature(topo, topo.objects.land);
  const geometries = land.features.map((f) => f.geometry).filter((g) => g.type === 'MultiPolygon');
  const coordinates = geometries.flatMap((g) => (g.type === 'MultiPolygon' ? g.coordinates : []));
  return { type: 'MultiPolygon', coordinates };
}

/** Renders an SVG fragment without anti-aliasing and returns a 0/1 mask (any non-white pixel). */
function rasterise(frame: Frame, body: string): Uint8Array {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" ` +
    `shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`;
  const pixels = new Resvg(svg, { shapeRendering: 1 }).render().pixels;
  const mask = new Uint8Array(frame.width * frame.height);
  for (let i = 0; i < mask.length; i++) mask[i] = (pixels[i * 4] ?? 255) < 128 ? 1 : 0;
  return mask;
}

function linePath(frame: Frame, points: readonly LonLat[]): string {
  return (
    geoPath(frame.projection)({ type: 'LineString', coordinates: points.map((p) => [p[0], p[1]]) }) ?? ''
  );
}

export const SIDES: readonly BoardSide[] = ['north', 'south', 'east', 'west'];

export interface Terrain {
  /** OFF, LAND or WATER per pixel. */
  kind: Uint8Array;
  /** For OFF pixels, 1 + the index in SIDES of the board edge they lie beyond. */
  side: Uint8Array;
  river: Uint8Array;
  mountain: Uint8Array;
}

/** Land/water/off-board classification plus the river and mountain barrier masks. */
export function buildTerrain(frame: Frame, features: readonly SourceFeature[]): Terrain {
  const land = rasterise(frame, `<path d="${geoPath(frame.projection)(loadLand())}" fill="#000"/>`);
  const stroke = (kind: SourceFeature['kind'], width: number) =>
    rasterise(
      frame,
      features
        .filter((f) => f.kind === kind)
        .map(
          (f) => `<path d="${linePath(frame, f.points)}" fill="none" stroke="#000" stroke-width="${width}"/>`,
        )
        .join(''),
    );
  const strait = stroke('strait', 3.2);
  const river = stroke('river', 1.6);
  const mountain = stroke('mountain', 2.4);
  const kind = new Uint8Array(frame.width * frame.height);
  const side = new Uint8Array(frame.width * frame.height);
  const invert = frame.projection.invert;
  if (invert === undefined) throw new Error('projection has no inverse');
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const i = y * frame.width + x;
      const ll = invert([x + 0.5, y + 0.5]);
      const off = ll === null ? 'north' : offBoardSide(ll[0], ll[1]);
      if (off !== null) {
        kind[i] = OFF;
        side[i] = SIDES.indexOf(off) + 1;
      } else kind[i] = land[i] === 1 && strait[i] === 0 ? LAND : WATER;
      if (kind[i] !== LAND) {
        river[i] = 0;
        mountain[i] = 0;
      }
    }
  }
  return { kind, side, river, mountain };
}

/** A binary min-heap of (key, value) pairs on growable typed arrays. */
class Heap {
  private keys = new Float64Array(1 << 16);
  private vals = new Int32Array(1 << 16);
  size = 0;

  push(key: number, val: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const v = new Int32Array(this.size * 2);
      v.set(this.vals);
      this.vals = v;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = this.keys[parent] as number;
      if (pk <= key) break;
      this.keys[i] = pk;
      this.vals[i] = this.vals[parent] as number;
      i = parent;
    }
    this.keys[i] = key;
    this.vals[i] = val;
  }

  /** Removes the smallest entry and returns its value. */
  pop(): number {
    const top = this.vals[0] as number;
    const n = --this.size;
    const key = this.keys[n] as number;
    const val = this.vals[n] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && (this.keys[child + 1] as number) < (this.keys[child] as number)) child++;
      if ((this.keys[child] as number) >= key) break;
      this.keys[i] = this.keys[child] as number;
      this.vals[i] = this.vals[child] as number;
      i = child;
    }
    this.keys[i] = key;
    this.vals[i] = val;
    return top;
  }
}

export interface Seed {
  x: number;
  y: number;
  label: number;
}

/**
 * Grows seeds over the allowed pixels (4-connected), each pixel taking the seed nearest in straight
 * line among those that reach it: a Voronoi diagram that cannot jump across water or barriers.
 */
export function grow(
  width: number,
  height: number,
  labels: Int32Array,
  allowed: (i: number) => boolean,
  seeds: readonly Seed[],
): void {
  const best = new Float64Array(width * height).fill(Number.POSITIVE_INFINITY);
  const owner = new Int32Array(width * height).fill(-1);
  const heap = new Heap();
  seeds.forEach((s, k) => {
    const i = Math.floor(s.y) * width + Math.floor(s.x);
    best[i] = 0;
    owner[i] = k;
    heap.push(0, i);
  });
  const done = new Uint8Array(width * height);
  while (heap.size > 0) {
    const i = heap.pop();
    if (done[i]) continue;
    done[i] = 1;
    const k = owner[i] as number;
    const seed = seeds[k] as Seed;
    labels[i] = seed.label;
    const x = i % width;
    const y = (i - x) / width;
    const relax = (nx: number, ny: number) => {
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) return;
      const j = ny * width + nx;
      if (done[j] || !allowed(j)) return;
      const dx = nx + 0.5 - seed.x;
      const dy = ny + 0.5 - seed.y;
      const d = dx * dx + dy * dy;
      if (d < (best[j] as number)) {
        best[j] = d;
        owner[j] = k;
        heap.push(d, j);
      }
    };
    relax(x + 1, y);
    relax(x - 1, y);
    relax(x, y + 1);
    relax(x, y - 1);
  }
}

/** Gives unlabelled pixels that pass `take` the label of a labelled 4-neighbour, breadth first. */
export function dilate(
  width: number,
  height: number,
  labels: Int32Array,
  take: (i: number) => boolean,
  from: (label: number) => boolean,
): void {
  let frontier: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] === -1 && take(i)) frontier.push(i);
  }
  while (frontier.length > 0) {
    const next: number[] = [];
    const assigned: [number, number][] = [];
    for (const i of frontier) {
      const x = i % width;
      const neighbours = [x + 1 < width ? i + 1 : -1, x > 0 ? i - 1 : -1, i + width, i - width];
      const n = neighbours.find(
        (j) => j >= 0 && j < labels.length && (labels[j] as number) >= 0 && from(labels[j] as number),
      );
      if (n === undefined) next.push(i);
      else assigned.push([i, labels[n] as number]);
    }
    if (assigned.length === 0) break;
    for (const [i, l] of assigned) labels[i] = l;
    frontier = next;
  }
  void height;
}
