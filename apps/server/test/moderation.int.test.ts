/**
 * Moderation through the HTTP API on a real database: every route refuses plain players
 * (and anonymous callers, and moderators on admin routes); every action works and lands in the
 * append-only audit log; a rollback restores exactly the state at the start of the turn (equal
 * engine state hash), also after a reload from the database.
 */
import {
  MODERATION_NOTICE_EVENT,
  MODERATION_ROUTES,
  type ModerationNotice,
  type ModerationRouteKey,
} from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import type { Notifier } from '../src/moderation/notify.ts';
import { socketNotifier } from '../src/moderation/notify.ts';
import { startRangeWorkers, stopRangeWorkers } from '../src/worlds/range-workers.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { rebuildInRanges } from '../src/worlds/rebuild-parallel.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let admin: string;
let mod: string;
let alice: string;
let bob: string;
let carol: string;
const ids: Record<string, string> = {};
let worldId: string;
const told: { worldId: string; action: string; text: string }[] = [];
const clients: TestClient[] = [];

async function login(username: string, role: 'admin' | 'moderator') {
  await createUser(t.db, username, 'password123', role);
  const r = await api(base, null, 'POST', '/api/auth/login', { username, password: 'password123' });
  if (!r.cookie) throw new Error('login failed');
  return r.cookie;
}

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 50, perMinute: 60 } } }, (a) => {
    // A notifier that records what players are told, then tells them through the sockets as usual.
    const real = socketNotifier(t.db, a.io);
    const notifier: Notifier = {
      ...real,
      async notice(w, actor, action, text, reason) {
        told.push({ worldId: w, action, text });
        return real.notice(w, actor, action, text, reason);
      },
    };
    registerModeration(a.http, t.db, a.hub, a.io, {
      notifier,
      limits: { burst: 500, perSecond: 50 },
      reportLimits: { burst: 3, perSecond: 0.001 },
    });
  }));
  admin = await login('admin1', 'admin');
  mod = await login('mod1', 'moderator');
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
  for (const u of await t.db.prisma.user.findMany()) ids[u.username] = u.id;
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Moderated',
    options: { victory: 'basic' },
    deadline: { mode: 'live', minutesPerPhase: 10 },
  });
  worldId = (created.body.world as { id: string }).id;
  for (const c of [alice, bob]) {
    const j = await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(j.body).toMatchObject({ seat: {} });
  }
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const path = (p: string, world = worldId) =>
  p
    .replace('/worlds/:id', `/worlds/${world}`)
    .replace(':playerId', 'p1')
    .replace('/users/:id', `/users/${ids.carol}`)
    .replace(':id', '1');

const post = (cookie: string | null, key: ModerationRouteKey, body: unknown, p?: string) =>
  api(base, cookie, 'POST', p ?? path(MODERATION_ROUTES[key].path), body);

/**
 * Plays the order the engine's default policy picks for whoever the world waits for. Seats in
 * `absent` are left to the server, which holds them from the world's queue: a hold that commits
 * queues the next hold behind whatever waited on the queue, so such a seat can still be waited
 * for for a moment after `settled()`; look again rather than play for it.
 */
