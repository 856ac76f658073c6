/**
 * Structural checks of the compiled map: schema, symmetric and well-typed adjacency, connectivity,
 * and the MapIndex helpers. Rulebook facts live in c8.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { EDGE_KINDS, indexMap, loadMap, mapDataSchema } from '../src/index.ts';
import { components, distances } from './helpers.ts';

const map = loadMap();
const index = indexMap(map);
const kindOf = (id: string) => index.area(id).kind;

describe('schema and ids', () => {
  it('validates against the zod schema', () => {
    expect(mapDataSchema.safeParse(map).success).toBe(true);
  });

  it('has unique area and province ids, and every land area names a known province', () => {
    expect(new Set(map.areas.map((a) => a.id)).size).toBe(map.areas.length);
    expect(new Set(map.provinces.map((p) => p.id)).size).toBe(map.provinces.length);
    for (const a of map.areas) {
      if (a.kind === 'land') expect(index.provinces.has(a.province ?? ''), a.id).toBe(true);
      else expect(a.province, a.id).toBeNull();
    }
  });

  it('has the intended scale: 180-270 land areas and 25-45 sea areas', () => {
    expect(index.landAreas.length).toBeGreaterThanOrEqual(180);
    expect(index.landAreas.length).toBeLessThanOrEqual(270);
    expect(index.seaAreas.length).toBeGreaterThanOrEqual(25);
    expect(index.seaAreas.length).toBeLessThanOrEqual(45);
  });
});

describe('edges', () => {
  it('name existing areas, in sorted order, with no duplicates or self-loops', () => {
    const seen = new Set<string>();
    for (const e of map.edges) {
      expect(index.areas.has(e.a), e.a).toBe(true);
      expect(index.areas.has(e.b), e.b).toBe(true);
      expect(e.a < e.b, `${e.a}|${e.b}`).toBe(true);
      const key = `${e.a}|${e.b}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('have kinds that match the kinds of their areas', () => {
    for (const e of map.edges) {
      const kinds = [kindOf(e.a), kindOf(e.b)].sort().join('+');
      const expected = {
        land: 'land+land',
        coast: 'land+sea',
        sea: 'sea+sea',
        redArrow: 'land+land',
        whiteArrow: 'sea+sea',
      };
      expect(kinds, `${e.a}|${e.b}`).toBe(expected[e.kind]);
      expect(e.redArrow, `${e.a}|${e.b}`).toBe(e.kind === 'redArrow');
      expect(e.whiteArrow, `${e.a}|${e.b}`).toBe(e.kind === 'whiteArrow');
    }
  });

  it('carry rivers, mountains and shorelines only on land borders, and roads only over land', () => {
    for (const e of map.edges) {
      if (e.kind !== 'land') {
        expect(e.river || e.mountain || e.shoreline, `${e.a}|${e.b}`).toBe(false);
      }
      if (e.road) expect(['land', 'redArrow']).toContain(e.kind);
    }
  });

  it('mark the imperial boundary exactly where inside meets outside (2.1)', () => {
    for (const e of map.edges) {
      const crosses = e.kind === 'land' && index.area(e.a).insideEmpire !== index.area(e.b).insideEmpire;
      expect(e.imperialBoundary, `${e.a}|${e.b}`).toBe(crosses);
    }
  });

  it('mark province boundaries exactly between land areas of different provinces (2.1)', () => {
    for (const e of map.edges) {
      const differ = e.kind === 'land' && index.area(e.a).province !== index.area(e.b).province;
      expect(e.provinceBoundary, `${e.a}|${e.b}`).toBe(differ);
      if (e.imperialBoundary) expect(e.provinceBoundary, `${e.a}|${e.b}`).toBe(true);
    }
  });

  it('are symmetric through the index', () => {
    for (const id of index.areas.keys()) {
      for (const n of index.neighbours(id)) expect(index.neighbours(n)).toContain(id);
    }
    expect(EDGE_KINDS.every((k) => map.edges.some((e) => e.kind === k))).toBe(true);
  });
});

describe('coasts', () => {
  it('a land area is coastal exactly when it touches a sea, and its coasts partition those seas', () => {
    for (const a of map.areas.filter((x) => x.kind === 'land')) {
      const seas = index.neighbours(a.id, ['coast']);
      expect(a.coastal, a.id).toBe(seas.length > 0);
      const fromCoasts = a.coasts.flatMap((c) => c.seas);
      expect([...fromCoasts].sort(), a.id).toEqual([...seas].sort());
      expect(new Set(fromCoasts).size, a.id).toBe(fromCoasts.length);
    }
  });

  it('a shoreline border joins two coastal areas that share a sea (5.2)', () => {
    for (const e of map.edges.filter((x) => x.shoreline)) {
      const seasA = index.seaNeighbours(e.a);
      expect(
        seasA.some((s) => index.seaNeighbours(e.b).includes(s)),
        `${e.a}|${e.b}`,
      ).toBe(true);
    }
  });

  it('sea areas have no coasts, province, city or land-only marks', () => {
    for (const a of map.areas.filter((x) => x.kind === 'sea')) {
      expect(a.coasts, a.id).toEqual([]);
      expect(a.city ?? a.startPosition, a.id).toBeNull();
      expect(a.desert || a.garrisonSymbol || a.aMarked || a.insideEmpire, a.id).toBe(false);
    }
  });
});

describe('connectivity', () => {
  it('land splits only into the mainland and the islands (red arrows join Sicily)', () => {
    const comps = components(index.landAreas, index.landNeighbours);
    const named = comps.map((c) =>
      c.includes('rome') ? 'mainland' : c.includes('raumarici') ? 'scandinavia' : c.join(','),
    );
    expect(named.sort()).toEqual(
      [
        'mainland',
        'scandinavia',
        'baleares',
        'corsica',
        'creta',
        'cyprus',
        'dani',
        'sardinia',
        // Britain (with Caledonia) and Ireland
        comps.find((c) => c.includes('londinium'))?.join(',') ?? 'britain missing',
        comps.find((c) => c.includes('eblani'))?.join(',') ?? 'ireland missing',
      ].sort(),
    );
    expect(comps.find((c) => c.includes('rome'))).toContain('syracuse');
    expect(comps.find((c) => c.includes('londinium'))).toContain('caledonii');
  });

  it('every sea area is reachable by ship from every other, except the landlocked Caspian', () => {
    const seas = index.seaAreas.filter((s) => s !== 'mare-caspium');
    const reached = distances('mare-tyrrhenum', (id) => index.seaNeighbours(id));
    for (const s of seas) expect(reached.has(s), s).toBe(true);
    expect(reached.has('mare-caspium')).toBe(false);
  });

  it('every land area touches something, every sea area touches land', () => {
    for (const a of map.areas) expect(index.neighbours(a.id).length, a.id).toBeGreaterThan(0);
    for (const s of index.seaAreas) expect(index.neighbours(s, ['coast']).length, s).toBeGreaterThan(0);
  });
});

describe('MapIndex', () => {
  it('looks areas and edges up both ways and lists neighbours by kind', () => {
    const e = index.edge('nicaea', 'byzantium');
    expect(e?.kind).toBe('redArrow');
    expect(index.edge('byzantium', 'nicaea')).toBe(e);
    expect(index.landNeighbours('byzantium')).toContain('nicaea');
    expect(index.neighbours('byzantium', ['land'])).not.toContain('nicaea');
    expect(index.seaNeighbours('byzantium')).toContain('propontis');
    expect(() => index.area('atlantis')).toThrow();
    expect(index.coastOf('athens', 'mare-aegaeum')).not.toBe(index.coastOf('athens', 'sinus-corinthiacus'));
    expect(index.coastOf('athens', 'mare-aegaeum')).toMatch(/^athens-coast-\d$/);
    expect(index.coastOf('athens', 'mare-caspium')).toBeUndefined();
    expect(index.shoreNeighbours('athens')).toContain('corinth');
    for (const n of index.shoreNeighbours('byzantium')) expect(index.area(n).coastal, n).toBe(true);
  });

  it('precomputes the lists', () => {
    expect(index.cities.length).toBe(map.areas.filter((a) => a.city).length);
    expect(index.coastalAreas).toContain('athens');
    expect(index.provinceAreas('italia')).toContain('rome');
    expect(index.startAreas.get('HUN')).toEqual(['alani']);
    expect(index.startAreas.get('PERSIAN')).toEqual(index.provinceAreas('persia'));
    expect(index.seaCrossings.get('VIKING')?.length).toBe(3);
  });
});
