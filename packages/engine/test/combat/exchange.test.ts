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