async function playUntilTurn(turn: number, absent: ReadonlySet<string> = new Set()): Promise<void> {
  const policy = { done: false };
  for (let i = 0; i < 600; i++) {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    await rt.settled();
    if (rt.state.turn >= turn) return;
    const waiting = rt.waitingFor();
    if (waiting.length === 0) throw new Error('nobody to wait for');
    const p = waiting.find((w) => !absent.has(w));
    if (!p) {
      await new Promise((x) => setTimeout(x, 5));
      continue;
    }
    const seat = await app.hub.activeSeat(worldId, ids[p === 'p1' ? 'alice' : 'bob'] ?? '');
    const order = pickOrder(app.hub.engine.legalOrders(rt.state, p), policy);
    if (!order || !seat) throw new Error(`stuck: ${p}`);
    const r = await app.hub.order(worldId, p, seat.userId!, rt.version, order);
    // An absent seat's defaults are committed from the world's queue after each commit: a stale
    // version here only means they went first; wait for the queue and look again.
    if (!r.ok && r.error.code === 'sync/stale') {
      await rt.settled();
      continue;
    }
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  throw new Error('the game did not reach the turn');
}

async function audit(action: string) {
  return t.db.prisma.moderationAction.findMany({ where: { action }, orderBy: { id: 'asc' } });
}

describe('role checks', () => {
  const routes = Object.entries(MODERATION_ROUTES) as [
    ModerationRouteKey,
    (typeof MODERATION_ROUTES)[ModerationRouteKey],
  ][];
  const call = (cookie: string | null, r: (typeof routes)[number][1]) =>
    api(base, cookie, r.method, path(r.path), r.method === 'POST' ? { reason: 'role check' } : undefined);

  it.each(routes.filter(([, r]) => r.level !== 'user'))('a plain player cannot call %s', async (_k, r) => {
    const before = await t.db.prisma.moderationAction.count();
    const res = await call(alice, r);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'auth/forbidden' } });
    expect(await t.db.prisma.moderationAction.count()).toBe(before);
  });

  it.each(routes)('an anonymous caller cannot call %s', async (_k, r) => {
    const res = await call(null, r);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'auth/required' } });
  });

  it.each(routes.filter(([, r]) => r.level === 'admin'))(
    'a moderator cannot call the admin route %s',
    async (_k, r) => {
      const res = await call(mod, r);
      expect(res.status).toBe(403);
    },
  );

  it('every body is parsed: a reason is required, unknown fields are refused', async () => {
    const none = await post(mod, 'pauseWorld', {});
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: { code: 'http/invalid' } });
    const extra = await post(mod, 'pauseWorld', { reason: 'spam spam', sneaky: true });
    expect(extra.status).toBe(400);
    const badId = await api(base, mod, 'POST', '/api/moderation/worlds/not-a-uuid/pause', { reason: 'abc' });
    expect(badId.status).toBe(404);
  });
});

describe('world controls', () => {
  it('pauses: deadline frozen, orders refused, players told why; resumes with the time that was left', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const left = (rt.head.deadlineAt?.getTime() ?? 0) - Date.now();
    const a = new TestClient(base, alice, worldId);
    clients.push(a);
    await a.subscribe();
    const r = await post(mod, 'pauseWorld', { reason: 'server maintenance' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      action: { action: 'world.pause', reason: 'server maintenance' },
    });
    expect(rt.settings.status).toBe('paused');
    expect(rt.head.deadlineAt).toBeNull();
    const w = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(w).toMatchObject({ status: 'paused', deadlineAt: null, pauseReason: 'server maintenance' });
    expect(Math.abs((w.pausedRemainingMs ?? 0) - left)).toBeLessThan(2000);
    const refused = await a.order({ type: 'endPhase' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'world/paused' } });
    const until = Date.now() + 3000;
    while (a.status?.status !== 'paused' && Date.now() < until) await new Promise((x) => setTimeout(x, 20));
    expect(a.status?.status).toBe('paused');
    while (!a.chat.some((m) => m.body.includes('server maintenance')) && Date.now() < until)
      await new Promise((x) => setTimeout(x, 20));
    expect(a.chat.some((m) => m.body.includes('server maintenance'))).toBe(true);
    expect(told.at(-1)).toMatchObject({ worldId, action: 'world.pause' });
    expect((await post(mod, 'pauseWorld', { reason: 'again' })).body).toMatchObject({
      error: { code: 'moderation/already_paused' },
    });
    const resumed = await post(admin, 'resumeWorld', { reason: 'maintenance over' });
    expect(resumed.status).toBe(200);
    expect(rt.settings.status).toBe('running');
    const remaining = (rt.head.deadlineAt?.getTime() ?? 0) - Date.now();
    expect(Math.abs(remaining - left)).toBeLessThan(3000);
    expect((await post(mod, 'resumeWorld', { reason: 'again' })).body).toMatchObject({
      error: { code: 'moderation/not_paused' },
    });
  });

  it('extends and shortens the current deadline', async () => {
    const rt = await app.hub.get(worldId);
    const before = rt?.head.deadlineAt?.getTime() ?? 0;
    expect((await post(mod, 'changeDeadline', { reason: 'holiday', shiftSeconds: 3600 })).status).toBe(200);
    expect(rt?.head.deadlineAt?.getTime()).toBe(before + 3_600_000);
    const db = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(db.deadlineAt?.getTime()).toBe(before + 3_600_000);
    expect((await post(mod, 'changeDeadline', { reason: 'back again', shiftSeconds: -1800 })).status).toBe(
      200,
    );
    expect(rt?.head.deadlineAt?.getTime()).toBe(before + 1_800_000);
    const both = await post(mod, 'changeDeadline', {
      reason: 'x y z',
      shiftSeconds: 1,
      deadlineAt: new Date().toISOString(),
    });
    expect(both.status).toBe(400);
  });

  it('changes the deadline settings from the next step on', async () => {
    const r = await post(mod, 'changeSettings', {
      reason: 'slower pace',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: false,
    });
    expect(r.status).toBe(200);
    const rt = await app.hub.get(worldId);
    expect(rt?.settings).toMatchObject({ phaseSeconds: 86_400, earlyResolution: false });
    const w = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(w).toMatchObject({ phaseSeconds: 86_400, deadlineMode: 'correspondence', earlyResolution: false });
    await post(mod, 'changeSettings', {
      reason: 'back to live',
      deadline: { mode: 'live', minutesPerPhase: 10 },
      earlyResolution: true,
    });
  });

  it('resolves the current step now with the default orders', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const step = rt.head.stepKey;
    const version = rt.version;
    const r = await post(mod, 'resolveNow', { reason: 'everyone asleep' });
    expect(r.status).toBe(200);
    expect(rt.version).toBeGreaterThan(version);
    expect(rt.head.stepKey).not.toBe(step);
    const timeouts = await t.db.prisma.worldOrder.count({ where: { worldId, kind: 'timeout' } });
    expect(timeouts).toBeGreaterThan(0);
  });
});

