/**
 * `npm run soak`: many worlds played against one real server process for a long time, to show
 * that nothing grows that should not. The server is the compiled one (`npm start`'s) on a fresh
 * PostgreSQL database of its own; simulated people on real Socket.IO clients create worlds with
 * bots and short deadlines, join, play, chat, go away with a stand-in and come back, drop their
 * connection and reconnect, then either stay to the end (a moderator closes the world while it is
 * watched) or leave it unwatched until the server unloads it (then it is closed). At every
 * interval the run prints the server's resident memory, its heap after a full collection, the
 * event-loop delay, its open handles, its database connections and the error-level lines it
 * logged; at the end, the growth after warm-up against the targets, and whether every
 * acknowledged order is in the log. Exits 1 when a target fails.
 *
 * It is a bench, not a test: it measures a running system over time against targets (bench/'s
 * own rule), and nothing in it could wait on an event instead of a clock. PostgreSQL only
 * (DATABASE_URL): the database connections and the order log are read from the server's side.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { api, pickOrder, signup, TestClient } from '../apps/server/test/helpers/client.ts';
import { SERVER_NODE_FLAGS } from '../scripts/lib/server-flags.mjs';
import { growth } from './soak/slope.ts';

const argsSchema = z
  .object({
    minutes: z.coerce
      .number()
      .positive()
      .max(7 * 24 * 60)
      .default(30),
    /** Seconds between samples. */
    interval: z.coerce.number().int().min(5).max(3600).default(60),
    /** Minutes not counted in the growth (the server's caches, V8's code, the pool filling up). */
    warmup: z.coerce.number().min(0).optional(),
    /** Worlds played at once (each with two people and two bots). */
    worlds: z.coerce.number().int().min(1).max(50).default(4),
  })
  .strict();

function parseArgs(argv: string[]) {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i] ?? '');
    if (!m?.[1]) throw new Error(`unexpected argument ${argv[i]} (try --minutes N)`);
    raw[m[1]] = m[2] ?? argv[++i] ?? '';
  }
  const r = argsSchema.safeParse(raw);
  if (!r.success) throw new Error(`npm run soak: ${z.prettifyError(r.error)}`);
  return { ...r.data, warmup: r.data.warmup ?? Math.min(5, r.data.minutes / 3) };
}

if (process.argv.includes('--help')) {
  console.log(`usage: DATABASE_URL=postgresql://… npm run soak -- [options]
  --minutes N    how long to play (default 30)
  --interval S   seconds between samples (default 60)
  --warmup M     minutes left out of the growth (default 5, or a third of a shorter run)
  --worlds N     worlds played at once (default 4)`);
  process.exit(0);
}
const args = parseArgs(process.argv.slice(2));
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('npm run soak needs DATABASE_URL (a PostgreSQL server it may create a database on).');
  process.exit(2);
}

