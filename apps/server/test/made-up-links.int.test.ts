/**
 * Made-up links cost an anonymous client's address its budget: past it, the link routes refuse the
 * address before reading its body, with `Retry-After` and a typed code, and hold each refusal for
 * about a second, so a loop that ignores `Retry-After` gets one answer a second per connection
 * instead of keeping the event loop busy (what slowed every log-in under a flood of bogus resets).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { HOLD_MS } from '../src/rate-limit/made-up-links.ts';
import { serveApp } from './helpers/app.ts';
import { postFrom } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { madeUpLinksPerAddress: { burst: 3, perMinute: 3 } } as never,
    trustProxy: true,
  }));
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const madeUp = () => `${randomBytes(32).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
const reset = (from: string, body: unknown) => postFrom(base, '/api/auth/reset', from, body);

describe('made-up links from one address', () => {
  it('are refused by their MAC within the budget, then before the body is read, on both link routes', async () => {
    const from = '198.51.100.80';
    const within = [];
    for (let i = 0; i < 3; i++)
      within.push(await reset(from, { token: madeUp(), password: 'a-new-password' }));
    for (const r of within)
      expect(r).toMatchObject({ status: 400, body: { error: { code: 'account/link_invalid' } } });
    // A body that does not even parse is refused for the address, not for what it holds.
    const refused = await reset(from, { nonsense: true });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'http/rate_limited' } } });
    const error = refused.body.error as { retryAfterSeconds: number; limit: string };
    expect(error.limit).toBe('made_up_links');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBe(error.retryAfterSeconds);
    expect(refused.headers.get('ratelimit-policy')).toBe('"made_up_links";q=3;w=60');
    // The budget is the address's, whichever link route it spends it on.
    const verify = await postFrom(base, '/api/account/email/verify', from, { token: madeUp() });
    expect(verify).toMatchObject({ status: 429, body: { error: { code: 'http/rate_limited' } } });
    // Another address is heard.
    expect(await reset('198.51.100.81', { token: madeUp(), password: 'a-new-password' })).toMatchObject({
      status: 400,
      body: { error: { code: 'account/link_invalid' } },
    });
  });

  it('holds each refusal, so that a loop ignoring Retry-After is answered once a second per connection', async () => {
    const from = '198.51.100.90';
    for (let i = 0; i < 3; i++) await reset(from, { token: madeUp(), password: 'a-new-password' });
    // A busy machine only makes the hold longer: the bound is from below.
    const timed = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const started = performance.now();
        const r = await reset(from, { token: madeUp(), password: 'a-new-password' });
        return { status: r.status, ms: performance.now() - started };
      }),
    );
    for (const r of timed) {
      expect(r.status).toBe(429);
      expect(r.ms).toBeGreaterThanOrEqual(HOLD_MS - 50);
    }
  });
});