describe('rollback', () => {
  it('returns the world to the start of an earlier turn: equal state hash, undone orders kept', async () => {
    await playUntilTurn(2);
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const atTurn2 = { version: rt.version, hash: app.hub.engine.hash(rt.state) };
    await playUntilTurn(3);
    const turns = await api(base, mod, 'GET', `/api/moderation/worlds/${worldId}/turns`);
    const t2 = (turns.body.turns as { turn: number; seq: number }[]).find((x) => x.turn === 2);
    // Both players joined before turn 2 began: a rollback to it frees no seat.
    expect(t2).toEqual({ turn: 2, seq: atTurn2.version, unseats: [] });
    const logBefore = await t.db.prisma.worldOrder.count({ where: { worldId } });
    const versionBefore = rt.version;
    const r = await post(mod, 'rollbackWorld', { reason: 'a bug ate a stack', turn: 2 });
    expect(r.status).toBe(200);
    expect(app.hub.engine.hash(rt.state)).toBe(atTurn2.hash);
    expect(rt.version).toBe(versionBefore + 1);
    // Nothing deleted: one row added, the undone ones are listed in the audit entry.
    expect(await t.db.prisma.worldOrder.count({ where: { worldId } })).toBe(logBefore + 1);
    const [entry] = await audit('world.rollback');
    // The entry confirms what was restored: the state hash at the start of turn 2.
    expect((entry?.params as { hash?: string } | undefined)?.hash).toBe(atTurn2.hash);
    const undone = (entry?.params as { undone: { seq: number }[] } | undefined)?.undone ?? [];
    expect(undone.map((u) => u.seq)).toEqual(
      Array.from({ length: versionBefore - atTurn2.version }, (_, i) => atTurn2.version + 1 + i),
    );
    // A fresh process loads the same state from the database.
    app.hub.forget();
    const reloaded = await app.hub.get(worldId);
    expect(reloaded && app.hub.engine.hash(reloaded.state)).toBe(atTurn2.hash);
    // Play resumes on the restored timeline; a second rollback to the same turn works again.
    await playUntilTurn(3);
    const again = await post(admin, 'rollbackWorld', { reason: 'once more', turn: 2 });
    expect(again.status).toBe(200);
    const rt2 = await app.hub.get(worldId);
    expect(rt2 && app.hub.engine.hash(rt2.state)).toBe(atTurn2.hash);
    expect((await post(mod, 'rollbackWorld', { reason: 'the future', turn: 9 })).body).toMatchObject({
      error: { code: 'moderation/no_such_turn' },
    });
    expect(told.some((x) => x.action === 'world.rollback')).toBe(true);
  });

  it('a subscribed client follows the rollback with an ordinary patch', async () => {
    const b = new TestClient(base, bob, worldId);
    clients.push(b);
    await b.subscribe();
    await playUntilTurn(3);
    const r = await post(mod, 'rollbackWorld', { reason: 'testing clients', turn: 2 });
    expect(r.status).toBe(200);
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    await b.until(rt.version);
    expect(b.gaps).toBe(0);
    expect((b.view as { turn: number }).turn).toBe(2);
    // A new visitor's history is the log as it now stands: the rollback's own line last, nothing of
    // the turn it undid, every earlier turn still there.
    const late = new TestClient(base, carol, worldId);
    clients.push(late);
    const sub = await late.subscribe();
    if (!sub.ok) throw new Error('subscribe failed');
    const last = (await audit('world.rollback')).at(-1);
    if (!last) throw new Error('no rollback audited');
    const undone = new Set((last.params as { undone: { seq: number }[] }).undone.map((u) => u.seq));
    expect(sub.recent.length).toBeGreaterThan(1);
    expect(sub.recent.filter((e) => undone.has(e.seq))).toEqual([]);
    expect(sub.recent.at(-1)?.event).toMatchObject({ type: 'worldRolledBack', turn: 2 });
    expect(sub.recent.some((e) => e.event.type === 'turnStarted' && e.event.turn === 3)).toBe(false);
    expect(sub.recent.some((e) => e.event.type === 'turnStarted' && e.event.turn === 2)).toBe(true);
  });

  it('a rollback to before a player joined says so first, then tells her and moves her page off the seat', async () => {
    // Carol joins during turn 2: a rollback to its start takes her seat with it.
    const j = await api(base, carol, 'POST', `/api/worlds/${worldId}/join`, {});
    const playerId = (j.body as { seat: { playerId: string } }).seat.playerId;
    const turns = await api(base, mod, 'GET', `/api/moderation/worlds/${worldId}/turns`);
    const listed = turns.body.turns as { turn: number; unseats: string[] }[];
    // The moderator's confirmation can name her seat, and only hers.
    expect(listed.find((x) => x.turn === 2)?.unseats).toEqual([playerId]);
    const c = new TestClient(base, carol, worldId);
    clients.push(c);
    await c.subscribe();
    expect(c.view?.viewer).toBe(playerId);
    const seen: string[] = [];
    c.socket.on(MODERATION_NOTICE_EVENT, (n: ModerationNotice, received?: () => void) => {
      seen.push(`told ${n.action} to turn ${n.turn}${n.unseated ? ', unseated' : ''}: ${n.reason}`);
      received?.();
    });
    c.socket.on('disconnect', (why: string) => seen.push(`ended: ${why}`));
    const r = await post(mod, 'rollbackWorld', { reason: 'a stuck combat', turn: 2 });
    expect(r.status).toBe(200);
    // Told in words first (the world's notice, then her own), then her seat's socket is ended so
    // her page comes back as a spectator's.
    await waitFor('the seat socket ended', () => !c.socket.connected);
    expect(seen.filter((x) => x.includes('unseated') || x.startsWith('ended'))).toEqual([
      'told world.rollback to turn 2, unseated: a stuck combat',
      'ended: io server disconnect',
    ]);
    const seat = await t.db.prisma.worldSeat.findUniqueOrThrow({
      where: { worldId_playerId: { worldId, playerId } },
    });
    expect(seat.leftAt).not.toBeNull();
    const [entry] = (await audit('world.rollback')).slice(-1);
    expect((entry?.params as { unseated?: unknown } | undefined)?.unseated).toEqual([
      { playerId, userId: ids.carol },
    ]);
    // Her next visit, from any browser: the world's record says which rollback took the seat.
    const record = await api(base, carol, 'GET', `/api/worlds/${worldId}`);
    const seats = (
      record.body.world as { seats: { playerId: string; left: boolean; unseatedAtTurn?: number }[] }
    ).seats;
    expect(seats.find((x) => x.playerId === playerId)).toMatchObject({ left: true, unseatedAtTurn: 2 });
    expect(seats.filter((x) => x.unseatedAtTurn !== undefined)).toHaveLength(1);
    // Alice and Bob keep theirs.
    const rt = await app.hub.get(worldId);
    expect(rt?.state.players.map((p) => p.id)).not.toContain(playerId);
  });

  it('a rollback while paused keeps the world paused, with one full step to play on resume', async () => {
    await playUntilTurn(3);
    expect((await post(mod, 'pauseWorld', { reason: 'investigating' })).status).toBe(200);
    expect((await post(mod, 'rollbackWorld', { reason: 'found it', turn: 2 })).status).toBe(200);
    const rt = await app.hub.get(worldId);
    expect(rt?.settings.status).toBe('paused');
    expect(rt?.state.turn).toBe(2);
    const w = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(w).toMatchObject({ status: 'paused', deadlineAt: null, pausedRemainingMs: 600_000 });
    expect((await post(mod, 'resumeWorld', { reason: 'carry on' })).status).toBe(200);
    expect(rt?.settings.status).toBe('running');
  });
});

