/**
 * Limits counted where every process sees them (the rate_limits table): answers carry the
 * RateLimit-* headers and a refusal `Retry-After` with a typed code; concurrent chat lines are
 * counted atomically; a reset link is limited per address and per link; worlds are limited per
 * address whatever the accounts; and two server instances on one PostgreSQL database share each count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { serveApp } from './helpers/app.ts';
import { api, postFrom, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const clients: TestClient[] = [];

const LIMITS = {
  authPerAddress: { burst: 4, perMinute: 0.5 },
  chatPerMinute: 20,
  resetPerAddress: { burst: 3, perMinute: 0.5 },
  worldsPerDay: 5,
  worldsPerAddressPerDay: 2,
};

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: LIMITS as never, trustProxy: true }));
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const post = (url: string, path: string, from: string, body: unknown, cookie?: string) =>
  postFrom(url, path, from, body, cookie);

describe('limits shared by every process', () => {
  it('says what is left on each answer, and refuses past the window with Retry-After and a typed code', async () => {
    const tries = [];
    for (let i = 0; i < 5; i++)
      tries.push(
        await post(base, '/api/auth/login', '198.51.100.7', { username: 'nobody', password: 'wrongwrong' }),
      );
    expect(tries.slice(0, 4).map((r) => r.status)).not.toContain(429);
    expect(tries[0]?.headers.get('ratelimit-limit')).toBe('4');
    expect(tries.slice(0, 4).map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    // The current draft's fields say the same: the policy's quota and window, what is left and when.
    expect(tries[0]?.headers.get('ratelimit-policy')).toMatch(/^"auth";q=4;w=\d+$/);
    expect(
      tries.slice(0, 4).map((r) => /;r=(\d+);t=\d+$/.exec(r.headers.get('ratelimit') ?? '')?.[1]),
    ).toEqual(['3', '2', '1', '0']);
    const refused = tries[4];
    expect(refused?.status).toBe(429);
    const retry = Number(refused?.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(refused?.body).toMatchObject({ error: { code: 'http/rate_limited', retryAfterSeconds: retry } });
    expect(refused?.headers.get('ratelimit')).toBe(`"auth";r=0;t=${retry}`);
    // Another address has its own window.
    expect(
      (await post(base, '/api/auth/login', '198.51.100.8', { username: 'x', password: 'y' })).status,
    ).not.toBe(429);
  });

  it('counts concurrent chat lines atomically: 30 sent at once, exactly 20 accepted', async () => {
    const cookie = await signup(base, 'talker');
    const w = await api(base, cookie, 'POST', '/api/worlds', { name: 'Chatter' });
    const worldId = (w.body.world as { id: string }).id;
    await api(base, cookie, 'POST', `/api/worlds/${worldId}/join`, {});
    const c = new TestClient(base, cookie, worldId);
    clients.push(c);
    await c.subscribe();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => c.emit('chat/send', { worldId, body: `line ${i}` })),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(20);
    const refused = answers.filter((a) => !a.ok);
    expect(refused).toHaveLength(10);
    for (const r of refused)
      expect(r).toMatchObject({ ok: false, error: { code: 'chat/too_fast', limit: 20 } });
    expect(await t.db.prisma.chatMessage.count({ where: { worldId } })).toBe(20);
  });

  it('limits setting a password per client address and per reset link, before any work', async () => {
    const token = 'x'.repeat(43);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post(base, '/api/auth/reset', '198.51.100.20', { token, password: 'a-new-password' })).status,
      );
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
    // The same link from many addresses is limited too.
    const other = [];
    for (let i = 0; i < 4; i++)
      other.push(
        (
          await post(base, '/api/auth/reset', `198.51.100.${30 + i}`, {
            token: 'y'.repeat(43),
            password: 'a-new-password',
          })
        ).status,
      );
    expect(other.slice(0, 3)).not.toContain(429);
    expect(other[3]).toBe(429);
  });

  it('limits the worlds created from one address, whatever the accounts', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      const cookie = await signup(base, `maker${i}`);
      made.push(
        (await post(base, '/api/worlds', '198.51.100.50', { name: `From one address ${i}` }, cookie)).status,
      );
    }
    expect(made).toEqual([200, 200, 429]);
  });
});

describe.runIf(process.env.DATABASE_URL)('two server instances on one database', () => {
  it('share a count: the window one fills is full on the other', async () => {
    // A second server with a database connection of its own, as another process would have.
    const db = await openDatabase({ kind: 'postgres', url: t.url ?? '', poolSize: 2 });
    const other = await serveApp(db, { limits: LIMITS as never, trustProxy: true });
    try {
      const from = '203.0.113.99';
      // A name of its own: failures under one name slow that name down (auth/slow_down), another limit.
      const body = { username: 'shared-window', password: 'wrongwrong' };
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await post(i % 2 ? other.base : base, '/api/auth/login', from, body)).status);
      expect(statuses).not.toContain(429);
      for (const url of [other.base, base])
        expect((await post(url, '/api/auth/login', from, body)).body).toMatchObject({
          error: { code: 'http/rate_limited' },
        });
    } finally {
      await other.app.close();
      await db.close();
    }
  });
});
