/**
 * Limits by account as well as by address: log-in attempts per account slow down (never lock the
 * owner's own browser out), socket events per account across its sockets and reconnections, caps
 * on sockets per address and per account, worlds per account per day, chat lines per minute and
 * join/leave churn, past turns replayed per address and per account; a stale order is answered with the patches it missed, not a full view.
 */
import type { PatchMessage } from '@bke/protocol';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const clients: TestClient[] = [];
const sockets: Socket[] = [];

const LIMITS = {
  authPerAddress: { burst: 1000, perMinute: 6000 },
  loginFreeFailures: 3,
  // The first wait is the longest, so that no turn comes during the test however slow the
  // machine: what is checked is which attempts are refused, not how long the waits are.
  loginFirstDelaySeconds: 600,
  loginMaxDelaySeconds: 600,
  socketEvents: { burst: 6, perSecond: 0.01 },
  socketsPerAddress: 12,
  socketsPerAccount: 3,
  worldsPerDay: 2,
  chatPerMinute: 3,
  joinsPerWorldPerDay: 2,
  staleOrderPatches: 20,
  replays: { burst: 2, perMinute: 0.01 },
};

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: LIMITS, trustProxy: true }));
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of sockets) s.close();
  await app?.close();
  await t?.dispose();
});

function open(cookie: string | null): Socket {
  const s = connect(base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(s);
  return s;
}
const greeted = (s: Socket) =>
  new Promise<{ ok: boolean; error?: { message: string; data?: unknown } }>((resolve) => {
    s.once('hello', () => resolve({ ok: true }));
    s.once('connect_error', (e: Error & { data?: unknown }) =>
      resolve({ ok: false, error: { message: e.message, data: e.data } }),
    );
  });

async function loginFrom(address: string, username: string, password: string, device?: string) {
  const headers: Record<string, string> = {
    'x-bke-csrf': '1',
    'content-type': 'application/json',
    'x-forwarded-for': address,
  };
  if (device) headers.cookie = device;
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username, password }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: string } },
    cookies: res.headers.getSetCookie(),
  };
}

describe('log-in attempts per account', () => {
  it('slow down after a few failures whatever the address, without checking the password meanwhile', async () => {
    await signup(base, 'victim');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await loginFrom(`198.51.100.${i + 1}`, 'victim', `guess-${i}xx`)).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual(Array(9).fill(429));
    const late = await loginFrom('203.0.113.50', 'victim', 'password123');
    expect(late.status).toBe(429);
    expect(late.body.error?.code).toBe('auth/slow_down');
  });

  it('checks no more guesses sent at once than one after another: each is counted as it arrives', async () => {
    await signup(base, 'rushed');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginFrom(`198.51.100.${i + 101}`, 'rushed', `guess-${i}xx`)),
    );
    const statuses = answers.map((r) => r.status).sort();
    // Counted only once they had failed, all twelve were checked (each still inside the free three).
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it('the owner’s own browser, known from an earlier log-in, is not locked out by the attack', async () => {
    await signup(base, 'owner');
    const first = await loginFrom('203.0.113.9', 'owner', 'password123');
    expect(first.status).toBe(200);
    const device = first.cookies.map((c) => c.split(';')[0]).find((c) => c?.startsWith('bke_device='));
    expect(device).toBeDefined();
    for (let i = 0; i < 8; i++) await loginFrom(`192.0.2.${i + 1}`, 'owner', `attack-${i}xx`);
    expect((await loginFrom('192.0.2.99', 'owner', 'password123')).status).toBe(429);
    expect((await loginFrom('203.0.113.9', 'owner', 'password123', device)).status).toBe(200);
  });
});

describe('sockets', () => {
  it('events are counted per account across its sockets: reconnecting does not refill the bucket', async () => {
    const cookie = await signup(base, 'chatty');
    const codes: string[] = [];
    for (let round = 0; round < 2; round++) {
      const s = open(cookie);
      await greeted(s);
      for (let i = 0; i < 4; i++) {
        const r = (await s.timeout(5000).emitWithAck('world/unsubscribe', {
          worldId: '00000000-0000-0000-0000-000000000000',
        })) as { ok: boolean; error?: { code: string } };
        codes.push(r.ok ? 'ok' : (r.error?.code ?? '?'));
      }
      s.close();
    }
    expect(codes.filter((c) => c === 'ok')).toHaveLength(6);
    expect(codes.slice(6)).toEqual(['socket/rate_limited', 'socket/rate_limited']);
  });

  it('caps the sockets of one account, and of one address, with a typed refusal', async () => {
    const cookie = await signup(base, 'tabby');
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await greeted(open(cookie)));
    expect(results.slice(0, 3).every((r) => r.ok)).toBe(true);
    expect(results[3]).toMatchObject({
      ok: false,
      error: { data: { code: 'socket/too_many', per: 'account' } },
    });
    for (const s of sockets.splice(0)) s.close();
    await new Promise((r) => setTimeout(r, 200));
    const anon = [];
    for (let i = 0; i < 13; i++) anon.push(await greeted(open(null)));
    expect(anon.filter((r) => r.ok)).toHaveLength(12);
    expect(anon[12]).toMatchObject({
      ok: false,
      error: { data: { code: 'socket/too_many', per: 'address' } },
    });
    for (const s of sockets.splice(0)) s.close();
  });
});

