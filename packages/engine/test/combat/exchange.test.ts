import { describe, expect, it } from 'vitest';
import { exchangeLossSets, exchangeOutcome, isLegalLossSet } from '../../src/combat/exchange.ts';

describe('EX: which side is eliminated (7.2, AMBIG-4)', () => {
  it('eliminates the smaller unmodified total; the other owes as much', () => {
    expect(exchangeOutcome(5, 2, 'bothEliminated')).toEqual({ eliminated: 'defender', owed: 2 });
    expect(exchangeOutcome(3, 4, 'bothEliminated')).toEqual({ eliminated: 'attacker', owed: 3 });
  });

  it('on equal totals eliminates both by default, or the defender under exTie=defenderLoses', () => {
    expect(exchangeOutcome(4, 4, 'bothEliminated')).toEqual({ eliminated: 'both', owed: 0 });
    expect(exchangeOutcome(4, 4, 'defenderLoses')).toEqual({ eliminated: 'defender', owed: 4 });
  });
});

describe('EX: the surviving side chooses its losses (7.2)', () => {
  const units = [
    { id: 'inf', strength: 3 },
    { id: 'bow', strength: 2 },
    { id: 'bow2', strength: 2 },
  ];

  it('D-9 contrast: 3-3 + 2-3 against a neutral 2 — the 2-3 alone pays', () => {
    expect(exchangeLossSets(units.slice(0, 2), 2)).toEqual([['bow'], ['inf']]);
  });

  it('offers only minimal sets that cover the debt', () => {
    expect(exchangeLossSets(units, 4)).toEqual([
      ['bow', 'bow2'],
      ['bow', 'inf'],
      ['bow2', 'inf'],
    ]);
    expect(isLegalLossSet(units, 4, ['inf', 'bow'])).toBe(true);
    expect(isLegalLossSet(units, 4, ['inf'])).toBe(false);
    expect(isLegalLossSet(units, 4, ['inf', 'bow', 'bow2'])).toBe(false);
  });

  it('takes everything when the debt is at least the whole side', () => {
    expect(exchangeLossSets(units, 9)).toEqual([['bow', 'bow2', 'inf']]);
    expect(exchangeLossSets(units, 0)).toEqual([[]]);
  });
});

describe('EX loss sets for a large attack', () => {
  it('stay exact and are found without trying every subset', () => {
    const many = Array.from({ length: 22 }, (_, i) => ({
      id: `u${String(i).padStart(2, '0')}`,
      strength: i % 2 === 0 ? 3 : 2,
    }));
    const sets = exchangeLossSets(many, 2);
    // Any single unit covers 2: 22 one-unit sets, nothing larger.
    expect(sets).toHaveLength(22);
    expect(sets.every((s) => s.length === 1)).toBe(true);
    const strength = new Map(many.map((u) => [u.id, u.strength]));
    const five = exchangeLossSets(many, 5);
    // 3+2 (121), 3+3 (55) and 2+2+2 (165): every set covers 5 and none has a unit to spare.
    expect(five).toHaveLength(121 + 55 + 165);
    for (const set of five) {
      const sum = set.reduce((t, id) => t + strength.get(id)!, 0);
      expect(sum).toBeGreaterThanOrEqual(5);
      for (const id of set) expect(sum - strength.get(id)!).toBeLessThan(5);
    }
  });
});
