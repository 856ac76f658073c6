/**
 * A bot's thinking budget. The engine is pure (no clock), so whoever runs a bot passes its time
 * source; without one, a bot's work is bounded only by what it looks at (linear in its units,
 * their legal destinations and the cities), which is what makes it fast anyway.
 */
export interface Clock {
  /** True once this decision's budget is used up: the bot gives the best it has found. */
  spent(): boolean;
}

export const UNBOUNDED: Clock = { spent: () => false };

/** A budget of `ms` from now, on the caller's time source (e.g. performance.now). */
export function budget(now: () => number, ms: number): Clock {
  const end = now() + ms;
  return { spent: () => now() >= end };
}
