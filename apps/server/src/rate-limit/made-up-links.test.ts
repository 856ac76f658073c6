import { describe, expect, it } from 'vitest';
import { MadeUpLinkBudget } from './made-up-links.ts';

describe('the budget of made-up links per address', () => {
  it('hears an address until it spent its window, then says how long to wait; others are heard', () => {
    let now = 1_000_000;
    const budget = new MadeUpLinkBudget({ burst: 3, perMinute: 3 }, () => now);
    expect(budget.spec).toEqual({ name: 'made_up_links', points: 3, seconds: 60 });
    for (let i = 0; i < 3; i++) {
      expect(budget.waitFor('a')).toBe(0);
      budget.spend('a');
    }
    expect(budget.waitFor('a')).toBe(60);
    expect(budget.waitFor('b')).toBe(0);
    now += 45_500;
    expect(budget.waitFor('a')).toBe(15);
    now += 14_500;
    // The window is over: a fresh one.
    expect(budget.waitFor('a')).toBe(0);
    budget.spend('a');
    expect(budget.waitFor('a')).toBe(0);
  });

  it('spends one only when the check throws', () => {
    const budget = new MadeUpLinkBudget({ burst: 1, perMinute: 1 });
    expect(budget.charge('a', () => 'fine')).toBe('fine');
    expect(budget.waitFor('a')).toBe(0);
    expect(() =>
      budget.charge('a', () => {
        throw new Error('made up');
      }),
    ).toThrow('made up');
    expect(budget.waitFor('a')).toBeGreaterThan(0);
  });
});
