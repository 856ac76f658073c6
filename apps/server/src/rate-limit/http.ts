/**
 * A limit on an HTTP route: every answer says how much of the window is left, in the header fields
 * of the IETF's RateLimit draft in both its spellings: the current one's `RateLimit-Policy` and
 * `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10: the policy's quota `q` and window `w`, the
 * remaining `r` and the seconds `t` until the window ends), and the `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` of its earlier versions, which most clients and
 * proxies read today. A refusal is a 429 with `Retry-After` (RFC 9110 §10.2.3) and the typed code
 * `http/rate_limited` with the seconds to wait.
 */
import type { FastifyReply } from 'fastify';
import { HttpError } from '../http/errors.ts';
import type { Limit } from './limit.ts';

/** The header fields saying that `remaining` attempts of `limit` are left for `resetSeconds` more. */
export function rateLimitHeaders(
  limit: Pick<Limit, 'spec'>,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  const { name, points, seconds } = limit.spec;
  return {
    'RateLimit-Policy': `"${name}";q=${points};w=${seconds}`,
    RateLimit: `"${name}";r=${remaining};t=${resetSeconds}`,
    'RateLimit-Limit': String(points),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(resetSeconds),
  };
}

/** Takes one attempt of each `[limit, key]` in turn; throws the refusal of the first that is full. */
export async function guard(reply: FastifyReply, ...checks: readonly [Limit, string][]): Promise<void> {
  let tightest: { limit: Limit; remaining: number; resetSeconds: number } | null = null;
  for (const [limit, key] of checks) {
    const t = await limit.take(key);
    if (!t.ok) {
      void reply.headers({
        ...rateLimitHeaders(limit, 0, t.retryAfterSeconds),
        'Retry-After': String(t.retryAfterSeconds),
      });
      throw new HttpError(429, 'http/rate_limited', 'Too many requests; try again soon.', {
        retryAfterSeconds: t.retryAfterSeconds,
        limit: limit.spec.name,
      });
    }
    if (!tightest || t.remaining < tightest.remaining)
      tightest = { limit, remaining: t.remaining, resetSeconds: t.resetSeconds };
  }
  if (tightest)
    void reply.headers(rateLimitHeaders(tightest.limit, tightest.remaining, tightest.resetSeconds));
}
