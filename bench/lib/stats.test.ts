/** The benchmarks' statistics: a true median and p99, over all rounds' samples pooled. */
import { describe, expect, it } from 'vitest';
import { interleaving, median, p99, pooled, quantile } from './stats.ts';

describe('bench statistics', () => {
  it('gives the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('gives p99 by linear interpolation between ranks, whatever the input order', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(p99(xs)).toBeCloseTo(99.01, 10);
    expect(quantile(xs, 0)).toBe(1);
    expect(quantile(xs, 1)).toBe(100);
    // One slow outlier among a thousand samples shows in p99 only through interpolation.
    const many = [...Array.from({ length: 999 }, () => 1), 1001];
    expect(median(many)).toBe(1);
    expect(p99(many)).toBe(1);
    expect(quantile(many, 0.9995)).toBeCloseTo(501.5, 6);
  });

  it('pools every round instead of keeping the better one', () => {
    const good = [1, 2, 3, 4];
    const bad = [100, 101, 102, 103, 104, 105];
    const s = pooled([good, bad]);
    expect(s.n).toBe(10);
    // Ten samples: the median is the mean of the 5th and 6th smallest (101 and 102 are 6th and 7th).
    expect(s.p50).toBe((100 + 101) / 2);
    expect(s.p50).not.toBe(Math.min(median(good), median(bad)));
    expect(s.p99).toBeCloseTo(104 + 0.91 * (105 - 104), 10);
    expect(s.max).toBe(105);
    expect(s.rounds.map((r) => r.p50)).toEqual([2.5, 102.5]);
  });

  it('interleaves the two sides A B B A after a warm-up round', () => {
    const plan = interleaving(5);
    expect(plan[0]).toEqual({ warmUp: true, order: ['A', 'B'] });
    expect(
      plan
        .slice(1)
        .flatMap((r) => r.order)
        .join(''),
    ).toBe('ABBAABBAAB');
    expect(plan.filter((r) => !r.warmUp)).toHaveLength(5);
  });
});
