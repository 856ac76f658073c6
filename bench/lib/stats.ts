/**
 * Statistics of the benchmarks. Every figure is computed over all samples of all measured rounds
 * pooled together; the per-round figures are printed beside it only to show the spread. Never the
 * better of the rounds: a round that went badly is part of what users would have seen.
 */

/**
 * The q-quantile of `xs` (0 ≤ q ≤ 1), interpolated linearly between the two nearest ranks (the
 * usual definition, R's type 7): the median of an even count is the mean of the two middle values.
 */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = Float64Array.from(xs).sort();
  const h = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return (s[lo] as number) + (h - lo) * ((s[hi] as number) - (s[lo] as number));
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);
export const p99 = (xs: readonly number[]): number => quantile(xs, 0.99);

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

function summarize(xs: readonly number[]): Summary {
  let max = Number.NaN;
  for (const x of xs) if (!(x <= max)) max = x;
  return { n: xs.length, p50: median(xs), p99: p99(xs), max };
}

/** The pooled summary of every round's samples, and each round's own summary (for the spread). */
export function pooled(rounds: readonly (readonly number[])[]): Summary & { rounds: Summary[] } {
  const all: number[] = [];
  for (const r of rounds) for (const x of r) all.push(x);
  return { ...summarize(all), rounds: rounds.map(summarize) };
}

/**
 * The order of the two sides over `rounds` measured rounds after one warm-up: A B, then B A, A B, …
 * — A B B A A B … — so neither side always runs first or always after the other.
 */
export function interleaving(rounds: number): { warmUp: boolean; order: ('A' | 'B')[] }[] {
  const out: { warmUp: boolean; order: ('A' | 'B')[] }[] = [{ warmUp: true, order: ['A', 'B'] }];
  for (let i = 0; i < rounds; i++) out.push({ warmUp: false, order: i % 2 === 0 ? ['A', 'B'] : ['B', 'A'] });
  return out;
}
