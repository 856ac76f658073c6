/**
 * Every map fact of the rules reference, C.8.a (and D-23, D-26), checked on the compiled map.
 * Section numbers in the test names cite where the book states the fact.
 */
import { describe, expect, it } from 'vitest';
import { type Area, indexMap, loadMap } from '../src/index.ts';
import { distances } from './helpers.ts';

const map = loadMap();
const index = indexMap(map);
const land = map.areas.filter((a) => a.kind === 'land');
const halfOf = (a: Area) => index.provinces.get(a.province ?? '')?.half ?? null;
const cityArea = (name: string) => {
  const found = map.areas.filter((a) => a.city?.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as Area;
};
const sum = (areas: readonly Area[]) => areas.reduce((s, a) => s + (a.city?.tax ?? 0), 0);

describe('provinces (C.8, 14.2.2)', () => {
  it("has the 21 named provinces with the book's east/west split; the rest lie outside", () => {
    const west = ['britannia', 'gaul', 'hispania', 'mauretania', 'africa', 'rhaetia', 'italia'];
    const east = [
      'illyricum',
      'macedonia',
      'achaia',
      'thrace',
      'asia',
      'cappadocia',
      'syria',
      'aegyptus',
      'cyrenaica',
    ];
    const outside = ['armenia', 'mesopotamia', 'persia', 'scythia', 'germania'];
    for (const p of west) expect(index.provinces.get(p)?.half, p).toBe('west');
    for (const p of east) expect(index.provinces.get(p)?.half, p).toBe('east');
    for (const p of outside) expect(index.provinces.get(p)?.half, p).toBeNull();
    const halved = map.provinces.filter((p) => p.half !== null).map((p) => p.id);
    expect(halved.sort()).toEqual([...west, ...east].sort());
  });

  it('every land area is inside the empire exactly when its province has a half', () => {
    for (const a of land) expect(a.insideEmpire, a.id).toBe(halfOf(a) !== null);
    for (const p of map.provinces) expect(index.provinceAreas(p.id).length, p.id).toBeGreaterThan(0);
  });
});

describe('cities and tax values (D-23, 14.2.1-14.2.3)', () => {
  const fixed = land.filter((a) => a.city && !a.city.optional);
  it('non-optional city values total 64: 32 west and 32 east', () => {
    expect(sum(fixed)).toBe(64);
    expect(sum(fixed.filter((a) => halfOf(a) === 'west'))).toBe(32);
    expect(sum(fixed.filter((a) => halfOf(a) === 'east'))).toBe(32);
  });

  it('all non-optional cities lie inside the imperial boundary (2.1, 11.5)', () => {
    for (const a of fixed) expect(a.insideEmpire, a.id).toBe(true);
  });

  it('the six optional cities are worth 1 each, lie outside, in the provinces 13.2.3 names', () => {
    const optional = land.filter((a) => a.city?.optional);
    const where = Object.fromEntries(optional.map((a) => [a.city?.name, a.province]));
    expect(where).toEqual({
      Ecbatana: 'persia',
      Susa: 'persia',
      Seleucia: 'mesopotamia',
      Ctesiphon: 'mesopotamia',
      Artaxata: 'armenia',
      Cherson: 'scythia',
    });
    for (const a of optional) {
      expect(a.city?.tax, a.id).toBe(1);
      expect(a.city?.neutralStrength, a.id).toBe(2);
      expect(a.insideEmpire, a.id).toBe(false);
    }
  });

  it('neutral garrisons: Rome, Antioch, Damascus, Alexandria 3, Byzantium 4, others max(2, tax) (D-26, 14.1)', () => {
    const stated: Record<string, number> = { Rome: 3, Antioch: 3, Damascus: 3, Alexandria: 3, Byzantium: 4 };
    for (const [name, strength] of Object.entries(stated)) {
      expect(cityArea(name).city?.neutralStrength, name).toBe(strength);
    }
    for (const a of fixed.filter((x) => !((x.city?.name ?? '') in stated))) {
      expect(a.city?.neutralStrength, a.id).toBe(Math.max(2, a.city?.tax ?? 0));
      // only the five stated cities defend with more than 2 (AMBIG-5)
      expect(a.city?.neutralStrength, a.id).toBe(2);
    }
    expect(cityArea('Athens').city?.tax).toBeLessThanOrEqual(2);
  });

  it('the cities the book names are where it puts them', () => {
    const expected: [string, string, boolean?][] = [
      ['Rome', 'italia'],
      ['Syracuse', 'italia', true],
      ['Lutetia', 'gaul'],
      ['Salonae', 'illyricum'],
      ['Byzantium', 'thrace', true],
      ['Antioch', 'syria'],
      ['Damascus', 'syria'],
      ['Alexandria', 'aegyptus', true],
      ['Cyrene', 'cyrenaica'],
      ['Dyrrachium', 'macedonia', true],
      ['Thessalonika', 'macedonia'],
      ['Athens', 'achaia', true],
      ['Carthage', 'africa'],
      ['Jerusalem', 'syria'],
      ['Nicaea', 'asia'],
      ['Serdica', 'macedonia'],
    ];
    for (const [name, province, coastal] of expected) {
      const a = cityArea(name);
      expect(a.province, name).toBe(province);
      if (coastal) expect(a.coastal, name).toBe(true);
    }
    expect(index.seaNeighbours(cityArea('Dyrrachium').id)).toContain('mare-adriaticum');
  });

  it('an area north of Dyrrachium is also in Macedonia (14.2.3)', () => {
    const dyr = cityArea('Dyrrachium');
    const north = index
      .neighbours(dyr.id, ['land'])
      .map((id) => index.area(id))
      .filter((a) => a.label[1] < dyr.label[1] && a.province === 'macedonia');
    expect(north.length).toBeGreaterThan(0);
  });

  it('the Alexander (18) and solitaire (50) tax targets are reachable', () => {
    const macedonian = ['macedonia', 'thrace', 'achaia'];
    expect(sum(fixed.filter((a) => macedonian.includes(a.province ?? '')))).toBeLessThan(18);
    expect(sum(fixed)).toBeGreaterThanOrEqual(50);
  });
});

describe('garrison set-up symbols (14.2.1, 14.2.3, 14.3)', () => {
  const symbols = land.filter((a) => a.garrisonSymbol);
  it('there are 18: 9 in eastern provinces and 9 in western', () => {
    expect(symbols).toHaveLength(18);
    expect(symbols.filter((a) => halfOf(a) === 'east')).toHaveLength(9);
    expect(symbols.filter((a) => halfOf(a) === 'west')).toHaveLength(9);
  });

  it('each is next to a city, so its garrison is not removed at the first administration phase (14.3)', () => {
    for (const a of symbols) {
      const cities = index
        .neighbours(a.id, ['land'])
        .map((id) => index.area(id))
        .filter((n) => n.city && !n.city.optional && n.insideEmpire);
      expect(cities.length, a.id).toBeGreaterThan(0);
    }
  });

  it('each lies just inside the imperial boundary, on a non-desert area without a city', () => {
    for (const a of symbols) {
      expect(a.insideEmpire, a.id).toBe(true);
      expect(
        index.edgesOf(a.id).some((e) => e.imperialBoundary),
        a.id,
      ).toBe(true);
      expect(a.city, a.id).toBeNull();
      expect(a.desert, a.id).toBe(false);
    }
  });
});

describe('geography (2.1, C.8)', () => {
  it('Norway and Sweden are joined to no other land, not even by a red arrow (14.2.8)', () => {
    const scandinavia = new Set(index.provinceAreas('scandinavia'));
    const reach = distances('raumarici', index.landNeighbours);
    for (const id of reach.keys()) expect(scandinavia.has(id), id).toBe(true);
    expect(reach.has('suiones')).toBe(true);
    expect(reach.has('dani')).toBe(false);
  });

  it('Scandinavia has usable areas on the north edge of the board (2.1)', () => {
    expect(index.provinceAreas('scandinavia').some((id) => index.area(id).boardEdges.includes('north'))).toBe(
      true,
    );
  });

  it('the Caspian is a sea area on the east edge, with an entry edge north of it (C.8, 14.2.8)', () => {
    const caspian = index.area('mare-caspium');
    expect(caspian.kind).toBe('sea');
    expect(caspian.boardEdges).toContain('east');
    const north = land.filter((a) => a.boardEdges.includes('east') && a.label[1] < caspian.label[1]);
    expect(north.length).toBeGreaterThan(0);
  });

  it('the Balearic Islands are one area of Hispania, an island', () => {
    const bal = land.filter((a) => a.name.includes('Baleares'));
    expect(bal).toHaveLength(1);
    expect(bal[0]?.province).toBe('hispania');
    expect(index.landNeighbours(bal[0]?.id ?? '')).toEqual([]);
    expect(bal[0]?.path.split('M').length).toBeGreaterThanOrEqual(4);
  });

  it('Athens has two coasts, each on different seas (5.2)', () => {
    const athens = cityArea('Athens');
    expect(athens.coasts).toHaveLength(2);
    const [c1, c2] = athens.coasts;
    expect(c1?.seas.some((s) => c2?.seas.includes(s))).toBe(false);
  });

  it('Byzantium and Nicaea are joined by a red arrow carrying the road (5.1, AMBIG-49)', () => {
    const e = index.edge(cityArea('Byzantium').id, cityArea('Nicaea').id);
    expect(e?.kind).toBe('redArrow');
    expect(e?.road).toBe(true);
  });

  it('deserts lie where the desert rules bite: the Sahara fringe, Egypt, Syria, Mesopotamia, Arabia', () => {
    for (const p of [
      'mauretania',
      'africa',
      'cyrenaica',
      'aegyptus',
      'syria',
      'mesopotamia',
      'arabia',
      'libya',
    ]) {
      expect(
        index.provinceAreas(p).some((id) => index.area(id).desert),
        p,
      ).toBe(true);
    }
    for (const id of index.provinceAreas('arabia')) expect(index.area(id).desert, id).toBe(true);
    for (const a of land.filter((x) => x.city && !x.city.optional)) expect(a.desert, a.id).toBe(false);
  });

  it("roads join every mainland city and garrison symbol to Rome, and Britain's to Londinium", () => {
    const byRoad = (id: string) =>
      index.neighbours(id, ['land', 'redArrow']).filter((n) => index.edge(id, n)?.road);
    const fromRome = distances('rome', byRoad);
    const fromLondinium = distances('londinium', byRoad);
    const mainland = distances('rome', (id) => index.neighbours(id, ['land']));
    for (const a of land.filter((x) => (x.city && !x.city.optional) || x.garrisonSymbol)) {
      if (mainland.has(a.id)) expect(fromRome.has(a.id), a.id).toBe(true);
      else if (a.province === 'britannia') expect(fromLondinium.has(a.id), a.id).toBe(true);
    }
  });

  it('rivers and mountains the book implies are on borders, and there are roads', () => {
    const edges = map.edges;
    expect(edges.filter((e) => e.river).length).toBeGreaterThan(20);
    expect(edges.filter((e) => e.mountain).length).toBeGreaterThan(15);
    expect(edges.filter((e) => e.road).length).toBeGreaterThan(60);
    // the Danube and the Rhine frontier: most of the imperial boundary in Europe follows rivers
    expect(index.edge('carnuntum', 'quadi')?.river).toBe(true);
    expect(index.edge('colonia', 'bructeri')?.river ?? index.edge('colonia', 'chatti')?.river).toBe(true);
  });
});

describe('start positions and optional marks (2.1, 13.1, 13.2)', () => {
  it('each start label appears on exactly one area; base positions lie outside the empire', () => {
    const base = ['SLAV 1', 'SLAV 2', 'HUN', 'GERMAN 1', 'GERMAN 2', 'TURK', 'VIKING', 'PICT'] as const;
    for (const s of [...base, 'ARAB', 'AFRICAN', 'PERSIAN'] as const) {
      expect(
        land.filter((a) => a.startPosition === s),
        s,
      ).toHaveLength(1);
    }
    for (const s of base) expect(index.area(index.startLabels.get(s) ?? '').insideEmpire, s).toBe(false);
    expect(index.area(index.startLabels.get('VIKING') ?? '').province).toBe('scandinavia');
    expect(index.area(index.startLabels.get('PICT') ?? '').province).toBe('caledonia');
    expect(index.area(index.startLabels.get('GERMAN 1') ?? '').province).toBe('germania');
    expect(index.area(index.startLabels.get('PERSIAN') ?? '').province).toBe('persia');
  });

  it('"A" areas: at least two in Mauretania (African), and in both Mesopotamia and Syria (Arab)', () => {
    const a = (p: string) => index.provinceAreas(p).filter((id) => index.area(id).aMarked);
    expect(a('mauretania').length).toBeGreaterThanOrEqual(2);
    expect(a('mesopotamia').length).toBeGreaterThanOrEqual(1);
    expect(a('syria').length).toBeGreaterThanOrEqual(1);
    expect(index.startAreas.get('ARAB')?.length).toBeGreaterThanOrEqual(2);
    expect(index.area(index.startLabels.get('ARAB') ?? '').aMarked).toBe(true);
    expect(index.area(index.startLabels.get('AFRICAN') ?? '').aMarked).toBe(true);
  });

  it('tribal sea crossings: VIKING 3, PICT 1 (AMBIG-25), ARAB 1, each touching home and a far shore', () => {
    const home: Record<string, string[]> = {
      VIKING: ['scandinavia'],
      PICT: ['caledonia'],
      ARAB: ['arabia', 'syria', 'mesopotamia'],
    };
    expect(index.seaCrossings.get('VIKING')).toHaveLength(3);
    expect(index.seaCrossings.get('PICT')).toHaveLength(1);
    expect(index.seaCrossings.get('ARAB')).toHaveLength(1);
    for (const [people, seas] of index.seaCrossings) {
      for (const sea of seas) {
        const shores = index.neighbours(sea, ['coast']).map((id) => index.area(id).province ?? '');
        expect(
          shores.some((p) => home[people]?.includes(p)),
          `${people} ${sea}`,
        ).toBe(true);
        expect(
          shores.some((p) => !home[people]?.includes(p)),
          `${people} ${sea}`,
        ).toBe(true);
      }
    }
  });
});
