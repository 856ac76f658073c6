/** In-process token buckets (per IP for auth routes, per socket for events). */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** `burst` tokens, refilled at `perSecond`; `now` is injectable for tests. */
  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for `key`; false when the bucket is empty. */
  take(key: string): boolean {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > 50_000) this.prune(t);
    return ok;
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }

  private prune(t: number): void {
    for (const [k, b] of this.buckets) if (t - b.at > 600_000) this.buckets.delete(k);
  }
}