const ADMIN = { username: 'soakadmin', password: `soak-${randomBytes(8).toString('hex')}` };
const dbName = `bke_soak_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${dbName}"`);
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${dbName}`;

// ---- the server ----
const logErrors: string[] = [];
let base = '';
const server: ChildProcess = fork(new URL('./soak/server-probe.mjs', import.meta.url), [], {
  execArgv: ['--expose-gc', '--enable-source-maps', ...SERVER_NODE_FLAGS],
  env: {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: dbUrl.href,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '0',
    BKE_ADMIN_USERNAME: ADMIN.username,
    BKE_ADMIN_PASSWORD: ADMIN.password,
    // Worlds left unwatched are unloaded after a minute, so that the run goes through many.
    WORLD_IDLE_MINUTES: '1',
    DEADLINE_POLL_MS: '500',
    // One address plays every simulated person: the per-address limits would refuse them.
    AUTH_ATTEMPTS_BURST: '100000',
    AUTH_ATTEMPTS_PER_MINUTE: '100000',
    WORLDS_PER_ACCOUNT_PER_DAY: '100000',
    // Worlds per client address too: past its default (20 a day) every slot had stopped playing.
    WORLDS_PER_ADDRESS_PER_DAY: '100000',
    SOCKETS_PER_ADDRESS: '10000',
    JOINS_PER_WORLD_PER_DAY: '1000',
  },
  stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
});
let partial = '';
const onOutput = (chunk: Buffer) => {
  const lines = (partial + chunk.toString()).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) {
    const port = /running at http:\/\/localhost:(\d+)/.exec(line);
    if (port) base = `http://127.0.0.1:${port[1]}`;
    let level = 0;
    try {
      level = (JSON.parse(line) as { level?: number }).level ?? 0;
    } catch {
      // Not JSON: the server promises JSON lines only, so a plain line counts as an error.
      level = line.trim() ? 50 : 0;
    }
    if (level >= 50) logErrors.push(line);
  }
};
server.stdout?.on('data', onOutput);
server.stderr?.on('data', onOutput);
let serverExited: string | null = null;
server.on('exit', (code, signal) => {
  serverExited = `the server exited (${code ?? signal})`;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
for (const end = Date.now() + 120_000; ; await sleep(200)) {
  if (serverExited) throw new Error(`${serverExited}:\n${logErrors.join('\n')}`);
  if (base && (await fetch(`${base}/api/health/ready`).catch(() => null))?.status === 200) break;
  if (Date.now() > end) throw new Error('the server was not ready within 120 s');
}

interface Sample {
  rss: number;
  heapAfterGc: number;
  /** Memory outside V8's heap that V8 is told of (Buffers, ArrayBuffers, zlib's state). */
  external: number;
  loop: { p50: number; p99: number; max: number };
  handles: Record<string, number>;
}
function sample(): Promise<Sample> {
  return new Promise((resolve) => {
    const on = (m: { type?: string } & Sample) => {
      if (m.type !== 'sample') return;
      server.off('message', on);
      resolve(m);
    };
    server.on('message', on);
    server.send({ type: 'sample' });
  });
}

// ---- the people ----
const acked: { worldId: string; seq: number; order: unknown }[] = [];
const counts = {
  created: 0,
  closedWatched: 0,
  closedUnloaded: 0,
  reconnects: 0,
  away: 0,
  chat: 0,
  failures: 0,
};
const failures: string[] = [];
let stopping = false;
let nextName = 0;

async function person(): Promise<string> {
  return signup(base, `soak${(nextName++).toString(36)}${randomBytes(2).toString('hex')}`);
}
const adminCookie = (await api(base, null, 'POST', '/api/auth/login', ADMIN)).cookie;
if (!adminCookie) throw new Error('the soak admin could not log in');

function noteFailure(what: string, e: unknown) {
  counts.failures++;
  if (failures.length < 20) failures.push(`${what}: ${e instanceof Error ? e.message : JSON.stringify(e)}`);
}

/** One person at play in a world until `until`: orders when waited for, now and then something else. */
async function play(cookie: string, worldId: string, until: number): Promise<void> {
  let c = new TestClient(base, cookie, worldId);
  const split = { done: false };
  try {
    const first = await c.subscribe();
    if (!first.ok) throw new Error(`subscribe refused: ${JSON.stringify(first.error)}`);
    while (Date.now() < until && !stopping) {
      const roll = Math.random();
      if (roll < 0.02) {
        // The connection drops; the client comes back as the web client does (from its version).
        const version = c.version;
        c.close();
        counts.reconnects++;
        c = new TestClient(base, cookie, worldId);
        const again = await c.subscribe(version >= 0 ? version : undefined);
        if (!again.ok) throw new Error(`resubscribe refused: ${JSON.stringify(again.error)}`);
        continue;
      }
      if (roll < 0.03) {
        counts.away++;
        await api(base, cookie, 'POST', `/api/worlds/${worldId}/away`, { away: true, standIn: 'novice' });
        await sleep(2000 + Math.random() * 4000);
        await api(base, cookie, 'POST', `/api/worlds/${worldId}/away`, { away: false });
        continue;
      }
      if (roll < 0.08) {
        counts.chat++;
        await c.emit('chat/send', { worldId, to: null, body: `soak line ${counts.chat}` });
      }
      const mine = c.playerId && (c.status?.waitingFor ?? []).includes(c.playerId);
      const order = mine ? pickOrder(c.legal, split) : null;
      if (order) {
        const r = await c.order(order);
        if (r.ok && !r.deferred) acked.push({ worldId, seq: r.version, order });
        if (r.ok) await c.until(r.version, 30_000).catch(() => {});
        else await sleep(300);
      } else {
        // Not our turn: until the world moves on (or a while, then look again).
        await c.until(c.version + 1, 5000).catch(() => {});
      }
    }
  } finally {
    c.close();
  }
}

/** One slot: worlds one after the other, each played by two people and two bots, then finished. */
async function slot(n: number): Promise<void> {
  const people = [await person(), await person()];
  for (let round = 0; !stopping; round++) {
    try {
      const [a, b] = people as [string, string];
      const created = await api(base, a, 'POST', '/api/worlds', {
        name: `Soak ${n}.${round}`,
        deadline: { mode: 'live', minutesPerPhase: 0.1 },
        maxPlayers: 4,
        join: true,
        bots: ['novice', 'easy'],
      });
      const worldId = (created.body.world as { id?: string } | undefined)?.id;
      if (!worldId) throw new Error(`create: ${JSON.stringify(created.body)}`);
      counts.created++;
      const joined = await api(base, b, 'POST', `/api/worlds/${worldId}/join`, {});
      if (joined.status !== 200) throw new Error(`join: ${JSON.stringify(joined.body)}`);
      const until = Date.now() + (60 + Math.random() * 120) * 1000;
      await Promise.all([play(a, worldId, until), play(b, worldId, until)]);
      const watchedToTheEnd = round % 2 === 0;
      if (!watchedToTheEnd) {
        // Unwatched: the server lets go of it after its idle minute (the deadlines still load it
        // for a moment now and then); finished after that.
        await sleep(75_000);
      }
      const closed = await api(base, adminCookie, 'POST', `/api/moderation/worlds/${worldId}/close`, {
        reason: 'soak world finished',
      });
      if (closed.status !== 200) throw new Error(`close: ${JSON.stringify(closed.body)}`);
      if (watchedToTheEnd) counts.closedWatched++;
      else counts.closedUnloaded++;
    } catch (e) {
      noteFailure(`slot ${n}`, e);
      await sleep(5000);
    }
  }
}

// ---- the run ----
interface Row {
  minute: number;
  sample: Sample;
  handles: number;
  dbConnections: number;
  errors: number;
  load: number;
}
const rows: Row[] = [];
const started = Date.now();
const mb = (b: number) => (b / 2 ** 20).toFixed(1);
console.log(
  `soak: ${args.minutes} min, ${args.worlds} worlds at once, a sample every ${args.interval} s, warm-up ${args.warmup} min; database ${dbName}; load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  'min  rss MB  heap MB  ext MB  loop p50/p99/max ms  handles  db conns  errors  worlds made/closed  acked orders  load',
);
const slots = Array.from({ length: args.worlds }, (_, i) => slot(i));
const end = started + args.minutes * 60_000;
while (Date.now() < end && !serverExited) {
  await sleep(Math.min(args.interval * 1000, Math.max(0, end - Date.now())));
  if (serverExited) break;
  const s = await sample();
  const conns = await admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
    [dbName],
  );
  const row: Row = {
    minute: (Date.now() - started) / 60_000,
    sample: s,
    handles: Object.values(s.handles).reduce((a, b) => a + b, 0),
    dbConnections: conns.rows[0]?.n ?? 0,
    errors: logErrors.length,
    load: loadavg()[0] ?? 0,
  };
  rows.push(row);
  console.log(
    [
      row.minute.toFixed(1).padStart(4),
      mb(s.rss).padStart(6),
      mb(s.heapAfterGc).padStart(7),
      mb(s.external).padStart(6),
      `${s.loop.p50}/${s.loop.p99}/${s.loop.max}`.padStart(19),
      String(row.handles).padStart(8),
      String(row.dbConnections).padStart(9),
      String(row.errors).padStart(7),
      `${counts.created}/${counts.closedWatched + counts.closedUnloaded}`.padStart(19),
      String(acked.length).padStart(13),
      row.load.toFixed(2).padStart(5),
    ].join('  '),
  );
}

stopping = true;
await Promise.race([Promise.allSettled(slots), sleep(120_000)]);
const diedEarly = serverExited;

// Every acknowledged order is in the log, as acknowledged.
const logged = new pg.Client({ connectionString: dbUrl.href });
await logged.connect();
let missing = 0;
for (let i = 0; i < acked.length; i += 1000) {
  const part = acked.slice(i, i + 1000);
  const r = await logged.query<{ world_id: string; seq: number; order: unknown }>(
    `SELECT world_id, seq, "order" FROM world_orders
      WHERE (world_id::text, seq) IN (SELECT * FROM unnest($1::text[], $2::int[]))`,
    [part.map((x) => x.worldId), part.map((x) => x.seq)],
  );
  const found = new Map(r.rows.map((x) => [`${x.world_id}|${x.seq}`, x.order]));
  // Compared as values: jsonb keeps an object's keys in an order of its own.
  for (const x of part) if (!isDeepStrictEqual(found.get(`${x.worldId}|${x.seq}`), x.order)) missing++;
}
await logged.end();

const sentTerm = new Promise<void>((r) => server.once('exit', () => r()));
server.kill('SIGTERM');
await Promise.race([sentTerm, sleep(30_000)]);
if (!serverExited) server.kill('SIGKILL');
await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
await admin.end();

// ---- the verdict ----
const after = rows.filter((r) => r.minute >= args.warmup);
const series = (f: (r: Row) => number) => after.map((r) => ({ t: r.minute, v: f(r) }));
const heap = growth(series((r) => r.sample.heapAfterGc));
const rss = growth(series((r) => r.sample.rss));
// No target of its own: it tells whether resident memory that grows while the heap stays flat is
// held in Buffers and native state V8 knows of, or by the allocator beyond them.
const external = growth(series((r) => r.sample.external));
const handles = growth(series((r) => r.handles));
const conns = growth(series((r) => r.dbConnections));
/** Flat: the fitted line moves by at most 5 % or 2 (handles come and go with the sockets). */
const flat = (g: typeof handles) => g !== null && Math.abs(g.to - g.from) <= Math.max(2, 0.05 * g.from);
const verdicts: [string, boolean, string][] = [
  [
    'heap after GC growth ≤ 5 %',
    heap !== null && heap.percent <= 5,
    heap ? `${heap.percent.toFixed(1)} % (${mb(heap.from)} → ${mb(heap.to)} MB)` : 'too few samples',
  ],
  [
    'RSS growth ≤ 5 %',
    rss !== null && rss.percent <= 5,
    rss ? `${rss.percent.toFixed(1)} % (${mb(rss.from)} → ${mb(rss.to)} MB)` : 'too few samples',
  ],
  [
    'open handles flat',
    flat(handles),
    handles ? `${handles.from.toFixed(1)} → ${handles.to.toFixed(1)}` : 'too few samples',
  ],
  [
    'database connections flat',
    flat(conns),
    conns ? `${conns.from.toFixed(1)} → ${conns.to.toFixed(1)}` : 'too few samples',
  ],
  ['no error-level log line', logErrors.length === 0, String(logErrors.length)],
  [
    'every acknowledged order in the log',
    missing === 0 && acked.length > 0,
    `${acked.length - missing} of ${acked.length}`,
  ],
  ['the server lived to the end', diedEarly === null, diedEarly ?? 'yes'],
];
console.log(`\nafter ${args.warmup} min of warm-up (${after.length} samples):`);
for (const [what, ok, figure] of verdicts) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}: ${figure}`);
if (external)
  console.log(
    `INFO  memory outside the heap (Buffers, native state): ${external.percent.toFixed(1)} % (${mb(external.from)} → ${mb(external.to)} MB)`,
  );
console.log(
  `worlds created ${counts.created}, finished watched ${counts.closedWatched}, finished after unloading ${counts.closedUnloaded}; reconnects ${counts.reconnects}, away and back ${counts.away}, chat lines ${counts.chat}; client-side failures ${counts.failures}`,
);
for (const f of failures) console.log(`  ${f}`);
for (const l of logErrors.slice(0, 10)) console.log(`  error line: ${l.slice(0, 400)}`);
console.log(
  `load average at the end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
process.exit(verdicts.every(([, ok]) => ok) ? 0 : 1);
