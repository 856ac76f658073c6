/**
 * A limit on an HTTP route: every answer carries how much of the window is left (the IETF
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers), and a refusal is a 429
 * with `Retry-After` and the typed code `http/rate_limited` with the seconds to wait.
 */
import type { FastifyReply } from 'fastify';
import { HttpError } from '../http/errors.ts';
import type { Limit, Taken } from './limit.ts';

/** Takes one attempt of each `[limit, key]` in turn; throws the refusal of the first that is full. */
export async function guard(reply: FastifyReply, ...checks: readonly [Limit, string][]): Promise<void> {
  let tightest: Extract<Taken, { ok: true }> | null = null;
  for (const [limit, key] of checks) {
    const t = await limit.take(key);
    if (!t.ok) {
      void reply.header('Retry-After', String(t.retryAfterSeconds));
      void reply.header('RateLimit-Limit', String(t.limit));
      void reply.header('RateLimit-Remaining', '0');
      void reply.header('RateLimit-Reset', String(t.retryAfterSeconds));
      throw new HttpError(429, 'http/rate_limited', 'Too many requests; try again soon.', {
        retryAfterSeconds: t.retryAfterSeconds,
        limit: limit.spec.name,
      });
    }
    if (!tightest || t.remaining < tightest.remaining) tightest = t;
  }
  if (tightest) {
    void reply.header('RateLimit-Limit', String(tightest.limit));
    void reply.header('RateLimit-Remaining', String(tightest.remaining));
    void reply.header('RateLimit-Reset', String(tightest.resetSeconds));
  }
}
