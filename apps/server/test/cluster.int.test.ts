/**
 * Two servers on one PostgreSQL database in one test process, as behind a load balancer: each has
 * its own database pool, its own Socket.IO server on the PostgreSQL adapter, its own copy of the
 * world and its own sockets. A player on one sees, live, what is done on the other: orders
 * (patches, in order, no gaps, ending at the same view), chat, a moderator's pause and a ban; a
 * change whose message was lost is caught up by the sweep; "online" sees the other's sockets.
 * Real OS processes are in processes.int.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { MODERATION_NOTICE_EVENT } from '@bke/protocol';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, shared, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let second: Database | null = null;
const apps: App[] = [];
const bases: string[] = [];
const clients: TestClient[] = [];
/** How many processes the first one counted before the second started. */
let aloneFirst: number | null = null;

async function start(db: Database) {
  const { app, base } = await serveApp(
    db,
    { limits: { authPerAddress: { burst: 50, perMinute: 60 } }, cluster: { kind: 'postgres' }, sweepMs: 300 },
    (a) => registerModeration(a.http, db, a.hub, a.io, { limits: { burst: 100, perSecond: 10 } }),
  );
  apps.push(app);
  bases.push(base);
}

beforeAll(async () => {
  t = await openTestDatabase();
  if (!t.url) return;
  await start(t.db);
  aloneFirst = (await apps[0]?.io.of('/').adapter.serverCount()) ?? null;
  if (t.url) {
    second = await openDatabase({ kind: 'postgres', url: t.url, poolSize: 5 });
    await start(second);
  }
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const a of apps) await a.close();
  await second?.close();
  await t?.dispose();
});