describe('players and accounts', () => {
  it('marks a seat absent: default orders hold it at once', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const r = await post(
      mod,
      'markAbsent',
      { reason: 'on holiday', absent: true },
      `/api/moderation/worlds/${worldId}/seats/p2/absent`,
    );
    expect(r.status).toBe(200);
    await playUntilTurn(rt.state.turn + 1, new Set(['p2']));
    await new Promise((x) => setTimeout(x, 100));
    const held = await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p2', kind: 'timeout' } });
    expect(held).toBeGreaterThan(0);
    expect(rt.waitingFor()).not.toContain('p2');
    await post(
      mod,
      'markAbsent',
      { reason: 'back', absent: false },
      `/api/moderation/worlds/${worldId}/seats/p2/absent`,
    );
  });

  it('a player going away is held by default orders at once, and comes back', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const spectator = await api(base, carol, 'POST', `/api/worlds/${worldId}/away`, { away: true });
    expect(spectator).toMatchObject({ status: 409, body: { error: { code: 'world/not_seated' } } });
    const bad = await api(base, bob, 'POST', `/api/worlds/${worldId}/away`, { away: 'yes' });
    expect(bad.status).toBe(400);
    const before = await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p2', kind: 'timeout' } });
    const away = await api(base, bob, 'POST', `/api/worlds/${worldId}/away`, { away: true });
    expect(away).toMatchObject({ status: 200, body: { away: true } });
    const shown = await api(base, alice, 'GET', `/api/worlds/${worldId}`);
    const seats = (shown.body.world as { seats: { playerId: string; away: boolean }[] }).seats;
    expect(seats.find((x) => x.playerId === 'p2')?.away).toBe(true);
    await playUntilTurn(rt.state.turn + 1, new Set(['p2']));
    await rt.settled();
    const after = await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p2', kind: 'timeout' } });
    expect(after).toBeGreaterThan(before);
    expect(rt.waitingFor()).not.toContain('p2');
    // Back: the world waits for Bob again when it is his move.
    expect((await api(base, bob, 'POST', `/api/worlds/${worldId}/away`, { away: false })).status).toBe(200);
    await playUntilTurn(rt.state.turn + 1);
    const seat = await t.db.prisma.worldSeat.findFirstOrThrow({ where: { worldId, playerId: 'p2' } });
    expect(seat.absent).toBe(false);
  });

  it('hands a seat to another account', async () => {
    const r = await post(
      mod,
      'handOverSeat',
      { reason: 'bob asked for a sub', username: 'carol' },
      `/api/moderation/worlds/${worldId}/seats/p2/hand-over`,
    );
    expect(r.status).toBe(200);
    const seat = await app.hub.activeSeat(worldId, ids.carol ?? '');
    expect(seat?.playerId).toBe('p2');
    expect(await app.hub.activeSeat(worldId, ids.bob ?? '')).toBeNull();
    const taken = await post(
      mod,
      'handOverSeat',
      { reason: 'again', username: 'alice' },
      `/api/moderation/worlds/${worldId}/seats/p2/hand-over`,
    );
    expect(taken.body).toMatchObject({ error: { code: 'moderation/seat_taken' } });
  });

  it('removes a player: the position is abandoned by the engine and the seat freed', async () => {
    const r = await post(
      mod,
      'removePlayer',
      { reason: 'abusive' },
      `/api/moderation/worlds/${worldId}/seats/p2/remove`,
    );
    expect(r.status).toBe(200);
    const rt = await app.hub.get(worldId);
    expect(rt?.state.players.find((p) => p.id === 'p2')?.status).toBe('left');
    const seat = await t.db.prisma.worldSeat.findUniqueOrThrow({
      where: { worldId_playerId: { worldId, playerId: 'p2' } },
    });
    expect(seat.leftAt).not.toBeNull();
    const sys = await t.db.prisma.worldOrder.findMany({
      where: { worldId, kind: 'system' },
      orderBy: { seq: 'desc' },
      take: 2,
    });
    expect(sys.map((o) => (o.order as { type: string }).type).sort()).toEqual(['forceAbandon', 'leave']);
    // The removed account may come back once a moderator allows it (moderation-safety.int.test.ts).
    const allowed = await post(
      mod,
      'allowRejoin',
      { reason: 'apologised' },
      `/api/moderation/worlds/${worldId}/seats/p2/allow-rejoin`,
    );
    expect(allowed.status).toBe(200);
  });

  it('mutes and unmutes: a muted account cannot chat', async () => {
    const c = new TestClient(base, carol, worldId);
    clients.push(c);
    await c.subscribe();
    expect((await post(mod, 'muteUser', { reason: 'insults', until: null })).status).toBe(200);
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: ids.carol ?? '' } });
    expect(u.mutedUntil?.getUTCFullYear()).toBe(9999);
    const refused = await c.emit('chat/send', { worldId, body: 'more insults' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'chat/muted' } });
    expect(await t.db.prisma.chatMessage.count({ where: { body: 'more insults' } })).toBe(0);
    expect((await post(mod, 'unmuteUser', { reason: 'apologised' })).status).toBe(200);
    expect((await c.emit('chat/send', { worldId, body: 'sorry all' })).ok).toBe(true);
  });

  it('bans: sessions end, login refused, sockets closed; unban restores login', async () => {
    const c = new TestClient(base, carol, worldId);
    clients.push(c);
    await c.subscribe();
    // The page keeps the notice and says so; only then does the server end its socket.
    const seen: string[] = [];
    c.socket.on(MODERATION_NOTICE_EVENT, (n: ModerationNotice, received?: () => void) => {
      seen.push(`told ${n.action}: ${n.reason}`);
      received?.();
    });
    c.socket.on('disconnect', (why: string) => seen.push(`ended: ${why}`));
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const r = await post(mod, 'banUser', { reason: 'cheating', until });
    expect(r.status).toBe(200);
    expect(await t.db.prisma.session.count({ where: { userId: ids.carol ?? '' } })).toBe(0);
    const me = await api(base, carol, 'GET', '/api/auth/me');
    expect((me.body as { user: unknown }).user).toBeNull();
    const login = await api(base, null, 'POST', '/api/auth/login', {
      username: 'carol',
      password: 'password123',
    });
    expect(login.body).toMatchObject({ error: { code: 'auth/banned' } });
    await waitFor('the socket ended', () => !c.socket.connected);
    expect(seen).toEqual(['told user.ban: cheating', 'ended: io server disconnect']);
    expect((await post(mod, 'unbanUser', { reason: 'appeal accepted' })).status).toBe(200);
    const back = await api(base, null, 'POST', '/api/auth/login', {
      username: 'carol',
      password: 'password123',
    });
    expect(back.status).toBe(200);
    carol = back.cookie ?? carol;
  });

  it('a moderator cannot act on a moderator or on themselves; an admin sets roles', async () => {
    const other = await post(
      mod,
      'banUser',
      { reason: 'power trip' },
      `/api/moderation/users/${ids.admin1}/ban`,
    );
    expect(other.body).toMatchObject({ error: { code: 'moderation/outranked' } });
    const self = await post(admin, 'banUser', { reason: 'oops' }, `/api/moderation/users/${ids.admin1}/ban`);
    expect(self.body).toMatchObject({ error: { code: 'auth/forbidden' } });
    expect((await post(admin, 'setRole', { reason: 'trusted', role: 'moderator' })).status).toBe(200);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: ids.carol ?? '' } })).role).toBe(
      'moderator',
    );
    expect((await post(admin, 'setRole', { reason: 'back to play', role: 'player' })).status).toBe(200);
  });
});

