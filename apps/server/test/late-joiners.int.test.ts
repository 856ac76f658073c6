/**
 * What a newcomer receives: a spectator who subscribes late, or a player whose browser
 * forgot everything, gets the world's recent events with their turns in the subscribe ack; and the
 * world's record carries column 11 of the turn record sheet (14.3.3) as the engine reported it.
 */
import { initialRealmPlayer } from '@bke/engine';
import { type PatchMessage, RECENT_EVENTS, type RecentEvent, worldDetailResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { projectEvents } from '../src/worlds/projections.ts';
import { serveApp } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
let worldId: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 30, perMinute: 0.6 } } }));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  const created = await api(base, alice, 'POST', '/api/worlds', { name: 'Late Joiners' });
  worldId = (created.body.world as { id: string }).id;
  await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, {});
  await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {});
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

/** Plays with the helper's policy until the world reaches `turn`. */
async function playUntilTurn(turn: number) {
  const a = client(alice);
  const b = client(bob);
  await a.subscribe();
  await b.subscribe();
  const byPlayer = new Map([
    [a.playerId ?? '', a],
    [b.playerId ?? '', b],
  ]);
  const policy = { done: false };
  for (let i = 0; i < 400; i++) {
    const rt = await app.hub.get(worldId);
    if (!rt || rt.state.turn >= turn) break;
    const c = byPlayer.get(rt.waitingFor()[0] ?? '');
    if (!c) throw new Error('nobody to play');
    await c.until(rt.version);
    const order = pickOrder(c.legal, policy);
    const r = await c.order(order);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
}

describe('recent events for late joiners', () => {
  it('a new spectator gets the latest events, each with its seq and turn, in the subscribe ack', async () => {
    await playUntilTurn(3);
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    await rt.settled();

    const watcher = client(null);
    const r = await watcher.subscribe();
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.role).toBe('spectator');
    const recent: RecentEvent[] = r.recent;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThanOrEqual(RECENT_EVENTS);

    // The same events, in the same order, as the order log holds for those seqs.
    const rows = await t.db.prisma.worldOrder.findMany({
      where: { worldId, seq: { gte: recent[0]?.seq ?? 0 } },
      orderBy: { seq: 'asc' },
    });
    const logged = rows.flatMap((row) =>
      (row.events as { type: string }[]).map((event, index) => ({ seq: row.seq, index, event })),
    );
    const tail = logged.slice(logged.length - recent.length);
    expect(recent.map(({ seq, index, event }) => ({ seq, index, event }))).toEqual(tail);
    expect(recent[recent.length - 1]?.seq).toBeLessThanOrEqual(r.status.version);

    // Turns: each turnStarted carries its own turn; the turn never goes down; the last is now.
    for (const e of recent) if (e.event.type === 'turnStarted') expect(e.turn).toBe(e.event.turn);
    for (let i = 1; i < recent.length; i++)
      expect(recent[i]?.turn).toBeGreaterThanOrEqual(recent[i - 1]?.turn ?? 0);
    expect(recent[recent.length - 1]?.turn).toBe(rt.state.turn);
    const starts = recent.filter((e) => e.event.type === 'turnStarted').map((e) => e.turn);
    expect(starts).toContain(rt.state.turn);
  });

  it('a player resuming from a version gets the recent events too, alongside the missed patches', async () => {
    const rt = await app.hub.get(worldId);
    const c = client(alice);
    const r = await c.subscribe(Math.max(0, (rt?.version ?? 1) - 1));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.sync.kind).toBe('patches');
    expect(r.recent.length).toBeGreaterThan(0);
  });
});

describe('column 11 of the record sheet', () => {
  it('GET /api/worlds/:id returns the administration result: roll, result, rebellion rolls, empire', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const row = {
      player: 'p1',
      cycle: 1,
      position: 'GOTH',
      stage: 'kingdom',
      turn: 2,
      tax: 6,
      other: 0,
      vp: 6,
      carried: 0,
      available: 6,
      upkeep: 2,
      purchases: 0,
      administration: 1,
      treasury: 3,
      adminPercent: 10,
      adminResult: null as null | Record<string, unknown>,
    };
    const ev = (r: typeof row) => [{ type: 'ledgerRow', row: r }] as never;
    // The economic phase emits the row without column 11; the administration phase fills it in.
    await projectEvents(t.db, worldId, 900, rt.state, ev(row));
    await projectEvents(
      t.db,
      worldId,
      901,
      rt.state,
      ev({ ...row, adminResult: { roll: 7, result: 'rebellion', rebellions: [3, 4], becameEmpire: false } }),
    );
    await projectEvents(
      t.db,
      worldId,
      902,
      rt.state,
      ev({ ...row, turn: 3, adminResult: { roll: 11, result: 4, rebellions: [], becameEmpire: true } }),
    );
    const r = await api(base, null, 'GET', `/api/worlds/${worldId}`);
    expect(r.status).toBe(200);
    // The whole answer keeps the contract, the world's options included.
    const detail = worldDetailResponseSchema.parse(r.body);
    expect(detail.options.victory).toBe('basic');
    // Column 11 rides on the sheet line of its player, cycle and turn, folded by the server.
    const p1 = detail.sheet.filter((l) => l.player === 'p1');
    expect(p1.filter((l) => l.turn >= 2).map((l) => [l.turn, l.adminResult])).toEqual([
      [2, { roll: 7, result: 'rebellion', rebellions: [3, 4], becameEmpire: false }],
      [3, { roll: 11, result: 4, rebellions: [], becameEmpire: true }],
    ]);
    const turn2 = p1.find((l) => l.turn === 2);
    expect([turn2?.tax, turn2?.vpTotal, turn2?.treasury, turn2?.adminPercent]).toEqual([6, 6, 3, 10]);
  });
});

