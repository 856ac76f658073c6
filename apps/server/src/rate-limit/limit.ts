/**
 * One rate limit: a window of `points` attempts per `seconds`, per key (a client address, an
 * account, a token), counted where every process sees it (store.ts). `take` answers whether one
 * more attempt fits, with what the answer's headers say: how many are left, when the window ends,
 * and how long to wait when it is full.
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../db/database.ts';
import { sharedWindow, type WindowSpec } from './store.ts';

export type Taken =
  | { readonly ok: true; readonly limit: number; readonly remaining: number; readonly resetSeconds: number }
  | { readonly ok: false; readonly limit: number; readonly retryAfterSeconds: number };

type Store = Pick<RateLimiterAbstract, 'consume' | 'delete'>;

export class Limit {
  private constructor(
    private readonly store: Store,
    readonly spec: WindowSpec,
    private readonly log: (msg: string, data: object) => void,
  ) {}

  /** Counted in the shared table: every process of the site sees the same counts. */
  static shared(db: Database, spec: WindowSpec, log: (msg: string, data: object) => void): Limit {
    return new Limit(sharedWindow(db, spec), spec, log);
  }

  /** Counted by a limiter made elsewhere (the socket events' share or Redis: socket-events.ts). */
  static over(store: Store, spec: WindowSpec, log: (msg: string, data: object) => void): Limit {
    return new Limit(store, spec, log);
  }

  /** Counted in this process's memory only (tests of the window's arithmetic). */
  static local(spec: WindowSpec): Limit {
    return new Limit(
      new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.seconds }),
      spec,
      () => {},
    );
  }

  /**
   * One attempt for `key`. When the counters cannot be reached (the database away), the attempt is
   * let through and the failure logged: a limit must not turn a database hiccup into a refusal of
   * every request, and the work it guards needs the database anyway.
   */
  async take(key: string): Promise<Taken> {
    const limit = this.spec.points;
    try {
      const r = await this.store.consume(key);
      return {
        ok: true,
        limit,
        remaining: r.remainingPoints,
        resetSeconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)),
      };
    } catch (e) {
      if (e instanceof RateLimiterRes)
        return { ok: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
      this.log('rate limit not counted; the attempt goes through', { limit: this.spec.name, err: String(e) });
      return { ok: true, limit, remaining: limit, resetSeconds: this.spec.seconds };
    }
  }

  /** Forgets `key`'s count (a successful log-in clears its address's failures, say). */
  async forget(key: string): Promise<void> {
    await this.store.delete(key).catch(() => undefined);
  }
}

/** A token bucket of `burst` refilled at `perSecond`, as the closest fixed window: `burst` per `burst / perSecond` s. */
export const windowOf = (name: string, burst: number, perSecond: number): WindowSpec => ({
  name,
  points: burst,
  seconds: Math.max(1, Math.round(burst / perSecond)),
});
