/**
 * Nobody reads or does what is not theirs: a report reveals nothing the reporter could not see;
 * an audited action commits with its audit row or not at all; a session's sockets end with the
 * session (logout, password change, expiry); a seat's rights end with the seat; a socket whose
 * session lookup failed for a passing reason signs in again once it can.
 */
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let mod: string;
let alice: string;
let bob: string;
let carol: string;
let worldId: string;
const clients: TestClient[] = [];

const client = (cookie: string | null, world = worldId) => {
  const c = new TestClient(base, cookie, world);
  clients.push(c);
  return c;
};
const disconnected = (s: Socket) =>
  new Promise<void>((resolve) => (s.disconnected ? resolve() : s.once('disconnect', () => resolve())));
const login = async (username: string, password = 'password123') => {
  const r = await api(base, null, 'POST', '/api/auth/login', { username, password });
  if (!r.cookie) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
  return r.cookie;
};

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 100, perMinute: 600 } } }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io),
  ));
  await createUser(t.db, 'mod1', 'password123', 'moderator');
  mod = await login('mod1');
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Access',
    options: { victory: 'basic' },
  });
  worldId = (created.body.world as { id: string }).id;
  for (const c of [alice, bob])
    expect((await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

describe('reports', () => {
  it('a report of a message the reporter could not read is refused as unknown, and shows no text', async () => {
    const a = client(alice);
    const b = client(bob);
    await a.subscribe();
    await b.subscribe();
    const secret = await b.emit<{ message: { id: string } }>('chat/send', {
      worldId,
      to: 'p1',
      body: 'the secret plan: east at dawn',
    });
    if (!secret.ok) throw new Error(JSON.stringify(secret));
    const r = await api(base, carol, 'POST', '/api/reports', {
      reason: 'curious',
      chatMessageId: secret.message.id,
    });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'moderation/not_found' } });
    expect(JSON.stringify(r.body)).not.toContain('secret plan');
    // The recipient may report it; the answer still carries no message text (moderators read it).
    const ok = await api(base, alice, 'POST', '/api/reports', {
      reason: 'threat',
      chatMessageId: secret.message.id,
    });
    expect(ok.status).toBe(200);
    expect(JSON.stringify(ok.body)).not.toContain('secret plan');
    const queue = await api(base, mod, 'GET', '/api/moderation/reports');
    expect(JSON.stringify(queue.body)).toContain('secret plan');
  });

  it('a deleted message cannot be read back through a report', async () => {
    const a = client(alice);
    await a.subscribe();
    const sent = await a.emit<{ message: { id: string } }>('chat/send', {
      worldId,
      body: 'words to be deleted',
    });
    if (!sent.ok) throw new Error(JSON.stringify(sent));
    expect(
      (
        await api(base, mod, 'POST', `/api/moderation/chat/${sent.message.id}/delete`, {
          reason: 'rude words',
        })
      ).status,
    ).toBe(200);
    const r = await api(base, carol, 'POST', '/api/reports', {
      reason: 'again',
      chatMessageId: sent.message.id,
    });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).not.toContain('to be deleted');
  });
});

