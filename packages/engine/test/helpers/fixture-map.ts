/**
 * Tiny fixture maps for golden cases: a grid of land areas `rRcC` (row, column), with optional
 * cities, deserts, roads, start labels and sea areas, in the shape of @bke/map's MapData.
 */
import type { MapAreaInput, MapEdgeInput, MapInput, StartPosition } from '../../src/index.ts';

export interface GridSpec {
  rows: number;
  cols: number;
  cities?: Record<string, { tax: number; strength?: number; optional?: boolean; inside?: boolean }>;
  deserts?: string[];
  starts?: Record<string, StartPosition>;
  /** Area pairs joined by a road (both must be grid neighbours or red-arrow ends). */
  roads?: [string, string][];
  rivers?: [string, string][];
  redArrows?: [string, string][];
  /** Sea areas: id → the land areas on its shore; `marks` for 13.1.1 crossings. */
  seas?: Record<string, { shores: string[]; marks?: ('VIKING' | 'PICT' | 'ARAB')[] }>;
  garrisonSymbols?: string[];
  aMarked?: string[];
  provinces?: Record<string, string>;
  /** Areas outside the imperial boundary (cities there get no neutral garrison). */
  outside?: string[];
}

export const cell = (r: number, c: number): string => `r${r}c${c}`;

const same = (a: string, b: string, x: string, y: string) => (a === x && b === y) || (a === y && b === x);

export function gridMap(spec: GridSpec): MapInput {
  const areas: MapAreaInput[] = [];
  const edges: MapEdgeInput[] = [];
  const seaShores = new Set(Object.values(spec.seas ?? {}).flatMap((s) => s.shores));
  for (let r = 0; r < spec.rows; r++) {
    for (let c = 0; c < spec.cols; c++) {
      const id = cell(r, c);
      const city = spec.cities?.[id];
      areas.push({
        id,
        name: id,
        kind: 'land',
        province: spec.provinces?.[id] ?? 'p',
        city: city
          ? {
              name: id,
              tax: city.tax,
              optional: city.optional ?? false,
              neutralStrength: city.strength ?? Math.max(2, Math.min(3, city.tax)),
            }
          : null,
        desert: spec.deserts?.includes(id) ?? false,
        coastal: seaShores.has(id),
        insideEmpire: !(spec.outside?.includes(id) ?? false) && (city?.inside ?? true),
        garrisonSymbol: spec.garrisonSymbols?.includes(id) ?? false,
        startPosition: spec.starts?.[id] ?? null,
        aMarked: spec.aMarked?.includes(id) ?? false,
        seaCrossingFor: [],
      });
      const flags = (a: string, b: string) => ({
        river: (spec.rivers ?? []).some(([x, y]) => same(a, b, x, y)),
        mountain: false,
        road: (spec.roads ?? []).some(([x, y]) => same(a, b, x, y)),
        redArrow: false,
        whiteArrow: false,
        imperialBoundary: false,
      });
      if (c + 1 < spec.cols)
        edges.push({ a: id, b: cell(r, c + 1), kind: 'land', ...flags(id, cell(r, c + 1)) });
      if (r + 1 < spec.rows)
        edges.push({ a: id, b: cell(r + 1, c), kind: 'land', ...flags(id, cell(r + 1, c)) });
    }
  }
  for (const [a, b] of spec.redArrows ?? []) {
    edges.push({
      a,
      b,
      kind: 'redArrow',
      river: false,
      mountain: false,
      road: (spec.roads ?? []).some(([x, y]) => same(a, b, x, y)),
      redArrow: true,
      whiteArrow: false,
      imperialBoundary: false,
    });
  }
  for (const [id, sea] of Object.entries(spec.seas ?? {})) {
    areas.push({
      id,
      name: id,
      kind: 'sea',
      province: null,
      city: null,
      desert: false,
      coastal: false,
      insideEmpire: false,
      garrisonSymbol: false,
      startPosition: null,
      aMarked: false,
      seaCrossingFor: sea.marks ?? [],
    });
    for (const shore of sea.shores) {
      edges.push({
        a: shore,
        b: id,
        kind: 'coast',
        river: false,
        mountain: false,
        road: false,
        redArrow: false,
        whiteArrow: false,
        imperialBoundary: false,
      });
    }
  }
  return { version: 'fixture', provinces: [{ id: 'p', name: 'P' }], areas, edges };
}