describe('world/planCost', () => {
  it('prices a plan for a player only; a spectator is refused; a bad message is invalid', async () => {
    const plan = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 0 };
    const watcher = client(null);
    await watcher.subscribe();
    const refused = await watcher.emit('world/planCost', { worldId, plan });
    expect(refused).toMatchObject({ ok: false, error: { code: 'auth/forbidden' } });
    const player = client(alice);
    await player.subscribe();
    const r = await player.emit<{ cost: unknown }>('world/planCost', { worldId, plan });
    expect(r.ok).toBe(true);
    // A barbarian has no realm plan to price: no cost (null), never a made-up number.
    expect(r).toEqual({ ok: true, cost: null });
    const bad = await player.emit('world/planCost', { worldId, plan: 'everything' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'socket/invalid' } });
    const nonsense = await player.emit('world/planCost', { worldId, plan: { adminPercent: 'all' } });
    expect(nonsense).toMatchObject({ ok: false, error: { code: 'order/invalid' } });
  });
});

describe("a player's private part of the view", () => {
  it('reaches that player alone, as a small delta in its own patch, never as a full view', async () => {
    const a = client(alice);
    const b = client(bob);
    const watcher = client(null);
    await a.subscribe();
    await b.subscribe();
    await watcher.subscribe();
    const views = { a: 0, b: 0, watcher: 0 };
    const patched = { a: [] as PatchMessage[], b: [] as PatchMessage[], watcher: [] as PatchMessage[] };
    for (const [k, c] of [
      ['a', a],
      ['b', b],
      ['watcher', watcher],
    ] as const) {
      c.socket.on('world/view', () => views[k]++);
      c.socket.on('world/patch', (p: PatchMessage) => patched[k].push(p));
    }
    const rt = await app.hub.get(worldId);
    if (!rt || !a.playerId) throw new Error('no world');
    // A sealed bid only its maker sees (13.3): put in place as if recorded earlier, out of any patch.
    const realm = (rt.state as unknown as { realm: { players: Record<string, object> } }).realm;
    const mine = {
      ...initialRealmPlayer(),
      ...(realm.players[a.playerId] ?? {}),
      bids: { turn: 99, list: [] },
    };
    rt.state = {
      ...rt.state,
      realm: { ...realm, players: { ...realm.players, [a.playerId]: mine } },
    } as typeof rt.state;
    // Any order commits; the bid reaches its owner in its own patch of that order.
    const who = rt.waitingFor()[0] === a.playerId ? a : b;
    await who.until(rt.version);
    const r = await who.order(pickOrder(who.legal, { done: true }));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    for (const c of [a, b, watcher]) await c.until(r.version);
    await new Promise((done) => setTimeout(done, 200));
    expect(views).toEqual({ a: 0, b: 0, watcher: 0 });
    const bidOps = (ps: PatchMessage[]) =>
      ps.filter((p) => p.to === r.version).flatMap((p) => p.ops.filter((o) => o.path.includes('bids')));
    expect(bidOps(patched.a)).toEqual([
      { op: 'add', path: `/realm/players/${a.playerId}/bids`, value: { turn: 99, list: [] } },
    ]);
    expect(bidOps(patched.b)).toEqual([]);
    expect(bidOps(patched.watcher)).toEqual([]);
    // Each carries that order's events, as the log has them (nothing private among them here).
    const stored = await t.db.prisma.worldOrder.findUniqueOrThrow({
      where: { worldId_seq: { worldId, seq: r.version } },
    });
    for (const ps of [patched.a, patched.b, patched.watcher])
      expect(ps.find((p) => p.to === r.version)?.events).toEqual(stored.events);
    const held = (a.view as unknown as { realm: { players: Record<string, { bids?: unknown }> } }).realm;
    expect(held.players[a.playerId]?.bids).toEqual({ turn: 99, list: [] });
    const other = (b.view as unknown as { realm: { players: Record<string, { bids?: unknown }> } }).realm;
    expect(other.players[a.playerId]?.bids).toBeUndefined();
    // Resubscribing from an older version, the player gets its own patches, the bid among them.
    const again = await a.subscribe(r.version - 1);
    expect(again.ok && again.sync.kind).toBe('patches');
    expect(again.ok && again.sync.kind === 'patches' && again.sync.patches.map((p) => p.to)).toEqual([
      r.version,
    ]);
    expect(again.ok && again.sync.kind === 'patches' && JSON.stringify(again.sync.patches)).toContain('bids');
  });
});