describe('audit before action', () => {
  it('a reason holding a NUL is refused with a typed code before anything happens (mute, close)', async () => {
    const carolId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'carol' } })).id;
    const before = await t.db.prisma.moderationAction.count();
    const mute = await api(base, mod, 'POST', `/api/moderation/users/${carolId}/mute`, {
      reason: 'spam\u0000',
    });
    expect(mute.status).toBe(400);
    expect(mute.body).toMatchObject({ error: { code: 'text/control_characters' } });
    const close = await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/close`, {
      reason: 'bye\u0000',
    });
    expect(close.status).toBe(400);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: carolId } })).mutedUntil).toBeNull();
    expect((await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } })).status).not.toBe('closed');
    expect(await t.db.prisma.moderationAction.count()).toBe(before);
  });

  it('when the audit row cannot be written the action is undone with it', async () => {
    // The database itself refuses this one audit row, after the action's own writes went through.
    await t.db.sql(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reason = 'the audit refuses this' THEN RAISE EXCEPTION 'no audit'; END IF; RETURN NEW; END $$`);
    await t.db.sql(`CREATE TRIGGER refuse_audit BEFORE INSERT ON moderation_actions
      FOR EACH ROW EXECUTE FUNCTION refuse_audit()`);
    try {
      const carolId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'carol' } })).id;
      const before = await t.db.prisma.moderationAction.count();
      const pause = await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/pause`, {
        reason: 'the audit refuses this',
      });
      expect(pause.status).toBe(500);
      expect((await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } })).status).not.toBe(
        'paused',
      );
      const rt = await app.hub.get(worldId);
      expect(rt?.settings.status).not.toBe('paused');
      const ban = await api(base, mod, 'POST', `/api/moderation/users/${carolId}/ban`, {
        reason: 'the audit refuses this',
      });
      expect(ban.status).toBe(500);
      expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: carolId } })).bannedUntil).toBeNull();
      expect(await t.db.prisma.session.count({ where: { userId: carolId } })).toBeGreaterThan(0);
      const remove = await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/seats/p2/remove`, {
        reason: 'the audit refuses this',
      });
      expect(remove.status).toBe(500);
      const seat = await t.db.prisma.worldSeat.findFirstOrThrow({ where: { worldId, playerId: 'p2' } });
      expect(seat.leftAt).toBeNull();
      expect((await app.hub.get(worldId))?.version).toBe(
        await t.db.prisma.worldOrder.count({ where: { worldId } }),
      );
      expect(await t.db.prisma.moderationAction.count()).toBe(before);
      // Once the audit row can be written, the same action goes through with it.
      const again = await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/pause`, {
        reason: 'for real',
      });
      expect(again.status).toBe(200);
      expect(await t.db.prisma.moderationAction.count()).toBe(before + 1);
      expect(
        (await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/resume`, { reason: 'done' })).status,
      ).toBe(200);
    } finally {
      await t.db.sql('DROP TRIGGER refuse_audit ON moderation_actions');
      await t.db.sql('DROP FUNCTION refuse_audit()');
    }
  });
});

