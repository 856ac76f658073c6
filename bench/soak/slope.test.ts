import { describe, expect, it } from 'vitest';
import { growth } from './slope.ts';

describe('growth after warm-up', () => {
  it('fits a line through noisy samples', () => {
    const g = growth([0, 1, 2, 3, 4].map((t) => ({ t, v: 100 + 10 * t + (t % 2 ? 1 : -1) })));
    // Slope 10 through a mean of 119.8 at t = 2: from 99.8 to 139.8.
    expect(g?.from).toBeCloseTo(99.8, 6);
    expect(g?.to).toBeCloseTo(139.8, 6);
    expect(g?.percent).toBeCloseTo((40 / 99.8) * 100, 6);
  });
  it('is flat for a constant series and absent for one sample', () => {
    expect(growth([0, 1, 2].map((t) => ({ t, v: 7 })))?.percent).toBe(0);
    expect(growth([{ t: 0, v: 1 }])).toBeNull();
  });
});