describe('chat and reports', () => {
  it('a player reports a message; the moderator deletes it and resolves the report; another is dismissed', async () => {
    const a = new TestClient(base, alice, worldId);
    clients.push(a);
    await a.subscribe();
    const deletions: { id: string }[] = [];
    a.socket.on('chat/deleted', (m: { id: string }) => deletions.push(m));
    const sent = await a.emit<{ message: { id: string } }>('chat/send', { worldId, body: 'rude words' });
    if (!sent.ok) throw new Error('chat failed');
    const rep = await api(base, bob, 'POST', '/api/reports', {
      reason: 'insulting',
      chatMessageId: sent.message.id,
    });
    expect(rep.status).toBe(200);
    const reportId = (rep.body.report as { id: string }).id;
    const queue = await api(base, mod, 'GET', '/api/moderation/reports');
    expect(
      (queue.body.reports as { id: string; chatMessage: { body: string } }[]).map((x) => [
        x.id,
        x.chatMessage.body,
      ]),
    ).toEqual([[reportId, 'rude words']]);
    const del = await post(
      mod,
      'deleteChat',
      { reason: 'insulting' },
      `/api/moderation/chat/${sent.message.id}/delete`,
    );
    expect(del.status).toBe(200);
    const end = Date.now() + 3000;
    while (deletions.length === 0 && Date.now() < end) await new Promise((x) => setTimeout(x, 20));
    expect(deletions).toEqual([{ worldId, id: sent.message.id }]);
    const again = await post(
      mod,
      'deleteChat',
      { reason: 'insulting' },
      `/api/moderation/chat/${sent.message.id}/delete`,
    );
    expect(again.status).toBe(404);
    const fresh = new TestClient(base, alice, worldId);
    clients.push(fresh);
    const sub = await fresh.subscribe();
    expect(sub.ok && sub.chat.map((m) => m.body)).not.toContain('rude words');
    const done = await post(
      mod,
      'resolveReport',
      { reason: 'deleted', status: 'resolved' },
      `/api/moderation/reports/${reportId}/resolve`,
    );
    expect(done.status).toBe(200);
    const twice = await post(
      mod,
      'resolveReport',
      { reason: 'deleted', status: 'dismissed' },
      `/api/moderation/reports/${reportId}/resolve`,
    );
    expect(twice.body).toMatchObject({ error: { code: 'moderation/report_closed' } });
    const p = await api(base, bob, 'POST', '/api/reports', { reason: 'rude name', targetUserId: ids.alice });
    const pid = (p.body.report as { id: string }).id;
    expect(
      (
        await post(
          mod,
          'resolveReport',
          { reason: 'nothing wrong', status: 'dismissed' },
          `/api/moderation/reports/${pid}/resolve`,
        )
      ).status,
    ).toBe(200);
    const open = await api(base, mod, 'GET', '/api/moderation/reports');
    expect(open.body.reports).toEqual([]);
    const self = await api(base, bob, 'POST', '/api/reports', { reason: 'me me me', targetUserId: ids.bob });
    expect(self.status).toBe(403);
  });

  it('reports are rate-limited per account', async () => {
    const r = await api(base, bob, 'POST', '/api/reports', { reason: 'one more', targetUserId: ids.alice });
    expect(r.status).toBe(429);
  });
});

