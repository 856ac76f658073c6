/**
 * A year of play: one world of six bots plays YEAR_TURNS game turns (default 2,000) through the
 * real server (the bot driver, the world's queue, the order log, snapshots and projections on
 * PostgreSQL), and at every YEAR_EVERY turns (default a tenth of the run) reports, for the window
 * since the last report: the engine state's JSON size, the database bytes of the world's rows per
 * game turn (orders, snapshots, projections), the process CPU per order (bots' decisions included:
 * they run in the same process) and the commit time of the world's orders (p50, p99). The figures
 * should stay flat with the world's age. `npm run bench:year`; it takes long (see bench/README.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp, migrateDatabase, openDatabase } from '@bke/server';
import { freshDatabase } from './lib/database.ts';
import { hostFacts, loadAverage } from './lib/host.ts';
import { quantile } from './lib/stats.ts';

const USAGE = `usage: npm run bench:year   (no arguments; settings by environment)
  YEAR_TURNS=2000   game turns the six-bot world plays through the real server
  YEAR_EVERY=       turns between two reports (default a tenth of YEAR_TURNS)
  DATABASE_URL      PostgreSQL to use (else the embedded database)`;
const args = process.argv.slice(2);
if (args.length > 0) {
  const help = args.every((a) => a === '--help' || a === '-h');
  (help ? process.stdout : process.stderr).write(
    `${help ? '' : `bench:year: unknown arguments ${args.join(' ')}\n`}${USAGE}\n`,
  );
  process.exit(help ? 0 : 2);
}
function whole(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^\d{1,5}$/.test(raw) && Number(raw) >= 1) return Number(raw);
  process.stderr.write(`bench:year: ${name} must be a whole number from 1\n${USAGE}\n`);
  process.exit(2);
}
const TURNS = whole('YEAR_TURNS', 2000);
const EVERY = whole('YEAR_EVERY', Math.max(1, Math.round(TURNS / 10)));

interface Window {
  turn: number;
  orders: number;
  stateBytes: number;
  /** The world's rows in the database now (bytes, as stored). */
  stored: { orders: number; snapshots: number; projections: number };
  /** Database bytes per game turn added in this window. */
  bytesPerTurn: number;
  cpuMsPerOrder: number;
  commitP50: number;
  commitP99: number;
  load: number[];
}

const fresh = await freshDatabase('year');
const db = await openDatabase(
  fresh.kind === 'postgres' ? { kind: 'postgres', url: fresh.url, poolSize: 5 } : fresh,
);
const windows: Window[] = [];
const started = performance.now();
try {
  await migrateDatabase(db);
  const app = await buildApp({ db, webDist: '/nonexistent', deadlinePollMs: 0, bots: { aloneMs: 0 } });
  const user = await db.prisma.user.create({
    data: { username: 'year', usernameKey: 'year', passwordHash: 'x' },
  });
  const w = await app.hub.createWorld(user.id, {
    name: 'a year of play',
    deadline: { mode: 'live', minutesPerPhase: 10 },
  });
  if (!w.ok) throw new Error('world not created');
  const rt = await app.hub.get(w.worldId);
  if (!rt) throw new Error('no world');
  let commits: number[] = [];
  const commit = rt.commit.bind(rt);
  rt.commit = async (batch, ...rest) => {
    const t = performance.now();
    const r = await commit(batch, ...rest);
    commits.push(performance.now() - t);
    return r;
  };
  const stored = async () => {
    const [r] = await db.sql<{ orders: string; snapshots: string; projections: string }>(
      `SELECT (SELECT coalesce(sum(pg_column_size(o.*)), 0) FROM world_orders o WHERE world_id = $1) AS orders,
              (SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM world_snapshots s WHERE world_id = $1) AS snapshots,
              (SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM world_cycles c WHERE world_id = $1)
            + (SELECT coalesce(sum(pg_column_size(l.*)), 0) FROM vp_ledger l WHERE world_id = $1) AS projections`,
      [w.worldId],
    );
    return {
      orders: Number(r?.orders),
      snapshots: Number(r?.snapshots),
      projections: Number(r?.projections),
    };
  };
  const total = (s: Window['stored']) => s.orders + s.snapshots + s.projections;
  for (let i = 0; i < 6; i++) {
    const r = await app.hub.addBot(w.worldId, 'easy', user.id);
    if (!r.ok) throw new Error(r.error.code);
  }
  let last = {
    turn: rt.state.turn,
    version: rt.version,
    cpu: process.cpuUsage(),
    bytes: total(await stored()),
  };
  for (let next = EVERY; next <= TURNS; next += EVERY) {
    while (rt.state.turn <= next) await new Promise((r) => setTimeout(r, 200));
    await rt.settled();
    const cpu = process.cpuUsage(last.cpu);
    const now = await stored();
    const orders = rt.version - last.version;
    const turns = rt.state.turn - last.turn;
    const win: Window = {
      turn: rt.state.turn,
      orders,
      stateBytes: JSON.stringify(rt.state).length,
      stored: now,
      bytesPerTurn: (total(now) - last.bytes) / Math.max(1, turns),
      cpuMsPerOrder: (cpu.user + cpu.system) / 1000 / Math.max(1, orders),
      commitP50: quantile(commits, 0.5),
      commitP99: quantile(commits, 0.99),
      load: loadAverage(),
    };
    windows.push(win);
    console.log(
      `turn ${win.turn}: ${orders} orders; state ${win.stateBytes} B; database ${(total(now) / 1e6).toFixed(1)} MB, ${Math.round(win.bytesPerTurn)} B per turn in this window; CPU ${win.cpuMsPerOrder.toFixed(2)} ms per order; commit p50 ${win.commitP50.toFixed(1)} ms, p99 ${win.commitP99.toFixed(1)} ms (load ${win.load.join(' ')}; ${((performance.now() - started) / 60_000).toFixed(1)} min)`,
    );
    commits = [];
    last = { turn: rt.state.turn, version: rt.version, cpu: process.cpuUsage(), bytes: total(now) };
  }
  await app.close();
} finally {
  await db.close();
  await fresh.drop();
}
const first = windows[0];
const end = windows.at(-1);
if (first && end && windows.length > 1)
  console.log(
    `last window / first: state ${(end.stateBytes / first.stateBytes).toFixed(2)}×, bytes per turn ${(end.bytesPerTurn / first.bytesPerTurn).toFixed(2)}×, CPU per order ${(end.cpuMsPerOrder / first.cpuMsPerOrder).toFixed(2)}×, commit p99 ${(end.commitP99 / first.commitP99).toFixed(2)}×`,
  );
const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(
  path.join(dir, 'year-of-play.json'),
  `${JSON.stringify({ at: new Date().toISOString(), host: hostFacts(), turns: TURNS, windows, minutes: (performance.now() - started) / 60_000 }, null, 2)}\n`,
);
