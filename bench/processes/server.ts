/**
 * The server under test, in its own process: the real app (`buildApp`, as `npm start` builds it)
 * on its own database, into which the benchmark's worlds are restored — one full copy of each
 * fixture (its whole log, snapshots and projections) and further copies of its head (latest
 * snapshot, later orders, seats, cycles) when a metric needs many worlds. Players sign in with
 * sessions made here, as a log-in would. The same script also runs a further process of the same
 * site (`join`): the app on the first one's database, without a restore of its own.
 */
import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE } from '@bke/protocol';
import { type App, buildApp, createSession, type Database, migrateDatabase, openDatabase } from '@bke/server';
import { FIXTURE_LABEL, type Fixture, type FixtureName, readFixtures } from '../fixtures/fixture.ts';
import { restoreTables, type Tables } from '../fixtures/rows.ts';
import { probeHandlers, serve } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { probeServer, type ServerTimes, tailProbed } from '../lib/tail.ts';

export interface WorldSpec {
  worldId: string;
  players: { playerId: string; cookie: string }[];
}

export interface StartRequest {
  db: BenchDatabase;
  fixtures: string;
  /** How many worlds of each fixture (the first a full copy). */
  copies: Record<FixtureName, number>;
  /** A web build to serve (the log-in benchmark's static file); none by default. */
  webDist?: string;
}

export interface Started {
  url: string;
  worlds: Record<FixtureName, WorldSpec[]>;
  restoreSeconds: number;
}

let db: Database | null = null;
let app: App | null = null;
/** BENCH_TAIL: the order times noted since last asked (lib/tail.ts). */
let tailTimes: (() => ServerTimes) | null = null;

/** The fixture's rows for copy `n`: fresh ids, and for n > 0 only the head of the world. */
function copyOf(f: Fixture, n: number): { tables: Tables; worldId: string; users: Map<string, string> } {
  let tables = f.tables;
  if (n > 0) {
    const snaps = (tables.world_snapshots ?? []).filter((r) => Number(r.seq) <= f.version);
    const head = Math.max(0, ...snaps.map((r) => Number(r.seq)));
    tables = {
      ...tables,
      world_snapshots: snaps.filter((r) => Number(r.seq) === head),
      // From the head snapshot's own order on: the world's version is its log's last seq, so the
      // copy keeps that order (not replayed: the snapshot already holds its state).
      world_orders: (tables.world_orders ?? []).filter((r) => Number(r.seq) >= head),
      vp_ledger: [],
    };
  }
  const worldId = randomUUID();
  const users = new Map(f.users.map((u) => [u.id, randomUUID()]));
  let text = JSON.stringify(tables).replaceAll(f.worldId, worldId);
  for (const [from, to] of users) text = text.replaceAll(from, to);
  const out = JSON.parse(text) as Tables;
  for (const u of out.users ?? []) {
    u.username = `${u.username}-${f.name}-${n}`;
    u.username_key = `${u.username_key}-${f.name}-${n}`;
    // Per-account secrets (unique by construction) are drawn afresh for each copy.
    for (const [k, v] of Object.entries(u))
      if (k.endsWith('_token') && typeof v === 'string') u[k] = randomUUID();
  }
  return { tables: out, worldId, users };
}

async function start(req: StartRequest): Promise<Started> {
  const t0 = performance.now();
  db = await openDatabase(req.db.kind === 'postgres' ? { kind: 'postgres', url: req.db.url } : req.db);
  await migrateDatabase(db);
  const set = readFixtures(req.fixtures);
  const worlds = { turn1: [] as WorldSpec[], turn300: [] as WorldSpec[] };
  for (const name of Object.keys(req.copies) as FixtureName[]) {
    const f = set.fixtures[name];
    const total = req.copies[name];
    for (let n = 0; n < total; ) {
      // Up to 50 copies per statement batch (a full copy alone).
      const batch: Tables = {};
      const made: { worldId: string; users: Map<string, string> }[] = [];
      for (let k = 0; k < (n === 0 ? 1 : 50) && n < total; k++, n++) {
        const c = copyOf(f, n);
        made.push(c);
        for (const [t, rows] of Object.entries(c.tables)) {
          const into = batch[t] ?? [];
          into.push(...rows);
          batch[t] = into;
        }
      }
      await restoreTables(db, batch);
      for (const c of made) {
        const players = [];
        for (const u of f.users) {
          const token = await createSession(db, c.users.get(u.id) ?? '');
          players.push({ playerId: u.playerId, cookie: `${SESSION_COOKIE}=${token}` });
        }
        worlds[name].push({ worldId: c.worldId, players });
      }
    }
    console.log(`[bench] server: ${total} world(s) ${FIXTURE_LABEL[name]} restored`);
  }
  const url = await listen(db, req.db.kind, req.webDist);
  return { url, worlds, restoreSeconds: (performance.now() - t0) / 1000 };
}

