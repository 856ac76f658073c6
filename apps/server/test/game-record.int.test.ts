/**
 * Game records of a world played through the server (docs/game-records.md): three players play
 * with every optional rule of section 13 on, order by order over Socket.IO. While the world is in
 * play, each player's downloaded record holds nothing of another player's plans, bids or lease
 * offers (searched as the hidden-information test searches every message), no seed and no hash;
 * once the world is closed, anyone's download is the complete record, whose replay through the
 * engine reproduces the state the server holds.
 */
import { type GameRecord, type PlayerId, RULES_VERSION, replayRecord, type ViewerRecord } from '@bke/engine';
import { gameRecordSchema, HTTP_ROUTES } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { chooser } from './helpers/diplomacy-chooser.ts';
import { leaks, PRIVATE_STATUSES } from './helpers/hidden-leaks.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { worldOfThree } from './helpers/world-of-three.ts';

/** Game turns played: kingdoms rise (with their plans, and leases offered them) around turn 9–12. */
const TURNS = 13;
/** The orders of another player a viewer must never find in its record: all of them carry secrets or may. */
const PUBLIC_SYSTEM_ORDERS = new Set(['join', 'leave', 'forceAbandon']);

let t: TestDatabase;
let app: App;
let base: string;
let worldId: string;
let host: string;
const cookies: string[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(
    t.db,
    {
      limits: {
        socketEvents: { burst: 10_000, perSecond: 10_000 },
        // Records are downloaded for every viewer at every turn from one address; the limit is tested below.
        replays: { burst: 10_000, perMinute: 10_000 },
      },
    },
    (a) => registerModeration(a.http, t.db, a.hub, a.io),
  ));
  const world = await worldOfThree(t, base, 'Recorded', 'game-record');
  host = world.host;
  worldId = world.worldId;
  cookies.push(...world.cookies);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const recordPath = () => HTTP_ROUTES.worldRecord.path.replace(':id', worldId);

/** A record as downloaded by `cookie` (null: without an account), checked against the published schema. */
async function download(cookie: string | null): Promise<GameRecord> {
  const r = await api(base, cookie, 'GET', recordPath());
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const parsed = gameRecordSchema.safeParse(r.body);
  if (!parsed.success) throw new Error(`the record does not fit its schema: ${parsed.error.message}`);
  return parsed.data;
}

/** Everything in a viewer's record that its viewer could not have seen. */
function hiddenIn(record: ViewerRecord, viewer: PlayerId | null): string[] {
  const out = leaks(JSON.parse(JSON.stringify(record)), '', viewer);
  if ('seed' in record.setup) out.push('the seed');
  if ('hash' in record.final) out.push('the final hash');
  for (const o of record.orders) {
    if (o.order === undefined) continue;
    const own = viewer !== null && o.actor === viewer;
    const seatChange = o.actor === 'system' && PUBLIC_SYSTEM_ORDERS.has(o.order.type);
    if (!own && !seatChange) out.push(`order ${o.seq}: ${o.order.type} by ${o.actor}`);
  }
  return out;
}

