import { describe, expect, it } from 'vitest';
import {
  attackHalfPoints,
  type ColumnShifts,
  defenceHalfPoints,
  isHalved,
  NO_SHIFTS,
  oddsColumn,
  rawOddsColumn,
} from '../../src/combat/odds.ts';
import { CRT, crtColumnIndex, crtResult } from '../../src/tables/crt.ts';

const open = { mountain: false, river: false, redArrow: false };
const mountain = { ...open, mountain: true };
const column = (attackHalf: number, defenceHalf: number, shifts: ColumnShifts = NO_SHIFTS) => {
  const odds = oddsColumn(CRT, attackHalf, defenceHalf, shifts, 'useLowest');
  return odds.kind === 'column' ? odds.id : odds.kind;
};

describe('D-1 combat odds, halving and CRT lookup — BOOK (7.1)', () => {
  const attack = attackHalfPoints([
    { strength: 3, halved: isHalved(false, open) }, // 3-3 barbarian infantry
    { strength: 3, halved: isHalved(false, mountain) }, // 3-4 horse across a mountain
    { strength: 2, halved: isHalved(false, mountain) }, // 2-3 bow across the same mountain
    { strength: 2, halved: isHalved(false, open) }, // second 2-3 bow
  ]);
  const defence = defenceHalfPoints([4]);

  it('attack is 7½ (15 half-points) against 4', () => {
    expect(attack).toBe(15);
    expect(defence).toBe(8);
  });

  it('1.875 falls to 3-2, and 9 on 3-2 is DR1', () => {
    expect(column(attack, defence)).toBe('3-2');
    expect(crtResult(CRT, crtColumnIndex(CRT, '3-2'), 5 + 4)).toBe('DR1');
  });

  it('ratio 2.0 → 2-1, 1.999 → 3-2, 1.5 → 3-2, 1.49 → 1-1 (DERIVED)', () => {
    expect(column(16, 8)).toBe('2-1');
    expect(column(1999, 1000)).toBe('3-2');
    expect(column(12, 8)).toBe('3-2');
    expect(column(149, 100)).toBe('1-1');
  });
});

describe('halving (7.1)', () => {
  it('halves non-ship units across a river, along a red arrow or in a landing; never ships', () => {
    expect(isHalved(false, { ...open, river: true })).toBe(true);
    expect(isHalved(false, { ...open, redArrow: true })).toBe(true);
    expect(isHalved(false, { ...open, navalLanding: true })).toBe(true);
    expect(isHalved(false, open)).toBe(false);
    expect(isHalved(true, { mountain: true, river: true, redArrow: true, navalLanding: true })).toBe(false);
  });

  it('keeps halves exact: 3 halved + 3 halved = 3, not 2', () => {
    expect(
      attackHalfPoints([
        { strength: 3, halved: true },
        { strength: 3, halved: true },
      ]),
    ).toBe(6);
  });
});

// D-2 and D-15 are data: golden/odds.json (run by golden.test.ts).
describe('optional leaders (13.6)', () => {
  it('a great general shifts two columns: 2-1 → 3-1', () => {
    expect(column(16, 8, { ...NO_SHIFTS, attackerLeader: 2 })).toBe('3-1');
  });
});

describe('odds off the table (AMBIG-3)', () => {
  it('uses the top column above 6-1, also after a defender shift from a clamped raw', () => {
    expect(column(100, 2)).toBe('6-1');
    expect(column(100, 2, { ...NO_SHIFTS, defenderLeader: 1 })).toBe('5-1');
  });

  it('useLowest: 1-4 is fought on 1-3; a +1 shift from there gives 1-2', () => {
    expect(rawOddsColumn(CRT, 2, 8)).toEqual({ kind: 'belowTable' });
    expect(column(2, 8)).toBe('1-3');
    expect(column(2, 8, { ...NO_SHIFTS, attackerLeader: 1 })).toBe('1-2');
  });

  it('autoAE: below the table is an automatic AE unless a shift lifts it back on', () => {
    expect(oddsColumn(CRT, 2, 8, NO_SHIFTS, 'autoAE').kind).toBe('autoAE');
    const lifted = oddsColumn(CRT, 2, 8, { ...NO_SHIFTS, attackerLeader: 1 }, 'autoAE');
    expect(lifted.kind === 'column' && lifted.id).toBe('1-3');
    expect(oddsColumn(CRT, 2, 6, { ...NO_SHIFTS, fortified: true }, 'autoAE').kind).toBe('autoAE');
  });

  it('forbidVoluntary: a voluntary attack below the table is not allowed; a compulsory one uses 1-3', () => {
    expect(oddsColumn(CRT, 2, 8, NO_SHIFTS, 'forbidVoluntary').kind).toBe('forbidden');
    const landing = oddsColumn(CRT, 2, 8, NO_SHIFTS, 'forbidVoluntary', true);
    expect(landing.kind === 'column' && landing.id).toBe('1-3');
  });

  it('exact boundaries by cross-multiplication: 1-3 exactly is on the table', () => {
    expect(column(2, 6)).toBe('1-3');
    expect(column(3, 6)).toBe('1-2');
  });
});