/** The app as the product builds it, on `database`, listening on a free port; its address. */
async function listen(database: Database, kind: BenchDatabase['kind'], webDist?: string): Promise<string> {
  app = await buildApp({
    db: database,
    webDist: webDist ?? '/nonexistent',
    deadlinePollMs: 0,
    // Warnings and errors show in the run's output (a failed snapshot or projection write, say).
    logger: { level: 'warn' },
    sessionPurgeMs: 0,
    // The load generator is one address and each account opens several sockets: caps out of the way.
    limits: {
      socketEvents: { burst: 1_000_000, perSecond: 1_000_000 },
      socketsPerAddress: 1_000_000,
      socketsPerAccount: 1_000_000,
      // The log-in benchmark's log-ins and resets come from one address and many names.
      authPerAddress: { burst: 1_000_000, perMinute: 1_000_000 },
      forgotPerAddress: { burst: 1_000_000, perMinute: 1_000_000 },
      // Not the shared per-address limit on resets either (a made-up link never reaches it); the
      // budget of made-up links per address stays at its default: it is the defence measured.
      resetPerAddress: { burst: 1_000_000, perMinute: 1_000_000 },
      loginFreeFailures: 1_000_000,
    },
    // As `npm start` runs: on PostgreSQL through Socket.IO's PostgreSQL adapter, embedded alone.
    cluster: kind === 'postgres' ? { kind: 'postgres' } : { kind: 'none' },
  });
  if (tailProbed()) tailTimes = probeServer(app, database);
  return app.http.listen({ port: 0, host: '127.0.0.1' });
}

serve(
  {
    ...probeHandlers(),
    start: (req: StartRequest) => start(req),
    /**
     * Another process of the same site: the app on the database a first process restored (no
     * restore of its own), reaching the others through the adapter as a deployed process does.
     */
    join: async (req: { db: BenchDatabase & { kind: 'postgres' } }) => {
      db = await openDatabase({ kind: 'postgres', url: req.db.url });
      return { url: await listen(db, 'postgres') };
    },
    /** Loads worlds into memory as a subscribe would (the idle-game memory metric). */
    load: async (ids: string[]) => {
      for (const id of ids) await app?.hub.get(id);
      return ids.length;
    },
    /**
     * Unloads every world nobody watches and nothing uses (`hub.unloadIdle(0)`), as the product
     * does after its idle time, and waits for their digests to be stored; returns how many went.
     */
    unload: async () => {
      const n = app?.hub.unloadIdle(0) ?? 0;
      // Their digests go to the database on the background connections: measured once written,
      // as a server would be a moment after it let them go.
      await app?.hub.digestsStored();
      return n;
    },
    tailTimes: () => tailTimes?.() ?? null,
    worldsLoaded: () => app?.hub.loaded().length ?? 0,
    /**
     * What the server is waiting on, asked when orders went unanswered: the worlds whose queues
     * hold tasks, and whether the database still answers a trivial query within 5 s.
     */
    diagnose: async () => {
      const busy = (app?.hub.loaded() ?? [])
        .filter((rt) => rt.pending > 0)
        .map((rt) => ({ world: rt.id, pending: rt.pending }));
      const t = performance.now();
      const answered = await Promise.race([
        db?.ping().then((ok) => (ok ? performance.now() - t : -1)),
        new Promise<null>((r) => setTimeout(() => r(null), 5000)),
      ]);
      return { busyWorlds: busy.length, busy: busy.slice(0, 5), databaseAnswersMs: answered };
    },
  },
  async () => {
    await app?.close();
    await db?.close();
  },
);
