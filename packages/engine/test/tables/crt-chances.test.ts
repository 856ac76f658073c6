/** 7.1, C.1: the chance of each combat result on a column, read from the table the engine rolls on. */
import { describe, expect, it } from 'vitest';
import { CRT, CRT_ROLLS, crtChances, crtColumnIndex, crtResult } from '../../src/tables/crt.ts';

describe('combat result chances (7.1)', () => {
  it('every column’s chances add up to one and agree with the table cell by cell', () => {
    for (const col of CRT.columns) {
      const chances = crtChances(CRT, col.id);
      expect(chances.reduce((s, c) => s + c.chance, 0)).toBeCloseTo(1, 12);
      // Re-derived by rolling every pair of dice on the table.
      const ways = new Map<string, number>();
      for (let a = 1; a <= 6; a++)
        for (let b = 1; b <= 6; b++) {
          const r = crtResult(CRT, crtColumnIndex(CRT, col.id), a + b);
          ways.set(r, (ways.get(r) ?? 0) + 1);
        }
      expect(Object.fromEntries(chances.map((c) => [c.result, c.chance * 36]))).toEqual(
        Object.fromEntries(ways),
      );
    }
  });

  it('7.1 worked example: at 3-2 a DR1 comes only on a 9, four ways in 36', () => {
    const index = crtColumnIndex(CRT, '3-2');
    expect(CRT_ROLLS.filter((r) => crtResult(CRT, index, r) === 'DR1')).toEqual([9]);
    expect(crtChances(CRT, '3-2').find((c) => c.result === 'DR1')?.chance).toBe(4 / 36);
  });

  it('AMBIG-3: odds below the table under autoAE are a certain attacker elimination', () => {
    expect(crtChances(CRT, 'autoAE')).toEqual([{ result: 'AE', chance: 1 }]);
  });
});
