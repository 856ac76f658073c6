/**
 * Limits counted where every process sees them (the rate_limits table): answers carry the
 * RateLimit-* headers and a refusal `Retry-After` with a typed code; concurrent chat lines are
 * counted atomically; a signed reset link is limited per address and per link, a made-up one is
 * refused before any limiter or read; worlds are limited per
 * address whatever the accounts; and two server instances on one PostgreSQL database share each count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { openDatabase } from '../src/db/database.ts';
import { issueToken } from '../src/mail/tokens.ts';
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

  it('limits setting a password with a signed link per client address and per link', async () => {
    // Made in the database: a sign-up here would spend the address's log-in window other tests count on.
    const usedLink = async (name: string) => {
      const user = await createUser(t.db, name, 'password123');
      if (!user) throw new Error('account not created');
      const link = await issueToken(
        t.db,
        app.mailer.linkKey,
        user.id,
        'reset_password',
        `${name}@example.org`,
      );
      await t.db.sql('UPDATE account_tokens SET used_at = now() WHERE user_id = $1::uuid', [user.id]);
      return link;
    };
    const first = await usedLink('linked');
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post(base, '/api/auth/reset', '198.51.100.20', { token: first, password: 'a-new-password' }))
          .status,
      );
    expect(statuses).toEqual([410, 410, 410, 429]);
    // A link this server sent, hammered from many addresses, is limited too.
    const second = await usedLink('linked2');
    const other = [];
    for (let i = 0; i < 4; i++)
      other.push(
        (
          await post(base, '/api/auth/reset', `198.51.100.${30 + i}`, {
            token: second,
            password: 'a-new-password',
          })
        ).status,
      );
    expect(other).toEqual([410, 410, 410, 429]);
  });

  it('refuses a made-up link by its MAC alone: no limiter row written, no link read', async () => {
    const rows = async () =>
      Number((await t.db.sql<{ n: unknown }>('SELECT count(*) AS n FROM rate_limits'))[0]?.n);
    const user = await createUser(t.db, 'forged', 'password123');
    if (!user) throw new Error('account not created');
    const real = await issueToken(t.db, app.mailer.linkKey, user.id, 'reset_password', 'forged@example.org');
    const [random, mac] = real.split('.');
    const madeUp = [
      'x'.repeat(43), // no MAC at all, as links had before they were signed
      `${random}.${'A'.repeat(43)}`, // a real random part with a made-up MAC
      `${'z'.repeat(43)}.${mac}`, // a real MAC on another random part
      `${random}.${mac?.slice(0, -2)}`, // the MAC cut short
      `${random}.${mac}`.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')), // one character changed
    ];
    const before = await rows();
    const from = '198.51.100.60';
    // Another transaction holds both tables locked against any read or write (on the embedded
    // database, the only connection itself): a route that touched either would wait for it.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const lock = t.db.prisma.$transaction(
      async (q) => {
        await q.$executeRawUnsafe('LOCK TABLE rate_limits, account_tokens IN ACCESS EXCLUSIVE MODE');
        locked();
        await held;
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
    const waited = (ms: number) => new Promise<'waited'>((r) => setTimeout(() => r('waited'), ms));
    let signed: Promise<{ status: number }> | undefined;
    try {
      await isLocked;
      const answers = await Promise.race([
        Promise.all(
          madeUp.map((token) => post(base, '/api/auth/reset', from, { token, password: 'a-new-password' })),
        ),
        waited(20_000),
      ]);
      expect(answers).not.toBe('waited');
      if (answers === 'waited') return;
      for (const a of answers)
        expect(a).toMatchObject({ status: 400, body: { error: { code: 'account/link_invalid' } } });
      // The lock does hold a route back: a signed link is limited and read, so it waits.
      signed = post(base, '/api/auth/reset', from, { token: real, password: 'a-new-password' });
      expect(await Promise.race([signed, waited(1500)])).toBe('waited');
    } finally {
      release();
      await lock;
    }
    // Five made-up links did not count against the address: its signed link is still served.
    expect((await signed)?.status).toBe(200);
    // The signed link wrote its two counters (address and link); the made-up ones none.
    expect(await rows()).toBe(before + 2);
  });

  it('limits the worlds created from one address, whatever the accounts', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      const cookie = await signup(base, `maker${i}`);
      made.push(await post(base, '/api/worlds', '198.51.100.50', { name: `From one address ${i}` }, cookie));
    }
    expect(made.map((r) => r.status)).toEqual([200, 200, 429]);
    // A code of its own, saying the count is the address's (not "too many attempts"), and the wait.
    const refused = made[2];
    const error = refused?.body.error as { retryAfterSeconds?: number } | undefined;
    expect(error).toMatchObject({
      code: 'world/create_limit',
      per: 'address',
      limit: 2,
      retryAfterSeconds: expect.any(Number),
    });
    expect(refused?.headers.get('retry-after')).toBe(String(error?.retryAfterSeconds));
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
      // Both read the one link key of the site: a link one sends is accepted by the other.
      expect(other.app.mailer.linkKey.equals(app.mailer.linkKey)).toBe(true);
    } finally {
      await other.app.close();
      await db.close();
    }
  });
});