describe('worlds, chat and seats', () => {
  it('limits the worlds one account creates in a day', async () => {
    const cookie = await signup(base, 'builder');
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const r = await api(base, cookie, 'POST', '/api/worlds', { name: `World ${i}` });
      codes.push(r.status === 200 ? 'ok' : (r.body.error as { code: string }).code);
    }
    expect(codes).toEqual(['ok', 'ok', 'world/create_limit']);
  });

  it('limits the chat lines of one account per minute, across its sockets', async () => {
    const cookie = await signup(base, 'talker');
    const owner = await signup(base, 'host');
    const w = await api(base, owner, 'POST', '/api/worlds', { name: 'Chatter' });
    const worldId = (w.body.world as { id: string }).id;
    const results = [];
    for (let round = 0; round < 2; round++) {
      const c = new TestClient(base, cookie, worldId);
      clients.push(c);
      await c.subscribe();
      for (let i = 0; i < 2; i++) {
        const r = await c.emit('chat/send', { worldId, body: `line ${round}.${i}` });
        results.push(r.ok ? 'ok' : r.error.code);
      }
      c.close();
    }
    expect(results).toEqual(['ok', 'ok', 'ok', 'chat/too_fast']);
  });

  it('limits how often one account joins the same world in a day (join/leave churn)', async () => {
    const owner = await signup(base, 'keeper');
    const cookie = await signup(base, 'churner');
    const w = await api(base, owner, 'POST', '/api/worlds', { name: 'Churn' });
    const worldId = (w.body.world as { id: string }).id;
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const j = await api(base, cookie, 'POST', `/api/worlds/${worldId}/join`, {});
      codes.push(j.status === 200 ? 'ok' : (j.body.error as { code: string }).code);
      if (j.status === 200) await api(base, cookie, 'POST', `/api/worlds/${worldId}/leave`, {});
    }
    expect(codes).toEqual(['ok', 'ok', 'world/join_limit']);
  });
});

describe('replays of past turns', () => {
  it('are limited per address, and per account whatever the address', async () => {
    const cookie = await signup(base, 'historian');
    const w = await api(base, cookie, 'POST', '/api/worlds', { name: 'Archive' });
    const path = `/api/worlds/${(w.body.world as { id: string }).id}/replay/1`;
    const from = async (address: string, who: string | null) => {
      const headers: Record<string, string> = { 'x-forwarded-for': address };
      if (who) headers.cookie = who;
      const res = await fetch(`${base}${path}`, { headers });
      const body = (await res.json()) as { error?: { code: string } };
      return res.status === 429 ? body.error?.code : res.status;
    };
    // Anonymous visitors on one address: two, then a typed refusal; another address is not held up.
    expect([await from('198.51.100.7', null), await from('198.51.100.7', null)]).not.toContain(
      'http/rate_limited',
    );
    expect(await from('198.51.100.7', null)).toBe('http/rate_limited');
    expect(await from('198.51.100.8', null)).not.toBe('http/rate_limited');
    // One account hopping between addresses is still one account.
    expect(await from('198.51.100.9', cookie)).not.toBe('http/rate_limited');
    expect(await from('198.51.100.10', cookie)).not.toBe('http/rate_limited');
    expect(await from('198.51.100.11', cookie)).toBe('http/rate_limited');
  });
});

describe('stale orders', () => {
  it('are answered with the patches missed, not a full view', async () => {
    const a = await signup(base, 'stale_a');
    const b = await signup(base, 'stale_b');
    const w = await api(base, a, 'POST', '/api/worlds', { name: 'Stale', options: { victory: 'basic' } });
    const worldId = (w.body.world as { id: string }).id;
    for (const c of [a, b]) await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {});
    const ca = new TestClient(base, a, worldId);
    const cb = new TestClient(base, b, worldId);
    clients.push(ca, cb);
    await ca.subscribe();
    await cb.subscribe();
    // Play a few orders so that a version two behind is a small gap.
    const policy = { done: false };
    for (let i = 0; i < 3; i++) {
      const rt = await app.hub.get(worldId);
      if (!rt) throw new Error('no world');
      const p = rt.waitingFor()[0];
      const mover = p === ca.playerId ? ca : cb;
      const order = pickOrder(app.hub.engine.legalOrders(rt.state, p as never), policy);
      const r = await mover.order(order, rt.version);
      if (!r.ok) throw new Error(JSON.stringify(r));
    }
    const rt = await app.hub.get(worldId);
    const now = rt?.version ?? 0;
    const views: unknown[] = [];
    cb.socket.on('world/view', (v) => views.push(v));
    const stale = await cb.order({ type: 'endPhase' }, now - 2);
    expect(stale).toMatchObject({ ok: false, error: { code: 'sync/stale', version: now } });
    const patches = (stale as { error: { patches?: PatchMessage[] } }).error.patches ?? [];
    expect(patches.map((p) => p.to)).toEqual([now - 1, now]);
    await new Promise((r) => setTimeout(r, 300));
    expect(views).toEqual([]);
  });
});
