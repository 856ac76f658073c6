/**
 * Metrics 1 and 2 (shared/reference/performance.md), open-loop at a fixed offered rate, latency
 * measured from each order's scheduled send time:
 *  #1 order → ack (the ack leaves only after the durable commit) at 1, 200 and 1000 clients, each
 *     client alone in its world; baseline: a bare Socket.IO echo whose handler does one `pg` INSERT
 *     of the same bytes, at the same load. Targets p50 ≤ 1.3×, p99 ≤ 1.6×.
 *  #2 order → the last of the world's six players has the patch; baseline: the #1 baseline plus one
 *     bare room emit of the same bytes. Targets p50 ≤ 1.4×, p99 ≤ 1.8×.
 * Rounds interleave baseline and server (A B A B); each ratio is the median of the per-round ratios.
 * BENCH_CLIENTS=1,200 limits the levels; BENCH_SECONDS sets each round's length (default 4).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildApp,
  createSession,
  migrateDatabase,
  openDatabase,
  pg,
  SocketIoServer as Server,
  type WorldHub,
} from '@bke/server';

import { io as connect, type Socket } from 'socket.io-client';
import { type Check, check, median, quantile, report } from './_server-lib.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const LEVELS = (process.env.BENCH_CLIENTS ?? '1,200,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 2;
/** Offered load (orders per second, all clients together) per level. */
const rateFor = (clients: number) => (clients === 1 ? 50 : clients <= 200 ? 200 : 250);

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  await c.query(sql);
  await c.end();
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Maps with at most `limit` calls in flight (set-up of hundreds of worlds). */
async function pmap<T, R>(items: T[], limit: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}

const dbName = `bke_bench_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE "${dbName}"`);
const url = new URL(SERVER);
url.pathname = `/${dbName}`;
const checks: Check[] = [];
const raw: Record<string, unknown> = {};

