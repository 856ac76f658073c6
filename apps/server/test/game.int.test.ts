/**
 * Two players and a spectator play complete game turns through the server,
 * chat, drop and come back (resynced by missed patches and by a full view); malformed, oversized,
 * unauthorized, stale and out-of-turn messages get error codes and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { startRangeWorkers, stopRangeWorkers } from '../src/worlds/range-workers.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { rebuildInRanges } from '../src/worlds/rebuild-parallel.ts';
import { serveApp } from './helpers/app.ts';
import { api, pickOrder, shared, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
let carol: string;
let worldId: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 30, perMinute: 0.6 } } }));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const client = (cookie: string | null) => {
  const c = new TestClient(base, cookie, worldId);
  clients.push(c);
  return c;
};

/** The server's own public view, for comparing against what clients rebuilt from patches. */
async function serverView() {
  const rt = await app.hub.get(worldId);
  if (!rt) throw new Error('no world');
  return { version: rt.version, view: shared(app.hub.engine.view(rt.state, null)) };
}

/** The client whose player is waited for plays one order; returns the new version. */
async function playOne(byPlayer: Map<string, TestClient>, policy: { done: boolean }): Promise<number> {
  const rt = await app.hub.get(worldId);
  const waiting = rt?.waitingFor() ?? [];
  const c = byPlayer.get(waiting[0] ?? '');
  if (!c) throw new Error(`nobody to play for ${waiting.join(',')}`);
  await c.until(rt?.version ?? 0);
  const order = pickOrder(c.legal, policy);
  if (!order) throw new Error(`no order among ${JSON.stringify(c.legal)}`);
  const r = await c.order(order);
  if (!r.ok) throw new Error(`order refused: ${JSON.stringify(r.error)} for ${JSON.stringify(order)}`);
  return r.version;
}

