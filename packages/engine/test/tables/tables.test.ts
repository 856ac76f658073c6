import { describe, expect, it } from 'vitest';
import { COMBAT_RESULTS } from '../../src/model/combat.ts';
import { UNIT_PROFILES } from '../../src/model/units.ts';
import administrationJson from '../../src/tables/administration.json';
import {
  ADMINISTRATION_TABLE,
  administrationResult,
  parseAdministrationTable,
} from '../../src/tables/administration-table.ts';
import creationJson from '../../src/tables/creation.json';
import {
  CREATION_PEOPLES,
  CREATION_TABLE,
  creationResult,
  parseCreationTable,
  peopleOfStartPosition,
} from '../../src/tables/creation.ts';
import crtJson from '../../src/tables/crt.json';
import { CRT, CRT_ROLLS, crtColumnIndex, crtResult, parseCrt } from '../../src/tables/crt.ts';

const rank = (r: string) => COMBAT_RESULTS.indexOf(r as (typeof COMBAT_RESULTS)[number]);

describe('combat results table (C.1)', () => {
  it('has provenance naming its source', () => {
    expect(CRT.provenance.source).toMatch(/C\.1/);
    expect(CRT.provenance.fixedByBook.length).toBeGreaterThan(0);
  });

  it('keeps the cell the book fixes: 3-2, roll 9 = DR1 (7.1)', () => {
    expect(crtResult(CRT, crtColumnIndex(CRT, '3-2'), 9)).toBe('DR1');
  });

  it('has the columns the text names, 3-2, 2-1 and 5-2 adjacent (7.1, 10.2)', () => {
    const ids = CRT.columns.map((c) => c.id);
    for (const id of ['1-1', '3-2', '2-1', '5-2', '4-1']) expect(ids).toContain(id);
    expect(crtColumnIndex(CRT, '2-1')).toBe(crtColumnIndex(CRT, '3-2') + 1);
    expect(crtColumnIndex(CRT, '5-2')).toBe(crtColumnIndex(CRT, '2-1') + 1);
    expect(CRT.columns[0]!.attack).toBeLessThan(CRT.columns[0]!.defence); // odds below 1-1 exist (C.1.a 4)
  });

  it('gets no worse for the attacker as the roll rises (C.1.b)', () => {
    CRT.columns.forEach((_, col) => {
      for (const roll of CRT_ROLLS.slice(1)) {
        expect(rank(crtResult(CRT, col, roll))).toBeGreaterThanOrEqual(rank(crtResult(CRT, col, roll - 1)));
      }
    });
  });

  it('gets no worse for the attacker as the odds rise (C.1.b)', () => {
    for (const roll of CRT_ROLLS) {
      for (let col = 1; col < CRT.columns.length; col++) {
        expect(rank(crtResult(CRT, col, roll))).toBeGreaterThanOrEqual(rank(crtResult(CRT, col - 1, roll)));
      }
    }
  });

  it('matches the chances out of 36 listed with the reconstruction (C.1.b)', () => {
    const ways = (roll: number) => 6 - Math.abs(roll - 7);
    const listed: Record<string, [number, number, number]> = {
      '1-3': [1, 2, 33],
      '1-2': [3, 3, 30],
      '1-1': [10, 5, 21],
      '3-2': [10, 11, 15],
      '2-1': [15, 11, 10],
      '5-2': [21, 9, 6],
      '3-1': [26, 7, 3],
      '4-1': [30, 5, 1],
      '5-1': [33, 3, 0],
      '6-1': [35, 1, 0],
    };
    CRT.columns.forEach((column, index) => {
      const counts: [number, number, number] = [0, 0, 0];
      for (const roll of CRT_ROLLS) {
        const r = crtResult(CRT, index, roll);
        counts[r.startsWith('D') ? 0 : r === 'EX' ? 1 : 2] += ways(roll);
      }
      expect(counts).toEqual(listed[column.id]);
    });
  });

  it('rejects a malformed replacement table', () => {
    const broken = structuredClone(crtJson) as { results: Record<string, string[]> };
    broken.results['7'] = ['AE'];
    expect(parseCrt(broken).ok).toBe(false);
    const swapped = structuredClone(crtJson) as { columns: unknown[] };
    swapped.columns.reverse();
    expect(parseCrt(swapped).ok).toBe(false);
    expect(parseCrt(crtJson).ok).toBe(true);
  });
});

