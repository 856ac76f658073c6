/**
 * Worlds nobody uses are let go of from memory and loaded again on their next use: a world a
 * socket of this process watches, whose queue holds a task or whose catch-up is due stays; an
 * idle one goes, and comes back at the version the log holds (another process may have moved it
 * meanwhile), for a subscribe, an order or a deadline. An order racing the unload is committed
 * once, by the one copy of the world this process holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { nextOrder } from './helpers/next-order.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const client = (cookie: string, worldId: string) => {
  const c = new TestClient(base, cookie, worldId);
  clients.push(c);
  return c;
};

const isLoaded = (worldId: string) => app.hub.loaded().some((rt) => rt.id === worldId);

/** A running world of two players (alice p1, bob p2), its deadline a day away. */
async function newWorld(): Promise<string> {
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Idle',
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    earlyResolution: true,
  });
  const worldId = (created.body.world as { id: string }).id;
  for (const who of [alice, bob])
    expect((await api(base, who, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
  return worldId;
}

async function logSeqs(worldId: string): Promise<number[]> {
  const rows = await t.db.prisma.worldOrder.findMany({
    where: { worldId },
    select: { seq: true },
    orderBy: { seq: 'asc' },
  });
  return rows.map((r) => r.seq);
}

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('unloading idle worlds', () => {
  it('never unloads a world a socket watches; unloads it once the last one left', async () => {
    const worldId = await newWorld();
    const a = client(alice, worldId);
    const b = client(bob, worldId);
    expect((await a.subscribe()).ok).toBe(true);
    expect((await b.subscribe()).ok).toBe(true);
    app.hub.unloadIdle(0);
    app.hub.unloadIdle(0, Date.now() + 86_400_000);
    expect(isLoaded(worldId)).toBe(true);
    // One page leaves by unsubscribing: the other still watches.
    expect((await a.emit('world/unsubscribe', { worldId })).ok).toBe(true);
    app.hub.unloadIdle(0);
    expect(isLoaded(worldId)).toBe(true);
    // The other closes its page: once the server saw the socket go, the world goes too.
    b.close();
    await waitFor('the world unloaded after the last socket went', () => {
      app.hub.unloadIdle(0);
      return !isLoaded(worldId);
    });
  });

  it('loads an unloaded world again on subscribe, at the version another process moved it to, and plays on', async () => {
    const worldId = await newWorld();
    const a = client(alice, worldId);
    const b = client(bob, worldId);
    await a.subscribe();
    await b.subscribe();
    const byPlayer = new Map([
      ['p1', a],
      ['p2', b],
    ]);
    for (let i = 0; i < 2; i++) {
      const { playerId, version } = await nextOrder(app.hub, worldId);
      const c = byPlayer.get(playerId);
      // The previous order's patch reaches the other page after its sender's ack: its legal
      // orders are the ones of the version the world is at once it arrived.
      await c?.until(version);
      const order = c && pickOrder(c.legal, { done: true });
      expect(order && (await c.order(order)).ok).toBe(true);
    }
    const v = (await logSeqs(worldId)).length;
    a.close();
    b.close();
    await waitFor('the world unloaded', () => {
      app.hub.unloadIdle(0);
      return !isLoaded(worldId);
    });
    const metrics = await app.metrics.text();
    expect(metrics).toMatch(/bke_worlds_unloaded_total [1-9]/);
    expect(metrics).toMatch(/bke_worlds_loaded \d/);
    // Another process orders meanwhile; nothing tells this one (no adapter between them here).
    const other = new WorldHub(t.db);
    const o = await nextOrder(other, worldId);
    expect(o.version).toBe(v);
    expect(await other.order(worldId, o.playerId, o.userId, v, o.order)).toMatchObject({ ok: true });
    const a2 = client(alice, worldId);
    const b2 = client(bob, worldId);
    const sub = await a2.subscribe();
    await b2.subscribe();
    expect(isLoaded(worldId)).toBe(true);
    expect(sub.ok && sub.sync.kind === 'view' && sub.sync.version).toBe(v + 1);
    const next = await nextOrder(app.hub, worldId);
    const c = next.playerId === 'p1' ? a2 : b2;
    await c.until(next.version);
    const order = pickOrder(c.legal, { done: true });
    expect(order && (await c.order(order))).toMatchObject({ ok: true, version: v + 2 });
    await b2.until(v + 2);
    await a2.until(v + 2);
    expect(await logSeqs(worldId)).toEqual(oneToN(v + 2));
  });

  it('fires a deadline of an unloaded world, loading it', async () => {
    const worldId = await newWorld();
    const rt = await app.hub.get(worldId);
    const v = rt?.version ?? -1;
    expect(app.hub.unloadIdle(0)).toBeGreaterThan(0);
    expect(isLoaded(worldId)).toBe(false);
    await t.db.sql(`UPDATE worlds SET deadline_at = now() - interval '1 second' WHERE id = $1`, [worldId]);
    expect(await app.hub.pollDeadlines()).toBe(1);
    expect(isLoaded(worldId)).toBe(true);
    const seqs = await logSeqs(worldId);
    expect(seqs.length).toBeGreaterThan(v);
    expect(seqs).toEqual(oneToN(seqs.length));
    expect((await app.hub.get(worldId))?.version).toBe(seqs.length);
    const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId } });
    expect(seats.reduce((n, s) => n + s.missedTurns, 0)).toBeGreaterThan(0);
    const a = client(alice, worldId);
    const sub = await a.subscribe();
    expect(sub.ok && sub.sync.kind === 'view' && sub.sync.version).toBe(seqs.length);
  });

  it('commits an order racing the unload once, on the one copy of the world this process holds', async () => {
    const worldId = await newWorld();
    const held = await app.hub.get(worldId);
    const o = await nextOrder(app.hub, worldId);
    // The order has its runtime from the hub but has not queued its task yet when the unload runs.
    const racing = app.hub.order(worldId, o.playerId, o.userId, o.version, o.order);
    app.hub.unloadIdle(0);
    expect(isLoaded(worldId)).toBe(false);
    expect(await racing).toMatchObject({ ok: true, version: o.version + 1 });
    // Its task took the runtime back: the hub holds it again, the same object, not a second copy.
    expect(isLoaded(worldId)).toBe(true);
    const now = await app.hub.get(worldId);
    expect(now).toBe(held);
    expect(now?.version).toBe(o.version + 1);
    expect(await logSeqs(worldId)).toEqual(oneToN(o.version + 1));
    // Two copies of a world (here one in another process) ordering at the same version: the log's
    // compare-and-set lets one commit.
    const other = new WorldHub(t.db);
    const p = await nextOrder(other, worldId);
    const both = await Promise.all([
      app.hub.order(worldId, p.playerId, p.userId, p.version, p.order),
      other.order(worldId, p.playerId, p.userId, p.version, p.order),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(await logSeqs(worldId)).toEqual(oneToN(p.version + 1));
  });

  it('takes back a runtime let go of when its holder uses it, caught up with what it missed', async () => {
    const worldId = await newWorld();
    const held = await app.hub.get(worldId);
    if (!held) throw new Error('no world');
    app.hub.unloadIdle(0);
    expect(isLoaded(worldId)).toBe(false);
    const other = new WorldHub(t.db);
    const o = await nextOrder(other, worldId);
    expect((await other.order(worldId, o.playerId, o.userId, o.version, o.order)).ok).toBe(true);
    // A holder (a bot between its thinking and its commit) queues work on the runtime it held.
    const seen = await held.run(async () => held.version);
    expect(seen).toBe(o.version + 1);
    expect(isLoaded(worldId)).toBe(true);
    expect(await app.hub.get(worldId)).toBe(held);
  });

  it('keeps a world whose queue holds a task, whose catch-up is due or that was used lately', async () => {
    const worldId = await newWorld();
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    let open = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const job = rt.run(() => gate);
    app.hub.unloadIdle(0);
    expect(isLoaded(worldId)).toBe(true);
    open();
    await job;
    app.hub.refresh(worldId);
    app.hub.unloadIdle(0);
    expect(isLoaded(worldId)).toBe(true);
    // The catch-up is queued once the hub has the runtime (a turn of the event loop), then done.
    await new Promise((r) => setImmediate(r));
    await rt.settled();
    expect(rt.pending).toBe(0);
    await app.hub.get(worldId);
    app.hub.unloadIdle(60_000);
    expect(isLoaded(worldId)).toBe(true);
    app.hub.unloadIdle(60_000, Date.now() + 61_000);
    expect(isLoaded(worldId)).toBe(false);
  });

  it("plays a world's bots on after it was unloaded while waiting for a person", async () => {
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Idle with a bot',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: true,
      join: true,
      bots: ['easy'],
    });
    const worldId = (created.body.world as { id: string }).id;
    const botOrders = () => t.db.prisma.worldOrder.count({ where: { worldId, kind: 'bot' } });
    // The bot plays until the world waits for alice alone.
    const held = () => app.hub.loaded().find((rt) => rt.id === worldId);
    await waitFor('the world waiting for alice', () => held()?.waitingFor().join() === 'p1');
    await (await app.hub.get(worldId))?.settled();
    const before = await botOrders();
    await waitFor('the world unloaded', () => {
      app.hub.unloadIdle(0);
      return !isLoaded(worldId);
    });
    const a = client(alice, worldId);
    await a.subscribe();
    // Alice plays until the bot is waited for; its driver, which forgot the world, plays on.
    for (let i = 0; i < 20 && (await botOrders()) === before; i++) {
      const rt = await app.hub.get(worldId);
      if (rt?.waitingFor().includes('p1' as never)) {
        await a.until(rt.version);
        const order = pickOrder(a.legal, { done: true });
        if (order) expect((await a.order(order)).ok).toBe(true);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await botOrders()).toBeGreaterThan(before);
    const seqs = await logSeqs(worldId);
    expect(seqs).toEqual(oneToN(seqs.length));
  });

  it('keeps nothing of a world id that names no world', async () => {
    const before = app.hub.cached();
    for (let i = 0; i < 20; i++) expect(await app.hub.get(crypto.randomUUID())).toBeNull();
    const res = await api(base, alice, 'GET', `/api/worlds/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(app.hub.cached()).toBe(before);
  });

  it('unloads idle worlds on its own once started, and stops when told', async () => {
    const worldId = await newWorld();
    const hub = new WorldHub(t.db);
    await hub.get(worldId);
    hub.startUnloading(50);
    try {
      await waitFor('the idle world unloaded by the timer', () => hub.loaded().length === 0);
    } finally {
      hub.stopUnloading();
    }
    await hub.get(worldId);
    await new Promise((r) => setTimeout(r, 1500));
    expect(hub.loaded().map((rt) => rt.id)).toEqual([worldId]);
  });
});