try {
  const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 8 });
  await migrateDatabase(db);
  const app = await buildApp({
    db,
    webDist: '/nonexistent',
    deadlinePollMs: 0,
    limits: {
      socketEvents: { burst: 1000, perSecond: 1000 },
      socketsPerAddress: 10_000,
      socketsPerAccount: 10_000,
    },
    // As `npm start` runs on PostgreSQL: on Socket.IO's PostgreSQL adapter (alone, it sends nothing).
    cluster: { kind: 'postgres' },
  });
  const base = await app.http.listen({ port: 0, host: '127.0.0.1' });
  const hub: WorldHub = app.hub;

  // The bare baseline: Socket.IO echo + one pg INSERT (+ a room emit for #2).
  const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
  pool.on('error', () => {});
  await pool.query('CREATE TABLE echo (id bigserial PRIMARY KEY, world text, body jsonb)');
  const bareHttp = createServer();
  const bare = new Server(bareHttp, { serveClient: false, transports: ['websocket'] });
  bare.on('connection', (s) => {
    s.on('join', (room: string, ack: () => void) => {
      void s.join(room);
      ack();
    });
    s.on('echo', async (msg: { room?: string; body: unknown }, ack: (r: unknown) => void) => {
      await pool.query('INSERT INTO echo (world, body) VALUES ($1, $2)', [
        msg.room ?? '',
        JSON.stringify(msg.body),
      ]);
      if (msg.room) bare.to(msg.room).emit('p', { to: 1, body: msg.body });
      ack({ ok: true });
    });
  });
  await new Promise<void>((r) => bareHttp.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bareHttp.address() as AddressInfo).port}`;

  const passwordHash = 'scrypt$16384$8$1$AAAA$AAAA';
  let userCount = 0;
  async function makeUsers(n: number) {
    const names = Array.from({ length: n }, () => `u${++userCount}`);
    await db.prisma.user.createMany({
      data: names.map((username) => ({ username, usernameKey: username, passwordHash })),
    });
    const users = await db.prisma.user.findMany({ where: { username: { in: names } } });
    return pmap(users, 8, async (u) => ({
      id: u.id,
      username: u.username,
      cookie: `bke_session=${await createSession(db, u.id)}`,
    }));
  }

  /** A world with these users seated, past the entry step, so every player may order at once. */
  async function makeWorld(users: { id: string; username: string }[]) {
    const w = await hub.createWorld(users[0]?.id ?? '', {
      name: 'bench',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    });
    if (!w.ok) throw new Error('world');
    for (const u of users) if (!(await hub.join(w.worldId, u)).ok) throw new Error('join');
    const rt = await hub.get(w.worldId);
    if (!rt) throw new Error('rt');
    let clock = Date.now();
    while (rt.state.step.kind === 'entry' || rt.state.players.some((p) => p.status !== 'active')) {
      clock += 86_400_000 * 2;
      await rt.run(() => hub.fireDeadline(rt, new Date(clock)));
    }
    return w.worldId;
  }

  const open = (u: string, cookie?: string) =>
    new Promise<Socket>((resolve, reject) => {
      const s = connect(u, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: cookie ? { cookie } : {},
      });
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });

  interface Actor {
    send(): Promise<void>;
  }
  /** Open-loop driver: each actor sends at `rate/actors` per second from a random phase. */
  async function drive(actors: Actor[], rate: number, seconds: number): Promise<number[]> {
    const per = rate / actors.length;
    const lat: number[] = [];
    const t0 = performance.now() + 200;
    const end = t0 + seconds * 1000;
    await Promise.all(
      actors.map(async (a) => {
        let next = t0 + Math.random() * (1000 / per);
        while (next < end) {
          const wait = next - performance.now();
          if (wait > 0) await sleep(wait);
          await a.send();
          lat.push(performance.now() - next);
          next += 1000 / per;
        }
      }),
    );
    return lat;
  }

  // ---- #1 ----
  for (const n of LEVELS) {
    const users = await makeUsers(n);
    const subject: Actor[] = [];
    const baseline: Actor[] = [];
    await pmap(users, 8, async (u) => {
      const worldId = await makeWorld([u]);
      const s = await open(base, u.cookie);
      const sub = (await s.emitWithAck('world/subscribe', { worldId })) as {
        ok: boolean;
        sync: { version: number };
      };
      if (!sub.ok) throw new Error('subscribe');
      let version = sub.sync.version;
      let abandon = true;
      subject.push({
        async send() {
          const r = (await s.emitWithAck('world/order', {
            worldId,
            version,
            order: { type: 'declareAbandon', abandon },
          })) as { ok: boolean; version: number; error?: unknown };
          if (!r.ok) throw new Error(`order refused ${JSON.stringify(r.error)}`);
          version = r.version;
          abandon = !abandon;
        },
      });
      const b = await open(bareUrl);
      const body = { worldId, version: 0, order: { type: 'declareAbandon', abandon: true } };
      baseline.push({ send: () => b.emitWithAck('echo', { body }) });
    });
    const rate = rateFor(n);
    const pairs = { p50: [] as number[], p99: [] as number[], a: [] as number[][], b: [] as number[][] };
    for (let i = 0; i < ROUNDS; i++) {
      const a = await drive(baseline, rate, SECONDS);
      const b = await drive(subject, rate, SECONDS);
      pairs.a.push(a);
      pairs.b.push(b);
      pairs.p50.push(quantile(b, 0.5) / quantile(a, 0.5));
      pairs.p99.push(quantile(b, 0.99) / quantile(a, 0.99));
    }
    const all = (xs: number[][]) => xs.flat();
    checks.push(
      check(
        '1',
        `order→ack p50, ${n} client(s) @ ${rate}/s`,
        quantile(all(pairs.b), 0.5),
        quantile(all(pairs.a), 0.5),
        1.3,
        ' ms',
        median(pairs.p50),
      ),
      check(
        '1',
        `order→ack p99, ${n} client(s) @ ${rate}/s`,
        quantile(all(pairs.b), 0.99),
        quantile(all(pairs.a), 0.99),
        1.6,
        ' ms',
        median(pairs.p99),
      ),
    );
    raw[`m1_${n}`] = { rate, p50Ratios: pairs.p50, p99Ratios: pairs.p99 };
    console.log(
      checks
        .slice(-2)
        .map((c) => `${c.what}: ${c.value.toFixed(2)} vs ${c.baseline.toFixed(2)} ms`)
        .join('\n'),
    );
  }

  // ---- #2: worlds of six players; one acts, all six must have the patch ----
  for (const worlds of [1, 30]) {
    const actors: Actor[] = [];
    const baseline: Actor[] = [];
    for (let w = 0; w < worlds; w++) {
      const users = await makeUsers(6);
      const worldId = await makeWorld(users);
      const sockets: Socket[] = [];
      let version = 0;
      for (const u of users) {
        const s = await open(base, u.cookie);
        const sub = (await s.emitWithAck('world/subscribe', { worldId })) as { sync: { version: number } };
        version = sub.sync.version;
        sockets.push(s);
      }
      const seen = sockets.map(() => version);
      const waiters: { v: number; resolve: () => void }[] = [];
      for (const [i, s] of sockets.entries())
        s.on('world/patch', (p: { to: number }) => {
          seen[i] = p.to;
          for (const wt of waiters.filter((x) => seen.every((v) => v >= x.v))) {
            waiters.splice(waiters.indexOf(wt), 1);
            wt.resolve();
          }
        });
      let abandon = true;
      const actor = sockets[0] as Socket;
      actors.push({
        async send() {
          const target = version + 1;
          const all = new Promise<void>((resolve) => waiters.push({ v: target, resolve }));
          const r = (await actor.emitWithAck('world/order', {
            worldId,
            version,
            order: { type: 'declareAbandon', abandon },
          })) as { ok: boolean; version: number };
          if (!r.ok) throw new Error('order refused');
          version = r.version;
          abandon = !abandon;
          await all;
        },
      });
      const bs: Socket[] = [];
      for (let i = 0; i < 6; i++) {
        const b = await open(bareUrl);
        await b.emitWithAck('join', `room${w}`);
        bs.push(b);
      }
      const bseen = bs.map(() => 0);
      let bcount = 0;
      const bwait: { v: number; resolve: () => void }[] = [];
      for (const [i, b] of bs.entries())
        b.on('p', () => {
          bseen[i] = (bseen[i] ?? 0) + 1;
          for (const wt of bwait.filter((x) => bseen.every((v) => v >= x.v))) {
            bwait.splice(bwait.indexOf(wt), 1);
            wt.resolve();
          }
        });
      const body = {
        worldId,
        from: 1,
        to: 2,
        ops: [{ op: 'replace', path: '/players/0/abandoning', value: true }],
      };
      baseline.push({
        async send() {
          const target = ++bcount;
          const all = new Promise<void>((resolve) => bwait.push({ v: target, resolve }));
          await bs[0]?.emitWithAck('echo', { room: `room${w}`, body });
          await all;
        },
      });
    }
    const rate = worlds === 1 ? 50 : 150;
    const r = { p50: [] as number[], p99: [] as number[], a: [] as number[], b: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      const a = await drive(baseline, rate, SECONDS);
      const b = await drive(actors, rate, SECONDS);
      r.a.push(...a);
      r.b.push(...b);
      r.p50.push(quantile(b, 0.5) / quantile(a, 0.5));
      r.p99.push(quantile(b, 0.99) / quantile(a, 0.99));
    }
    checks.push(
      check(
        '2',
        `order→last player's patch p50, ${worlds} world(s) × 6 @ ${rate}/s`,
        quantile(r.b, 0.5),
        quantile(r.a, 0.5),
        1.4,
        ' ms',
        median(r.p50),
      ),
      check(
        '2',
        `order→last player's patch p99, ${worlds} world(s) × 6 @ ${rate}/s`,
        quantile(r.b, 0.99),
        quantile(r.a, 0.99),
        1.8,
        ' ms',
        median(r.p99),
      ),
    );
  }

  bare.disconnectSockets(true);
  bare.close();
  await pool.end();
  await app.close();
  await db.close();
  process.exitCode = report('server-latency', checks, { seconds: SECONDS, rounds: ROUNDS, raw });
} catch (e) {
  console.error('bench failed:', e);
  process.exitCode = 1;
} finally {
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
}
process.exit();