describe('sessions end everywhere', () => {
  it('logging out ends the sockets opened with that session: they can no longer chat or order', async () => {
    const cookie = await login('alice');
    const c = client(cookie);
    expect((await c.subscribe()).ok).toBe(true);
    const other = client(alice); // another session of the same account stays
    await other.subscribe();
    expect((await api(base, cookie, 'POST', '/api/auth/logout', {})).status).toBe(200);
    await Promise.race([disconnected(c.socket), new Promise((r) => setTimeout(r, 3000))]);
    if (c.socket.connected) {
      const said = await c.emit('chat/send', { worldId, body: 'still here?' });
      expect(said.ok).toBe(false);
    }
    expect(c.socket.connected).toBe(false);
    expect(other.socket.connected).toBe(true);
  });

  it('a password change ends the account’s other sessions and their sockets', async () => {
    await signup(base, 'dora');
    const first = await login('dora');
    const second = await login('dora');
    const c = client(first);
    await c.ready();
    const r = await api(base, second, 'POST', '/api/account/password', {
      current: 'password123',
      next: 'a new password 456',
    });
    expect(r.status).toBe(200);
    await Promise.race([disconnected(c.socket), new Promise((x) => setTimeout(x, 3000))]);
    expect(c.socket.connected).toBe(false);
    expect((await api(base, first, 'GET', '/api/auth/me')).body).toEqual({ user: null });
    expect((await api(base, second, 'GET', '/api/auth/me')).body).toMatchObject({
      user: { username: 'dora' },
    });
    await login('dora', 'a new password 456');
  });

  it('an expired session is purged and its sockets end', async () => {
    await signup(base, 'erin');
    const cookie = await login('erin');
    const c = client(cookie);
    await c.ready();
    const erin = await t.db.prisma.user.findFirstOrThrow({ where: { username: 'erin' } });
    await t.db.prisma.session.updateMany({
      where: { userId: erin.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await app.purgeSessions();
    expect(await t.db.prisma.session.count({ where: { userId: erin.id } })).toBe(0);
    await Promise.race([disconnected(c.socket), new Promise((x) => setTimeout(x, 3000))]);
    expect(c.socket.connected).toBe(false);
  });

  it('a player who left cannot order or send private chat as the old seat from an open socket', async () => {
    await signup(base, 'fred');
    const fred = await login('fred');
    expect((await api(base, fred, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    const c = client(fred);
    const sub = await c.subscribe();
    if (!sub.ok) throw new Error(JSON.stringify(sub));
    expect(sub.playerId).toBe('p3');
    expect((await api(base, fred, 'POST', `/api/worlds/${worldId}/leave`, {})).status).toBe(200);
    const said = await c.emit('chat/send', { worldId, to: 'p1', body: 'I am still p3' });
    expect(said).toMatchObject({ ok: false });
    const rt = await app.hub.get(worldId);
    const ordered = await c.order({ type: 'endPhase' }, rt?.version ?? 0);
    expect(ordered).toMatchObject({ ok: false });
    const priced = await c.emit('world/planCost', { worldId, plan: {} });
    expect(priced).toMatchObject({ ok: false });
    const stored = await t.db.prisma.chatMessage.count({ where: { body: 'I am still p3' } });
    expect(stored).toBe(0);
  });
});

describe('orders are checked against the session and the seat as they are stored', () => {
  /** A fresh world of alice and bob; the seat the world waits for, its holder's name and a legal order. */
  async function fresh(name: string) {
    const w = await api(base, mod, 'POST', '/api/worlds', { name, options: { victory: 'basic' } });
    const id = (w.body.world as { id: string }).id;
    for (const c of [alice, bob])
      expect((await api(base, c, 'POST', `/api/worlds/${id}/join`, {})).status).toBe(200);
    const rt = await app.hub.get(id);
    if (!rt) throw new Error('no world');
    await rt.settled();
    const playerId = rt.waitingFor()[0] as string;
    const seat = await t.db.prisma.worldSeat.findFirstOrThrow({
      where: { worldId: id, playerId },
      include: { user: true },
    });
    const order = pickOrder(app.hub.engine.legalOrders(rt.state, playerId as never), {
      done: false,
    });
    if (!order) throw new Error('nothing legal');
    return { id, playerId, seat, order, version: rt.version };
  }

  it('a seat handed to someone else by another process cannot be played from the old socket', async () => {
    const f = await fresh('Handed');
    const c = client(await login(f.seat.user!.username), f.id);
    const sub = await c.subscribe();
    if (!sub.ok || sub.playerId !== f.playerId) throw new Error(JSON.stringify(sub));
    const carolId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'carol' } })).id;
    // As another server process would: the seat changes hands in the database, no socket is told.
    await t.db.prisma.worldSeat.update({
      where: { worldId_playerId: { worldId: f.id, playerId: f.playerId } },
      data: { userId: carolId },
    });
    const r = await c.order(f.order, f.version);
    expect(r).toMatchObject({ ok: false, error: { code: 'world/not_seated' } });
    expect(await t.db.prisma.worldOrder.count({ where: { worldId: f.id } })).toBe(f.version);
  });

  it('a session ended by another process cannot order from its open socket, which is then closed', async () => {
    const f = await fresh('Ended');
    const cookie = await login(f.seat.user!.username);
    const c = client(cookie, f.id);
    const sub = await c.subscribe();
    if (!sub.ok) throw new Error(JSON.stringify(sub));
    const { sessionIdOf } = await import('../src/auth/sessions.ts');
    await t.db.prisma.session.delete({ where: { id: sessionIdOf(cookie.slice(cookie.indexOf('=') + 1)) } });
    const r = await c.order(f.order, f.version);
    expect(r).toMatchObject({ ok: false, error: { code: 'auth/required' } });
    expect(await t.db.prisma.worldOrder.count({ where: { worldId: f.id } })).toBe(f.version);
    await Promise.race([disconnected(c.socket), new Promise((x) => setTimeout(x, 3000))]);
    expect(c.socket.connected).toBe(false);
  });
});

describe('a session lookup that failed for a passing reason', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'is told so, and the socket is signed in once the database answers again',
    async () => {
      const name = new URL(t.url ?? '').pathname.slice(1);
      const admin = async (sql: string) => {
        const pg = (await import('pg')).default;
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        try {
          await c.query(sql);
        } finally {
          await c.end();
        }
      };
      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      const hellos: { user?: unknown; auth?: unknown }[] = [];
      const errors: { code?: string }[] = [];
      const s = connect(base, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: { cookie: bob },
      });
      s.on('hello', (h) => hellos.push(h));
      s.on('error', (e) => errors.push(e));
      try {
        await waitFor('a first hello', () => hellos.length > 0, 10_000);
        expect(hellos[0]?.user ?? null).toBeNull();
        // Told either way: the hello says the sign-in is unavailable, or an error event names it.
        const told = hellos[0]?.auth === 'unavailable' || errors.some((e) => e.code === 'auth/unavailable');
        expect(told).toBe(true);
      } finally {
        await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      }
      await waitFor(
        'a hello naming bob',
        () => hellos.some((h) => (h.user as { username?: string } | null)?.username === 'bob'),
        20_000,
      );
      s.close();
    },
    60_000,
  );
});