describe('closing and the audit log', () => {
  it('closes a world: no more orders or joins', async () => {
    expect((await post(mod, 'closeWorld', { reason: 'finished' })).status).toBe(200);
    const join = await api(base, carol, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(join.body).toMatchObject({ error: { code: 'world/closed' } });
    // The lobby lists it among the finished worlds, with its players' final standings, and no more
    // among the running ones.
    const running = await api(base, null, 'GET', '/api/worlds');
    expect((running.body.worlds as { id: string }[]).map((w) => w.id)).not.toContain(worldId);
    const finished = await api(base, null, 'GET', '/api/worlds/finished');
    const closed = (
      finished.body.worlds as { id: string; status: string; standings: { name: string }[] }[]
    ).find((w) => w.id === worldId);
    expect(closed?.status).toBe('closed');
    // Bob was removed earlier in this file and Carol took a seat.
    expect(closed?.standings.map((s) => s.name).sort()).toEqual(['alice', 'carol']);
    expect((await post(mod, 'pauseWorld', { reason: 'too late' })).body).toMatchObject({
      error: { code: 'moderation/closed' },
    });
  });

  it('shows every action taken in these tests to admins, and the table refuses edits', async () => {
    const log = await api(base, admin, 'GET', '/api/moderation/audit');
    const actions = new Set((log.body.entries as { action: string }[]).map((e) => e.action));
    // Starting a world from a position needs a game position to hand over: its own file makes one
    // and checks its audit row (world-from-position.int.test.ts).
    const auditedElsewhere = new Set(['world.fromPosition']);
    for (const key of Object.keys(MODERATION_ROUTES) as ModerationRouteKey[]) {
      const route = MODERATION_ROUTES[key];
      if ('action' in route && !auditedElsewhere.has(route.action))
        expect(actions, route.action).toContain(route.action);
    }
    const byWorld = await api(base, admin, 'GET', `/api/moderation/audit?worldId=${worldId}`);
    expect((byWorld.body.entries as { worldId: string }[]).every((e) => e.worldId === worldId)).toBe(true);
    // A query that does not fit its schema is refused in words, not quietly read as "everything".
    for (const path of ['/api/moderation/audit?worldId=nope', '/api/moderation/reports?status=lost']) {
      const refused = await api(base, admin, 'GET', path);
      expect(refused.status, path).toBe(400);
      expect(refused.body, path).toMatchObject({ error: { code: 'http/invalid' } });
    }
    await expect(t.db.sql('UPDATE moderation_actions SET reason = $1', ['rewritten'])).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.sql('DELETE FROM moderation_actions')).rejects.toThrow(/append-only/);
    expect(await t.db.prisma.moderationAction.count({ where: { reason: 'rewritten' } })).toBe(0);
  });

  it('the world still rebuilds from its log, rollback rows included', async () => {
    const rollbacks = await t.db.prisma.worldOrder.count({ where: { worldId, kind: 'rollback' } });
    expect(rollbacks).toBe(5); // the rollback tests above made five
    const report = await rebuildWorld(t.db, worldId);
    expect(report.problems).toEqual([]);
    const rt = await app.hub.get(worldId);
    expect(report.finalHash).toBe(rt && app.hub.engine.hash(rt.state));
    // Side by side in worker threads, the rollback rows restored from the snapshots handed to them.
    const workers = startRangeWorkers(2, new URL('../src/cli/rebuild-worker.ts', import.meta.url));
    try {
      expect(await rebuildInRanges(t.db, worldId, { workers })).toEqual(report);
    } finally {
      await stopRangeWorkers(workers);
    }
  });
});