describe.runIf(process.env.DATABASE_URL)('two server processes on one database', () => {
  const [one, two] = [0, 1];
  let alice: string;
  let bob: string;
  let carol: string;
  let admin: string;
  let worldId: string;
  const byPlayer = new Map<string, TestClient>();
  let spectator: TestClient;
  const client = (at: number, cookie: string) => {
    const c = new TestClient(bases[at] ?? '', cookie, worldId);
    clients.push(c);
    return c;
  };

  it('the two processes are distinct on the database, and find each other', async () => {
    expect(second?.instanceId).toBeDefined();
    expect(second?.instanceId).not.toBe(t.db.instanceId);
    expect(aloneFirst).toBe(1);
    // The adapter's heartbeats: each counts the other.
    const counts = async () => Promise.all(apps.map((a) => a.io.of('/').adapter.serverCount()));
    const end = Date.now() + 5000;
    while ((await counts()).some((n) => n !== 2) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(await counts()).toEqual([2, 2]);
    expect(apps.map((a) => a.cluster.kind)).toEqual(['postgres', 'postgres']);
  });

  it('players on different processes play turns and see every order of the other, in order', async () => {
    alice = await signup(bases[one] ?? '', 'alice');
    bob = await signup(bases[two] ?? '', 'bob');
    carol = await signup(bases[two] ?? '', 'carol');
    const created = await api(bases[one] ?? '', alice, 'POST', '/api/worlds', {
      name: 'Two processes',
      deadline: { mode: 'live', minutesPerPhase: 10 },
    });
    worldId = (created.body.world as { id: string }).id;
    // Alice joins through one process, Bob through the other.
    expect((await api(bases[one] ?? '', alice, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    expect((await api(bases[two] ?? '', bob, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    const a = client(one, alice);
    const b = client(two, bob);
    spectator = client(two, carol);
    for (const c of [a, b, spectator]) expect((await c.subscribe()).ok).toBe(true);
    byPlayer.set(a.playerId ?? '', a);
    byPlayer.set(b.playerId ?? '', b);
    expect(a.version).toBe(b.version);

    const policy = { done: false };
    const startTurn = (a.view?.turn as number) ?? 0;
    let orders = 0;
    for (let i = 0; i < 400 && ((a.view?.turn as number) ?? 0) < startTurn + 2; i++) {
      // Process one's copy is current: its client has every version so far (below).
      const rt = await apps[one]?.hub.get(worldId);
      const waiting = rt?.waitingFor()[0];
      const c = byPlayer.get(waiting ?? '');
      if (!c) throw new Error(`nobody to play for: ${waiting}`);
      const order = pickOrder(c.legal, policy);
      if (!order) throw new Error(`no order among ${JSON.stringify(c.legal)}`);
      const r = await c.order(order);
      if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
      orders++;
      // Every client, on either process, reaches the new version through patches.
      for (const x of [a, b, spectator]) await x.until(r.version);
    }
    expect(orders).toBeGreaterThan(5);
    expect(((a.view?.turn as number) ?? 0) - startTurn).toBe(2);
    // Both processes played orders: each process's copy ends equal, and so do all clients.
    const [r1, r2] = [await apps[one]?.hub.get(worldId), await apps[two]?.hub.get(worldId)];
    await r2?.settled();
    expect(r2?.version).toBe(r1?.version);
    const view = shared(apps[one]?.hub.engine.view(r1?.state as never, null));
    for (const x of [a, b, spectator]) {
      expect(x.gaps).toBe(0);
      expect(shared(x.view)).toEqual(view);
    }
  });

  it('chat crosses processes: world-wide and private', async () => {
    const [a, b] = [...byPlayer.values()] as [TestClient, TestClient];
    const sent = await a.emit('chat/send', { worldId, body: 'hello from process one' });
    expect(sent.ok).toBe(true);
    await waitFor('world chat on the other process', () =>
      [b, spectator].every((c) => c.chat.some((m) => m.body === 'hello from process one')),
    );
    const whisper = await b.emit('chat/send', { worldId, body: 'just you', to: a.playerId });
    expect(whisper.ok).toBe(true);
    await waitFor('a private message on the other process', () => a.chat.some((m) => m.body === 'just you'));
    await new Promise((r) => setTimeout(r, 100));
    expect(spectator.chat.some((m) => m.body === 'just you')).toBe(false);
    expect(a.chat.filter((m) => m.body === 'hello from process one')).toHaveLength(1);
  });

  it('a pause made on one process reaches players on the other, with its notice', async () => {
    await createUser(t.db, 'admin1', 'password123', 'admin');
    const login = await api(bases[one] ?? '', null, 'POST', '/api/auth/login', {
      username: 'admin1',
      password: 'password123',
    });
    admin = login.cookie ?? '';
    const b = [...byPlayer.values()][1] as TestClient;
    const notices: unknown[] = [];
    b.socket.on(MODERATION_NOTICE_EVENT, (n: unknown) => notices.push(n));
    const paused = await api(bases[one] ?? '', admin, 'POST', `/api/moderation/worlds/${worldId}/pause`, {
      reason: 'server maintenance',
    });
    expect(paused.status).toBe(200);
    await waitFor('paused status on the other process', () => b.status?.status === 'paused');
    await waitFor('the notice on the other process', () => notices.length === 1);
    expect(notices[0]).toMatchObject({ worldId, action: 'world.pause', reason: 'server maintenance' });
    await waitFor('the moderator line in chat', () =>
      b.chat.some((m) => m.body.includes('server maintenance')),
    );
    // The other process refuses orders too: its copy is paused.
    const refused = await b.order({ type: 'endPhase' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'world/paused' } });
    const resumed = await api(bases[two] ?? '', admin, 'POST', `/api/moderation/worlds/${worldId}/resume`, {
      reason: 'done',
    });
    expect(resumed.status).toBe(200);
    const a = [...byPlayer.values()][0] as TestClient;
    await waitFor('running status back on the first process', () => a.status?.status === 'running');
  });

  it('a change whose message is lost reaches the other process through the sweep', async () => {
    const [a, b] = [...byPlayer.values()] as [TestClient, TestClient];
    const first = apps[one] as App;
    // Nothing was missed so far: a sweep finds no world behind on either process.
    expect(await Promise.all(apps.map((a) => a.hub.sweep()))).toEqual([0, 0]);
    // As if the messages never arrived: nothing hears of the changes the first process makes.
    const told = first.hub.events.listeners('changedHere');
    first.hub.events.removeAllListeners('changedHere');
    try {
      const rt = await first.hub.get(worldId);
      const waiting = rt?.waitingFor()[0];
      // The order goes through process one, whoever plays it.
      const c = waiting === a.playerId ? a : client(one, bob);
      if (c !== a) expect((await c.subscribe()).ok).toBe(true);
      const order = pickOrder(c.legal, { done: true });
      const r = await c.order(order);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      // Nobody told the second process; its sweep (every 300 ms here) finds the world moved.
      for (const x of [a, b, spectator]) await x.until(r.version, 5000);
      expect(b.gaps).toBe(0);
    } finally {
      for (const listener of told) first.hub.events.on('changedHere', listener);
    }
  });

  it('"online" sees a player whose page is open on the other process', async () => {
    const [a, b] = [...byPlayer.values()] as [TestClient, TestClient];
    const [p1, p2] = [apps[one] as App, apps[two] as App];
    expect(await p1.online(worldId, b.playerId ?? '')).toBe(true); // b is connected to process two
    expect(await p2.online(worldId, a.playerId ?? '')).toBe(true);
    expect(await p2.online(worldId, b.playerId ?? '')).toBe(true);
    expect(await p1.online(worldId, 'p9')).toBe(false);
  });

  it('a ban made on one process ends the account’s sockets on the other', async () => {
    const carolId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'carol' } })).id;
    expect(spectator.socket.connected).toBe(true);
    const r = await api(bases[one] ?? '', admin, 'POST', `/api/moderation/users/${carolId}/ban`, {
      reason: 'spam',
    });
    expect(r.status).toBe(200);
    await waitFor('the spectator disconnected', () => !spectator.socket.connected);
  });

  it('logging out on one process ends that session’s sockets on the other at once', async () => {
    const session = (
      await api(bases[one] ?? '', null, 'POST', '/api/auth/login', {
        username: 'bob',
        password: 'password123',
      })
    ).cookie as string;
    const there = client(two, session);
    expect((await there.subscribe()).ok).toBe(true);
    expect((await api(bases[one] ?? '', session, 'POST', '/api/auth/logout', {})).status).toBe(200);
    await waitFor('the socket on the other process disconnected', () => !there.socket.connected);
  });
});

describe('one process on the embedded database', () => {
  it('runs without a cluster adapter: a world change is told to nobody', async () => {
    const embedded = await openDatabase({ kind: 'embedded', dataDir: 'memory://' });
    try {
      await migrateDatabase(embedded);
      expect(embedded.pool).toBeNull();
      const { app } = await serveApp(embedded);
      expect(app.cluster.kind).toBe('none');
      expect(await app.io.of('/').adapter.serverCount()).toBe(1);
      expect(() => app.hub.publish('00000000-0000-4000-8000-000000000000')).not.toThrow();
      await app.close();
    } finally {
      await embedded.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('two processes on the Redis Streams adapter', () => {
  it('carry world changes and chat between them, and see each other', async (ctx) => {
    const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
    const probe = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 1000 } });
    probe.on('error', () => {});
    const reachable = await probe.connect().then(
      () => true,
      () => false,
    );
    if (reachable) await probe.close();
    if (!reachable) ctx.skip(`no Redis at ${url}`);
    // A stream of this run's own, so other runs on the same Redis are not counted.
    const cluster = { kind: 'redis' as const, url, stream: `bke-test-${randomBytes(4).toString('hex')}` };
    const dbs = [t.db, await openDatabase({ kind: 'postgres', url: t.url ?? '', poolSize: 3 })];
    const pair = await Promise.all(
      dbs.map((db) => serveApp(db, { cluster, limits: { authPerAddress: { burst: 50, perMinute: 60 } } })),
    );
    const opened: TestClient[] = [];
    try {
      const end = Date.now() + 10_000;
      while (Date.now() < end) {
        const n = await Promise.all(pair.map((p) => p.app.io.of('/').adapter.serverCount()));
        if (n.every((x) => x === 2)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await Promise.all(pair.map((p) => p.app.io.of('/').adapter.serverCount()))).toEqual([2, 2]);
      const [p1, p2] = pair as [(typeof pair)[0], (typeof pair)[0]];
      const erin = await signup(p1.base, 'erin');
      const fred = await signup(p2.base, 'fred');
      const created = await api(p1.base, erin, 'POST', '/api/worlds', { name: 'Over Redis' });
      const id = (created.body.world as { id: string }).id;
      expect((await api(p1.base, erin, 'POST', `/api/worlds/${id}/join`, {})).status).toBe(200);
      const player = new TestClient(p1.base, erin, id);
      const watcher = new TestClient(p2.base, fred, id);
      opened.push(player, watcher);
      for (const c of [player, watcher]) expect((await c.subscribe()).ok).toBe(true);
      const r = await player.order(pickOrder(player.legal, { done: false }));
      expect(r.ok).toBe(true);
      if (r.ok) await watcher.until(r.version, 5000);
      expect(await p2.app.online(id, player.playerId ?? '')).toBe(true);
      expect((await player.emit('chat/send', { worldId: id, body: 'through redis' })).ok).toBe(true);
      await waitFor('chat through Redis', () => watcher.chat.some((m) => m.body === 'through redis'));
    } finally {
      for (const c of opened) c.close();
      for (const p of pair) await p.app.close();
      await dbs[1]?.close();
    }
  });
});