describe('a world played through the server', () => {
  it('creates a world, two players join, a spectator watches', async () => {
    const bad = await api(base, alice, 'POST', '/api/worlds', {
      name: 'x',
      options: { opt: { noSuchRule: true } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'http/invalid' } });
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Migration Age',
      options: { victory: 'advanced', opt: { byzantium: true } },
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: true,
    });
    expect(created.status).toBe(200);
    const world = created.body.world as { id: string; victory: string; status: string };
    expect(world).toMatchObject({ victory: 'advanced', status: 'open' });
    worldId = world.id;
    expect((await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, { colour: 'red' })).status).toBe(
      200,
    );
    const taken = await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, { colour: 'red' });
    expect(taken.body).toMatchObject({ error: { code: 'world/colour_taken' } });
    const joined = await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(joined.body).toMatchObject({ seat: { colour: 'blue', playerId: 'p2' } });
    const again = await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(again.body).toMatchObject({ error: { code: 'world/already_seated' } });
    const list = await api(base, null, 'GET', '/api/worlds');
    expect((list.body.worlds as { id: string; status: string }[])[0]).toMatchObject({
      id: worldId,
      status: 'running',
    });
  });

  it('plays three complete game turns; every client rebuilds the server view from patches', async () => {
    const a = client(alice);
    const b = client(bob);
    const c = client(carol);
    expect((await a.subscribe()).ok && a.playerId).toBe('p1');
    expect((await b.subscribe()).ok && b.playerId).toBe('p2');
    const spect = await c.subscribe();
    expect(spect.ok && spect.role).toBe('spectator');
    const byPlayer = new Map([
      ['p1', a],
      ['p2', b],
    ]);
    const policy = { done: false };
    let version = a.version;
    for (let i = 0; i < 400; i++) {
      const rt = await app.hub.get(worldId);
      if ((rt?.state.turn ?? 0) >= 4) break;
      version = await playOne(byPlayer, policy);
    }
    const server = await serverView();
    expect(server.view).toMatchObject({ turn: 4 });
    expect(server.version).toBe(version);
    const rt = await app.hub.get(worldId);
    for (const x of [a, b, c]) {
      await x.until(server.version);
      expect(x.gaps).toBe(0);
      expect(shared(x.view)).toEqual(server.view);
      // Each order that moved the step brought its status inside the patch: one message per
      // viewer and order, and the status the clients hold is the world's.
      expect(x.statusMessages).toBe(0);
      expect(x.patchStatuses).toBeGreaterThan(10);
      expect(x.status).toMatchObject({ stepKey: rt?.head.stepKey, waitingFor: rt?.waitingFor() });
    }
    await rt?.settled();
    const log = await t.db.prisma.worldOrder.count({ where: { worldId } });
    expect(log).toBe(server.version);
    const snaps = await t.db.prisma.worldSnapshot.count({ where: { worldId } });
    expect(snaps).toBeGreaterThanOrEqual(3); // seq 0 and one per new turn
    const cycles = await t.db.prisma.worldCycle.findMany({ where: { worldId } });
    expect(cycles.map((x) => x.playerId).sort()).toEqual(['p1', 'p2']);
  });

  it('chats world-wide and privately, and replays history on subscribe', async () => {
    const [a, b, c] = clients as [TestClient, TestClient, TestClient];
    const pub = await a.emit('chat/send', { worldId, body: 'Greetings from the steppe' });
    expect(pub.ok).toBe(true);
    const priv = await b.emit('chat/send', { worldId, to: 'p1', body: 'Alliance against Rome?' });
    expect(priv.ok).toBe(true);
    const spy = await c.emit('chat/send', { worldId, to: 'p1', body: 'psst' });
    expect(spy).toMatchObject({ ok: false, error: { code: 'auth/forbidden' } });
    const nobody = await a.emit('chat/send', { worldId, to: 'p9', body: 'hello?' });
    expect(nobody).toMatchObject({ ok: false, error: { code: 'chat/unknown_recipient' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(a.chat.map((m) => m.body)).toEqual(['Greetings from the steppe', 'Alliance against Rome?']);
    expect(c.chat.map((m) => m.body)).toEqual(['Greetings from the steppe']);
    const late = client(carol);
    const r = await late.subscribe();
    expect(r.ok && r.chat.map((m) => m.body)).toEqual(['Greetings from the steppe']);
    const bobAgain = client(bob);
    const rb = await bobAgain.subscribe();
    expect(rb.ok && rb.chat.map((m) => m.body)).toEqual([
      'Greetings from the steppe',
      'Alliance against Rome?',
    ]);
  });

  it('resyncs a client that was away: missed patches from the log, or a full view', async () => {
    const [a, b] = clients as [TestClient, TestClient];
    const lastSeen = b.version;
    b.close();
    // While bob is away his deadline passes: the engine's default orders play for him.
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const missedBefore = (await t.db.prisma.worldSeat.findMany({ where: { worldId } })).map(
      (s) => s.missedTurns,
    );
    let guard = 0;
    while (rt.version < lastSeen + 5 && guard++ < 50) {
      const waiting = rt.waitingFor();
      if (waiting.includes('p1' as never)) await playOne(new Map([['p1', a]]), { done: true });
      else await rt.run(() => app.hub.fireDeadline(rt, new Date(Date.now() + 10 * 86_400_000)));
    }
    const timeouts = await t.db.prisma.worldOrder.count({ where: { worldId, kind: 'timeout' } });
    expect(timeouts).toBeGreaterThan(0);
    const missedAfter = (await t.db.prisma.worldSeat.findMany({ where: { worldId } })).map(
      (s) => s.missedTurns,
    );
    expect(missedAfter.reduce((x, y) => x + y, 0)).toBeGreaterThan(missedBefore.reduce((x, y) => x + y, 0));

    const back = client(bob);
    back.view = b.view;
    back.version = lastSeen;
    const r = await back.subscribe(lastSeen);
    expect(r.ok && r.sync.kind).toBe('patches');
    const server = await serverView();
    expect(back.version).toBe(server.version);
    expect(shared(back.view)).toEqual(server.view);

    const fresh = client(bob);
    const full = await fresh.subscribe(server.version + 1000); // a version from nowhere: full view
    expect(full.ok && full.sync.kind).toBe('view');
    expect(shared(fresh.view)).toEqual(server.view);
    expect(fresh.legal.length).toBeGreaterThan(0);
  });

  it('refuses malformed, oversized, unauthorized, stale and out-of-turn messages and changes nothing', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const before = { version: rt.version, hash: app.hub.engine.hash(rt.state) };
    const player = clients.at(-1) as TestClient; // bob, subscribed with a full view
    const spectator = client(carol);
    await spectator.subscribe();
    const anon = client(null);
    await anon.subscribe();

    const expectCode = async (p: Promise<{ ok: boolean; error?: { code: string } }>, code: string) =>
      expect((await p).error?.code).toBe(code);
    await expectCode(player.emit('world/order', { worldId, version: 'x', order: 5 }), 'socket/invalid');
    await expectCode(player.emit('world/order', 'garbage'), 'socket/invalid');
    await expectCode(
      player.emit('world/order', {
        worldId,
        version: rt.version,
        order: { type: 'x', pad: 'y'.repeat(20_000) },
      }),
      'socket/invalid',
    );
    await expectCode(player.order({ type: 'noSuchOrder' }), 'order/invalid');
    await expectCode(spectator.order({ type: 'endPhase' }), 'auth/forbidden');
    await expectCode(anon.order({ type: 'endPhase' }), 'auth/required');
    await expectCode(player.emit('world/subscribe', { worldId: crypto.randomUUID() }), 'world/not_found');
    const waiting = rt.waitingFor();
    const idle = waiting.includes('p2' as never) ? null : player;
    if (idle) await expectCode(idle.order({ type: 'endPhase' }), 'order/not_your_turn');
    // A stale version: the error carries the patches missed (here one), never a full view.
    const views: unknown[] = [];
    player.socket.on('world/view', (v: unknown) => views.push(v));
    const stale = await player.order({ type: 'endPhase' }, rt.version - 1);
    expect(stale).toMatchObject({ ok: false, error: { code: 'sync/stale', version: rt.version } });
    const missed = (stale as { error: { patches?: { to: number }[] } }).error.patches ?? [];
    expect(missed.map((p) => p.to)).toEqual([rt.version]);
    await new Promise((r) => setTimeout(r, 100));
    expect(views).toEqual([]);
    // No acknowledgement callback: the error comes back as an `error` event.
    player.socket.emit('world/order', { nonsense: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(player.errors).toContainEqual(expect.objectContaining({ code: 'socket/invalid' }));

    expect({ version: rt.version, hash: app.hub.engine.hash(rt.state) }).toEqual(before);
    expect(await t.db.prisma.worldOrder.count({ where: { worldId } })).toBe(before.version);
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
  });

  it('protects accounts: CSRF header, bad credentials, auth required, rate limit', async () => {
    const noHeader = await fetch(`${base}/api/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: alice },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(noHeader.status).toBe(403);
    const crossSite = await fetch(`${base}/api/worlds`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: alice,
        'x-bke-csrf': '1',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(((await crossSite.json()) as { error: { code: string } }).error.code).toBe('http/cross_site');
    const anon = await api(base, null, 'POST', '/api/worlds', { name: 'x' });
    expect(anon.body).toMatchObject({ error: { code: 'auth/required' } });
    const me = await api(base, alice, 'GET', '/api/auth/me');
    expect(me.body).toMatchObject({ user: { username: 'alice', role: 'player' } });
    const wrong = await api(base, null, 'POST', '/api/auth/login', {
      username: 'alice',
      password: 'wrongpass1',
    });
    expect(wrong.body).toMatchObject({ error: { code: 'auth/bad_credentials' } });
    const good = await api(base, null, 'POST', '/api/auth/login', {
      username: 'ALICE',
      password: 'password123',
    });
    expect(good.status).toBe(200);
    const out = await api(base, good.cookie, 'POST', '/api/auth/logout', {});
    expect(out.status).toBe(200);
    expect((await api(base, good.cookie, 'GET', '/api/auth/me')).body).toEqual({ user: null });
    let limited = 0;
    for (let i = 0; i < 40 && limited === 0; i++) {
      const r = await api(base, null, 'POST', '/api/auth/login', {
        username: 'nobody1',
        password: 'password123',
      });
      if (r.status === 429) limited = i;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it('rebuilds the world from its log, matching every snapshot, and notices a tampered one', async () => {
    const rt = await app.hub.get(worldId);
    await rt?.settled(); // let snapshot writes and projections finish
    const ok = await rebuildWorld(t.db, worldId, true);
    expect(ok.problems).toEqual([]);
    expect(ok.snapshotsChecked).toBeGreaterThanOrEqual(3);
    expect(ok.finalHash).toBe(app.hub.engine.hash(rt?.state as never));
    expect(await t.db.prisma.worldCycle.count({ where: { worldId } })).toBe(2);
    const snap = await t.db.prisma.worldSnapshot.findFirstOrThrow({ where: { worldId, seq: { gt: 0 } } });
    await t.db.prisma.worldSnapshot.update({
      where: { worldId_seq: { worldId, seq: snap.seq } },
      data: { hash: '0000000000000000' },
    });
    const bad = await rebuildWorld(t.db, worldId);
    expect(bad.problems).toEqual([expect.stringContaining(`snapshot ${snap.seq}: stored hash`)]);
    // Replayed in stretches by worker threads, the fault sends it back to the replay in turn: the
    // same report, word for word.
    const workers = startRangeWorkers(2, new URL('../src/cli/rebuild-worker.ts', import.meta.url));
    try {
      await t.db.prisma.worldSnapshot.update({
        where: { worldId_seq: { worldId, seq: snap.seq } },
        data: { hash: snap.hash },
      });
      expect(await rebuildInRanges(t.db, worldId, { workers })).toEqual({ ...ok, problems: [] });
      await t.db.prisma.worldSnapshot.update({
        where: { worldId_seq: { worldId, seq: snap.seq } },
        data: { hash: '0000000000000000' },
      });
      expect(await rebuildInRanges(t.db, worldId, { workers })).toBeNull();
      expect(await rebuildWorld(t.db, worldId, { parallel: { workers } })).toEqual(bad);
    } finally {
      await stopRangeWorkers(workers);
    }
  });
});