describe('game records of a world played through the server', () => {
  it("a player's record of the world in play holds nothing another player kept hidden", {
    timeout: 900_000,
  }, async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const engine = app.hub.engine;
    const players = await Promise.all(
      cookies.map(async (cookie) => {
        const client = new TestClient(base, cookie, worldId);
        clients.push(client);
        const r = await client.subscribe();
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        return { cookie, client, viewer: r.playerId as PlayerId };
      }),
    );
    const seatOf = new Map(players.map((p) => [p.viewer, p]));
    const choose = chooser(engine, 'game-record');
    const seen = { secretsHeld: 0, checked: 0, ownSecretOrders: 0 };
    let checkedTurn = 0;

    for (let i = 0; i < 4000 && rt.state.turn <= TURNS; i++) {
      const player = rt.waitingFor()[0];
      if (!player) break;
      const p = seatOf.get(player);
      if (!p) throw new Error(`nobody plays ${player}`);
      await p.client.until(rt.version);
      const r = await p.client.order(choose(rt.state, player));
      if (!r.ok) throw new Error(`${player}: ${JSON.stringify(r.error)}`);
      // Once a turn, while some player keeps a plan or a lease offer hidden from the others,
      // every viewer downloads its record.
      const realm = rt.state.realm;
      const secrets =
        Object.values(realm?.players ?? {}).filter((x) => x.plan).length +
        (realm?.leases ?? []).filter((l) => PRIVATE_STATUSES.has(l.status)).length;
      if (secrets === 0 || checkedTurn === rt.state.turn) continue;
      checkedTurn = rt.state.turn;
      seen.secretsHeld += secrets;
      const log = await t.db.prisma.worldOrder.count({ where: { worldId } });
      for (const v of [...players, { cookie: null, viewer: null }]) {
        const record = await download(v.cookie);
        expect(record.kind).toBe('viewer');
        if (record.kind !== 'viewer') continue;
        expect(hiddenIn(record, v.viewer), `${v.viewer ?? 'spectator'}'s record`).toEqual([]);
        // Every order has its place, hidden or not: the record is the log, filtered.
        expect(record.orders.length).toBe(log);
        expect(record.viewer.seats).toEqual(v.viewer ? [v.viewer] : []);
        seen.ownSecretOrders += record.orders.filter(
          (o) => o.order && ['realmPlan', 'realmLeaseOffer', 'realmBid'].includes(o.order.type),
        ).length;
        seen.checked++;
      }
    }
    // The secrets were there to keep, and each player's own secret orders were in its own record
    // (the search above could fail).
    expect(rt.state.turn).toBeGreaterThan(TURNS);
    expect(seen.secretsHeld).toBeGreaterThan(0);
    expect(seen.checked).toBeGreaterThan(4);
    expect(seen.ownSecretOrders).toBeGreaterThan(0);
  });

  it("a closed world's record, downloaded without an account, replays to the server's final state", {
    timeout: 300_000,
  }, async () => {
    const closed = await api(base, host, 'POST', `/api/moderation/worlds/${worldId}/close`, {
      reason: 'done',
    });
    expect(closed.status).toBe(200);
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const record = await download(null);
    expect(record.kind).toBe('complete');
    if (record.kind !== 'complete') return;
    expect(record.setup.seed).toBe('game-record');
    expect(record.orders.length).toBe(await t.db.prisma.worldOrder.count({ where: { worldId } }));
    expect(record.orders.every((o) => o.at !== null)).toBe(true);
    // Its events come with it, so that it can be read without the rules: each turn's start among them.
    const starts = record.orders.flatMap((o) => o.events ?? []).filter((e) => e.type === 'turnStarted');
    expect(starts.map((e) => e.turn)).toEqual(Array.from({ length: record.final.turn }, (_, k) => k + 1));
    const serverHash = app.hub.engine.hash(rt.state);
    expect(record.final.hash).toBe(serverHash);
    // Through JSON, as a file would carry it, then through the engine from the set-up.
    const replayed = replayRecord(app.hub.engine, JSON.parse(JSON.stringify(record)), RULES_VERSION);
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(replayed.value.hash).toBe(serverHash);
    // A player gets the same complete record now.
    const mine = await download(cookies[0] ?? null);
    expect(mine.kind).toBe('complete');
  });

  it("a world rolled back by a moderator records the play as it stands, which replays to the server's state", {
    timeout: 600_000,
  }, async () => {
    const created = await api(base, host, 'POST', '/api/worlds', {
      name: 'Rolled back',
      seed: 'rolled-back',
    });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    const id = (created.body.world as { id: string }).id;
    const seats = new Map<PlayerId, TestClient>();
    for (const name of ['dave', 'erin']) {
      const cookie = await signup(base, name);
      const joined = await api(base, cookie, 'POST', `/api/worlds/${id}/join`, {});
      if (joined.status !== 200) throw new Error(JSON.stringify(joined.body));
      const client = new TestClient(base, cookie, id);
      clients.push(client);
      const r = await client.subscribe();
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      seats.set(r.playerId as PlayerId, client);
    }
    const rt = await app.hub.get(id);
    if (!rt) throw new Error('no world');
    const choose = chooser(app.hub.engine, 'rolled-back');
    const playTo = async (turn: number) => {
      for (let i = 0; i < 3000 && rt.state.turn < turn; i++) {
        const player = rt.waitingFor()[0];
        const client = player ? seats.get(player) : undefined;
        if (!player || !client) throw new Error(`nobody to act at turn ${rt.state.turn}`);
        await client.until(rt.version);
        const r = await client.order(choose(rt.state, player));
        if (!r.ok) throw new Error(`${player}: ${JSON.stringify(r.error)}`);
      }
    };
    await playTo(5);
    const back = await api(base, host, 'POST', `/api/moderation/worlds/${id}/rollback`, {
      reason: 'test',
      turn: 3,
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(rt.state.turn).toBe(3);
    await playTo(6);
    const closed = await api(base, host, 'POST', `/api/moderation/worlds/${id}/close`, { reason: 'done' });
    expect(closed.status).toBe(200);
    const r = await api(base, null, 'GET', HTTP_ROUTES.worldRecord.path.replace(':id', id));
    expect(r.status).toBe(200);
    const record = gameRecordSchema.parse(r.body);
    if (record.kind !== 'complete') throw new Error('not a complete record');
    // The undone orders and the rollback row are out; the seqs keep their gap.
    const log = await t.db.prisma.worldOrder.count({ where: { worldId: id } });
    expect(record.orders.length).toBeLessThan(log);
    const seqs = record.orders.map((o) => o.seq);
    expect(seqs.some((s, i) => i > 0 && s !== (seqs[i - 1] ?? 0) + 1)).toBe(true);
    const replayed = replayRecord(app.hub.engine, JSON.parse(JSON.stringify(record)), RULES_VERSION);
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(replayed.value.hash).toBe(app.hub.engine.hash(rt.state));
  });

  it('answers 404 for a world that does not exist or an id that is not one', async () => {
    const missing = await api(base, null, 'GET', '/api/worlds/6f1c2a4e-0000-4000-8000-000000000099/record');
    expect(missing.status).toBe(404);
    expect((missing.body.error as { code: string }).code).toBe('world/not_found');
    expect((await api(base, null, 'GET', '/api/worlds/not-a-world/record')).status).toBe(404);
  });
});

describe('downloading records is rate-limited as replays are', () => {
  it('refuses a client address that asks too often, with a typed code', async () => {
    const u = await openTestDatabase();
    const { app: small, base: b } = await serveApp(u.db, { limits: { replays: { burst: 2, perMinute: 1 } } });
    try {
      const path = '/api/worlds/6f1c2a4e-0000-4000-8000-000000000099/record';
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push(await api(b, null, 'GET', path));
      expect(statuses.map((s) => s.status)).toEqual([404, 404, 429, 429]);
      expect(JSON.stringify(statuses[3]?.body)).toContain('"code":"http/rate_limited"');
    } finally {
      await small.close();
      await u.dispose();
    }
  });
});
