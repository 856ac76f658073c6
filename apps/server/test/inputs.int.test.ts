/**
 * Inputs the server must refuse with a typed code rather than fail on: control characters (NUL
 * first) in any stored text, URLs the router cannot read, over-long URLs and headers, repeated
 * query parameters and LIKE wildcards in the account search. And the settings below the bar:
 * password hashing cost (with old hashes upgraded at log-in), Secure cookies over HTTPS, security
 * headers, expired sessions purged and last-seen times kept.
 */
import { errorBodySchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let admin: string;
let alice: string;
let worldId: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(
    t.db,
    { limits: { authPerAddress: { burst: 100, perMinute: 600 } }, trustProxy: true },
    (a) => registerModeration(a.http, t.db, a.hub, a.io),
  ));
  await createUser(t.db, 'admin1', 'password123', 'admin');
  admin = (await api(base, null, 'POST', '/api/auth/login', { username: 'admin1', password: 'password123' }))
    .cookie as string;
  alice = await signup(base, 'alice');
  const w = await api(base, alice, 'POST', '/api/worlds', { name: 'Inputs' });
  worldId = (w.body.world as { id: string }).id;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const typed = (body: unknown) => errorBodySchema.parse(body).error.code;

describe('control characters', () => {
  it('a NUL in chat is refused with a typed code, not socket/internal', async () => {
    const c = new TestClient(base, alice, worldId);
    clients.push(c);
    await c.subscribe();
    const r = await c.emit('chat/send', { worldId, body: 'hi\u0000there' });
    expect(r).toMatchObject({ ok: false, error: { code: 'text/control_characters' } });
    const bell = await c.emit('chat/send', { worldId, body: 'ring \u0007' });
    expect(bell).toMatchObject({ ok: false, error: { code: 'text/control_characters' } });
  });

  it('NULs in a world name, a webhook address and a search answer 400 with a typed code', async () => {
    const w = await api(base, alice, 'POST', '/api/worlds', { name: 'Bad\u0000name' });
    expect(w.status).toBe(400);
    expect(typed(w.body)).toBe('text/control_characters');
    const h = await api(base, alice, 'POST', '/api/account/notifications', {
      webhookUrl: 'https://example.org/\u0000hook',
    });
    expect(h.status).toBe(400);
    expect(typed(h.body)).toBe('text/control_characters');
    const s = await api(base, admin, 'GET', '/api/moderation/users?q=a%00');
    expect(s.status).toBe(400);
    expect(typed(s.body)).toBe('text/control_characters');
    const opt = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Opts',
      options: { cfg: { x: 'a\u0000' } },
    });
    expect(opt.status).toBe(400);
  });
});

describe('the account search', () => {
  it('answers a repeated parameter with a typed 400, not a 500', async () => {
    const r = await api(base, admin, 'GET', '/api/moderation/users?q=a&q=b');
    expect(r.status).toBe(400);
    expect(typed(r.body)).toBe('http/invalid');
  });

  it('matches % and _ literally', async () => {
    await signup(base, 'zed_one');
    await signup(base, 'zedtwo');
    const under = await api(base, admin, 'GET', '/api/moderation/users?q=zed_');
    expect((under.body.users as { username: string }[]).map((u) => u.username)).toEqual(['zed_one']);
    const pct = await api(base, admin, 'GET', '/api/moderation/users?q=%25');
    expect(pct.status === 400 || (pct.body.users as unknown[]).length === 0).toBe(true);
  });
});

const raw = (request: string) => rawRequest(base, request);

describe('URL-level errors', () => {
  it('a malformed escape in the path answers {error:{code}}', async () => {
    const r = await raw('GET /api/worlds/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(400);
    expect(typed(r.body)).toBe('http/bad_url');
  });

  it('an over-long URL or header answers {error:{code}}', async () => {
    const url = await raw(`GET /api/${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([414, 431]).toContain(url.status);
    expect(typed(url.body)).toBe('http/headers_too_large');
    const header = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(70_000)}\r\n\r\n`);
    expect(header.status).toBe(431);
    expect(typed(header.body)).toBe('http/headers_too_large');
    const garbage = await raw('GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(typed(garbage.body)).toBe('http/bad_request');
  });
});

describe('settings', () => {
  it('hashes passwords with scrypt N=2^17 and upgrades an old hash at the next log-in', async () => {
    await signup(base, 'newbie');
    const u = await t.db.prisma.user.findFirstOrThrow({ where: { username: 'newbie' } });
    expect(u.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    // An account from before: its hash has the old cost.
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('old password', salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await t.db.prisma.user.create({
      data: { username: 'oldtimer', usernameKey: 'oldtimer', passwordHash: old },
    });
    const r = await api(base, null, 'POST', '/api/auth/login', {
      username: 'oldtimer',
      password: 'old password',
    });
    expect(r.status).toBe(200);
    const after = await t.db.prisma.user.findFirstOrThrow({ where: { username: 'oldtimer' } });
    expect(after.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('marks the session cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'x-bke-csrf': '1', 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ username: 'alice', password: 'password123' }),
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith('bke_session='));
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/HttpOnly/i);
  });

  it('marks it Secure whenever the site is served over HTTPS (PUBLIC_URL), even with no proxy trusted', async () => {
    const { app: site, base: siteBase } = await serveApp(t.db, {
      notifications: { publicUrl: 'https://bke.example.org' },
    });
    try {
      const res = await fetch(`${siteBase}/api/auth/login`, {
        method: 'POST',
        headers: { 'x-bke-csrf': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'password123' }),
      });
      expect(res.status).toBe(200);
      const cookies = res.headers.getSetCookie();
      expect(cookies.find((c) => c.startsWith('bke_session='))).toMatch(/; Secure/i);
      expect(cookies.find((c) => c.startsWith('bke_device='))).toMatch(/; Secure/i);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    } finally {
      await site.close();
    }
  });

  it('sends security headers: a content-security policy, no framing, no sniffing, no referrer', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('keeps lastSeenAt and deletes expired sessions', async () => {
    const cookie = await signup(base, 'seen');
    const u = await t.db.prisma.user.findFirstOrThrow({ where: { username: 'seen' } });
    const long = new Date(Date.now() - 3 * 3600_000);
    await t.db.prisma.session.updateMany({ where: { userId: u.id }, data: { lastSeenAt: long } });
    await api(base, cookie, 'GET', '/api/auth/me');
    const s = await t.db.prisma.session.findFirstOrThrow({ where: { userId: u.id } });
    expect(s.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await t.db.prisma.session.updateMany({
      where: { userId: u.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    await app.purgeSessions();
    expect(await t.db.prisma.session.count({ where: { userId: u.id } })).toBe(0);
  });
});
