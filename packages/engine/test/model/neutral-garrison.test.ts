import { describe, expect, it } from 'vitest';
import { neutralGarrisonReappears, neutralGarrisonStrength } from '../../src/model/neutral-garrison.ts';

// D-26 itself is data: golden/neutral.json (run by golden.test.ts).

describe('neutral garrison strength cap (14.1, AMBIG-5)', () => {
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
