/**
 * A budget of made-up links per client address, in this process's memory. A link whose body or MAC
 * does not hold costs the server only parsing and one HMAC, but an anonymous client that sends them
 * in a loop on many connections keeps the event loop busy with nothing else, and every log-in waits
 * behind it. So each address may send `burst` of them per window; once spent, its requests on the
 * link routes are refused before the body is read (`http/rate_limited` with `Retry-After`), and the
 * refusal is held for up to a second before it goes out: a client that ignores `Retry-After` and asks
 * again at once gets one answer a second per connection, and what it costs the server is a timer.
 *
 * Counted here rather than in the shared table on purpose: what it protects is this process's
 * event loop, and a row written per made-up link was the very database work that slowed log-ins.
 * Signed links are counted per site as before (password-reset.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { rateLimitHeaders } from './http.ts';
import { windowOf } from './limit.ts';
import type { WindowSpec } from './store.ts';

/** How long a refusal is held at most before it is sent. */
export const HOLD_MS = 1000;
/** Refusals held at once in this process; beyond, they are sent at once (a timer each, so a bound). */
const MAX_HELD = 1000;
/** Addresses remembered; beyond, the expired ones are forgotten, then the oldest. */
const MAX_ADDRESSES = 10_000;

interface Window {
  spent: number;
  endsAt: number;
}

export class MadeUpLinkBudget {
  readonly spec: WindowSpec;
  private readonly windows = new Map<string, Window>();
  private held = 0;

  constructor(
    budget: { burst: number; perMinute: number },
    private readonly now: () => number = Date.now,
  ) {
    this.spec = windowOf('made_up_links', budget.burst, budget.perMinute / 60);
  }

  /** Seconds until `address` may be heard again, or 0 while its budget lasts. */
  waitFor(address: string): number {
    const w = this.windows.get(address);
    if (!w) return 0;
    const left = w.endsAt - this.now();
    if (left <= 0) {
      this.windows.delete(address);
      return 0;
    }
    return w.spent >= this.spec.points ? Math.max(1, Math.ceil(left / 1000)) : 0;
  }

  /** One made-up link (or unreadable body) from `address`. */
  spend(address: string): void {
    const at = this.now();
    const w = this.windows.get(address);
    if (w && w.endsAt > at) {
      w.spent++;
      return;
    }
    this.windows.delete(address);
    if (this.windows.size >= MAX_ADDRESSES) this.forgetSome(at);
    this.windows.set(address, { spent: 1, endsAt: at + this.spec.seconds * 1000 });
  }

  /** Runs `check` (parse the body, check the MAC); when it throws, `address` spends one and it rethrows. */
  charge<T>(address: string, check: () => T): T {
    try {
      return check();
    } catch (e) {
      this.spend(address);
      throw e;
    }
  }

  /**
   * The route's `onRequest` hook: an address whose budget is spent is refused before its body is
   * read, after a hold of up to `HOLD_MS`.
   */
  readonly refuseSpent = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const wait = this.waitFor(request.ip);
    if (wait === 0) return;
    if (this.held < MAX_HELD) {
      this.held++;
      try {
        await sleep(Math.min(HOLD_MS, wait * 1000));
      } finally {
        this.held--;
      }
    }
    const retryAfterSeconds = this.waitFor(request.ip) || 1;
    void reply.headers({
      ...rateLimitHeaders(this, 0, retryAfterSeconds),
      'Retry-After': String(retryAfterSeconds),
    });
    throw new HttpError(429, 'http/rate_limited', 'Too many links that do not hold; try again soon.', {
      retryAfterSeconds,
      limit: this.spec.name,
    });
  };

  private forgetSome(at: number): void {
    for (const [address, w] of this.windows) if (w.endsAt <= at) this.windows.delete(address);
    for (const address of this.windows.keys()) {
      if (this.windows.size < MAX_ADDRESSES) break;
      this.windows.delete(address);
    }
  }
}