describe('barbarian unit creation table (C.2)', () => {
  it('has provenance and a six-entry row for every people (9.1)', () => {
    expect(CREATION_TABLE.provenance.source).toMatch(/C\.2/);
    for (const people of CREATION_PEOPLES) expect(CREATION_TABLE.rows[people]).toHaveLength(6);
  });

  it('reads a row by start position (SLAV 2 → SLAV)', () => {
    expect(peopleOfStartPosition('SLAV 2')).toBe('SLAV');
    expect(peopleOfStartPosition('PERSIAN')).toBeNull();
    expect(creationResult(CREATION_TABLE, 'GERMAN', 6)).toEqual(['barbarianInfantry', 'bow']);
    expect(() => creationResult(CREATION_TABLE, 'PERSIAN', 1)).toThrow();
  });

  it('gives only barbarian units, and ships only to seafaring peoples (C.2.a 3, C.2.b)', () => {
    for (const people of CREATION_PEOPLES) {
      const ships = CREATION_TABLE.rows[people].flat().includes('ship');
      expect(ships).toBe(['VIKING', 'PICT', 'ARAB'].includes(people));
    }
  });

  it('rejects a result that could not stack in one area (6)', () => {
    const broken = structuredClone(creationJson) as { rows: Record<string, string[][]> };
    broken.rows.GERMAN![0] = ['barbarianInfantry', 'infantry'];
    expect(parseCreationTable(broken).ok).toBe(false);
    broken.rows.GERMAN![0] = ['elite'];
    expect(parseCreationTable(broken).ok).toBe(false);
  });

  it('averages more strength than the two tribes it replaces (C.2.b notes)', () => {
    for (const people of CREATION_PEOPLES) {
      const total = CREATION_TABLE.rows[people].flat().reduce((s, k) => s + UNIT_PROFILES[k].strength, 0);
      expect(total / 6).toBeGreaterThan(2);
    }
  });
});

describe('administration table (C.4)', () => {
  const T = ADMINISTRATION_TABLE;
  it('keeps the cell the book fixes: 20 %, roll 6 = 7 (10.6.2)', () => {
    expect(T.provenance.source).toMatch(/C\.4/);
    expect(administrationResult(T, 20, 6)).toBe(7);
  });

  it('never gives a number below 3, and gives 3 on the 0 % column (C.4.a 5)', () => {
    const numbers = Object.values(T.results)
      .flat()
      .filter((c): c is number => typeof c === 'number');
    expect(Math.min(...numbers)).toBe(3);
    expect(T.results['5']![0]).toBe(3);
    expect(numbers).toContain(4);
    expect(numbers).toContain(6);
  });

  it('rises along every row as spending rises (C.4.a 9)', () => {
    const value = (c: string | number) =>
      typeof c === 'number'
        ? c
        : ({ rebellion: -2, corruption: -1, goodRuler: 100, revival: 200 } as const)[c as 'rebellion'];
    for (let roll = 2; roll <= 12; roll++) {
      const row = T.results[String(roll)]!;
      for (let col = 1; col < row.length; col++)
        expect(value(row[col]!)).toBeGreaterThanOrEqual(value(row[col - 1]!));
    }
  });

  it('clamps spending beyond the top column and below 0 % (AMBIG-11)', () => {
    expect(administrationResult(T, 90, 7)).toBe(administrationResult(T, 60, 7));
    expect(administrationResult(T, -10, 7)).toBe(administrationResult(T, 0, 7));
    expect(administrationResult(T, 0, 2)).toBe('rebellion');
    expect(administrationResult(T, 60, 12)).toBe('revival');
  });

  it('rejects columns that are not 10 % steps from 0 %', () => {
    const broken = structuredClone(administrationJson) as { columns: number[] };
    broken.columns[1] = 20;
    expect(parseAdministrationTable(broken).ok).toBe(false);
  });
});
