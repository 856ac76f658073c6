import { describe, expect, it } from 'vitest';
import { neutralGarrisonReappears, neutralGarrisonStrength } from '../../src/combat/neutral.ts';

// D-26 Neutral garrison strengths — BOOK (14.1, 2.3, 14.2.6). The five named cities carry their
// strength explicitly in the map data (AMBIG-5); every other city is max(2, tax) capped at 3.
const D26: readonly {
  city: string;
  input: Parameters<typeof neutralGarrisonStrength>[0];
  expected: number;
}[] = [
  { city: 'Rome', input: { tax: 5, neutralStrength: 3 }, expected: 3 },
  { city: 'Antioch', input: { tax: 3, neutralStrength: 3 }, expected: 3 },
  { city: 'Damascus', input: { tax: 2, neutralStrength: 3 }, expected: 3 },
  { city: 'Alexandria', input: { tax: 4, neutralStrength: 3 }, expected: 3 },
  { city: 'Byzantium', input: { tax: 5, neutralStrength: 4 }, expected: 4 },
  { city: 'any value-1 city', input: { tax: 1 }, expected: 2 },
  { city: 'optional city (value 1)', input: { tax: 1 }, expected: 2 },
  { city: 'non-city garrison-symbol area', input: null, expected: 2 },
];

describe('D-26 neutral garrison strengths (14.1)', () => {
  for (const c of D26) {
    it(`${c.city} → ${c.expected}`, () => expect(neutralGarrisonStrength(c.input)).toBe(c.expected));
  }

  it('caps other cities at the cap (AMBIG-5, neutralStrengthCap)', () => {
    expect(neutralGarrisonStrength({ tax: 5 })).toBe(3);
    expect(neutralGarrisonStrength({ tax: 5 }, 4)).toBe(4);
    expect(neutralGarrisonStrength({ tax: 2 })).toBe(2);
  });
});

describe('neutral garrison regeneration (14.1, D-9)', () => {
  it('comes back in a city area when no attacker moves in', () => {
    expect(neutralGarrisonReappears({ cityArea: true, attackerEntered: false })).toBe(true);
    expect(neutralGarrisonReappears({ cityArea: true, attackerEntered: true })).toBe(false);
  });
  it('never comes back in an area without a city', () => {
    expect(neutralGarrisonReappears({ cityArea: false, attackerEntered: false })).toBe(false);
  });
});
