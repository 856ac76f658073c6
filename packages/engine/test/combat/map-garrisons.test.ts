import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import { asAreaId } from '../../src/model/ids.ts';
import { indexMap } from '../../src/model/map-index.ts';
import { DEFAULT_OPTIONS } from '../../src/model/options.ts';
import { neutralGarrisonStrengthAt } from '../../src/model/queries.ts';

// D-26 Neutral garrison strengths — BOOK (14.1, 2.3, 14.2.6), on the shipped map.
describe('D-26 on the shipped map (14.1)', () => {
  const map = indexMap(loadMap());
  const withOptionalCities = { ...DEFAULT_OPTIONS, opt: { ...DEFAULT_OPTIONS.opt, optionalCities: true } };
  const strength = (id: string, options = DEFAULT_OPTIONS) =>
    neutralGarrisonStrengthAt({ map, options }, asAreaId(id));

  it('Rome, Antioch, Damascus and Alexandria 3; Byzantium 4', () => {
    expect(['rome', 'antioch', 'damascus', 'alexandria', 'byzantium'].map((id) => strength(id))).toEqual([
      3, 3, 3, 3, 4,
    ]);
  });

  it('every value-1 city 2; every city between 2 and the cap, Byzantium excepted (AMBIG-5)', () => {
    for (const id of map.cityAreas) {
      const city = map.area(id)?.city;
      if (!city || city.optional) continue;
      const s = strength(id);
      if (city.tax === 1) expect(s).toBe(2);
      if (id !== 'byzantium') expect(s).toBeGreaterThanOrEqual(2);
      if (id !== 'byzantium') expect(s).toBeLessThanOrEqual(3);
    }
  });

  it('optional cities (13.2.3) 2 when in play; garrison-symbol areas without a city 2', () => {
    const optional = map.cityAreas.filter((id) => map.area(id)?.city?.optional);
    expect(optional.length).toBeGreaterThan(0);
    for (const id of optional) expect(strength(id, withOptionalCities)).toBe(2);
    const bare = map.areaIds.filter((id) => map.area(id)?.garrisonSymbol && !map.area(id)?.city);
    expect(bare.length).toBeGreaterThan(0);
    for (const id of bare) expect(strength(id)).toBe(2);
  });
});
