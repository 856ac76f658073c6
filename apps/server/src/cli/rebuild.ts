/**
 * Rebuilds worlds from their order logs and checks them against their snapshots:
 *   npx tsx apps/server/src/cli/rebuild.ts <worldId>… | --all   [--repair] [--all-at-once]
 * Exits 1 when any world has a problem. `--repair` also rewrites cycles and the VP ledger;
 * `--all-at-once` loads the whole log and every snapshot first (the former way, to compare).
 * Otherwise the stretches of a log between snapshots are replayed side by side, one worker thread
 * per core (worlds/rebuild-parallel.ts). `npm run rebuild` runs this file compiled
 * (scripts/rebuild.mjs), with rebuild-worker.js beside it.
 */
// First, before the rest is loaded: the V8 flags of this batch job.
import './batch-flags.ts';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { type RangeWorker, startRangeWorkers, stopRangeWorkers } from '../worlds/range-workers.ts';
import { refuseWhileServed } from './embedded-in-use.ts';
import { exitOnHelp } from './help.ts';

const USAGE = `usage: npm run -s rebuild -- <worldId>… | --all   [--repair] [--all-at-once]
  Replays worlds from their order log and checks every snapshot; --repair rewrites cycles and the VP ledger.
  The log is streamed a page at a time; --all-at-once loads it and every snapshot first (to compare).`;
exitOnHelp(USAGE);
const argv = process.argv.slice(2);
const repair = argv.includes('--repair');
const all = argv.includes('--all');
const allAtOnce = argv.includes('--all-at-once');
const ids = z.array(z.uuid()).safeParse(argv.filter((a) => !a.startsWith('--')));
if (!ids.success || (!all && ids.data.length === 0)) {
  console.error(USAGE);
  process.exit(2);
}
// Started first: the workers load the engine while this thread loads the rest (imported only now
// for that reason) and connects. Not for --repair or --all-at-once, which replay in turn.
const startWorkers = () =>
  startRangeWorkers(
    availableParallelism(),
    new URL(`./rebuild-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
  );
const sideBySide = !repair && !allAtOnce;
let workers: RangeWorker[] = sideBySide ? startWorkers() : [];
const [{ loadConfig }, { openSqlPool }, { migrateDatabase, pendingMigrations }, { rebuildInRanges }] =
  await Promise.all([
    import('../config.ts'),
    import('../db/sql-pool.ts'),
    import('../db/migrate.ts'),
    import('../worlds/rebuild-parallel.ts'),
  ]);
const config = loadConfig().database;
await refuseWhileServed(
  config,
  'npm run rebuild',
  'Stop the server, run npm run rebuild, then start it again; or, with the site running, take a backup (npm run db:backup), restore it into another DATA_DIR (npm run db:restore) and rebuild that copy.',
);
// On PostgreSQL, raw SQL alone while nothing needs more; the whole database (the ORM's client, the
// embedded database) is loaded and opened only for a migration, --repair or --all-at-once, the
// embedded database, or a world replayed in turn.
const sql =
  config.kind === 'postgres' && sideBySide ? openSqlPool(config.url, 10, config.connectTimeoutMs) : null;
const whole: { db?: Promise<Database> } = {};
const database = (): Promise<Database> => {
  whole.db ??= import('../db/database.ts').then(({ openDatabase }) => openDatabase(config));
  return whole.db;
};
/**
 * The world replayed by `rebuildWorld`: in turn, or side by side on the embedded database. Before
 * a replay in turn the workers are stopped, their memory given back (started again for a next world).
 */
const inTurn = async (id: string) => {
  const { rebuildWorld } = await import('../worlds/rebuild.ts');
  if (sql) {
    await stopRangeWorkers(workers);
    workers = [];
  }
  return rebuildWorld(await database(), id, { repair, allAtOnce, parallel: sql ? undefined : { workers } });
};
let bad = 0;
try {
  // The schema engine costs about 40 MB of memory: started only when a migration is due.
  if ((await pendingMigrations(sql ?? (await database()))).length > 0)
    await migrateDatabase(await database());
  const targets = all
    ? (
        await (sql ?? (await database())).sql<{ id: string }>('SELECT id FROM worlds ORDER BY created_at')
      ).map((w) => w.id)
    : ids.data;
  for (const id of targets) {
    if (sideBySide && workers.length === 0) workers = startWorkers();
    // Side by side first, on raw SQL; anything found (or a world that cannot be cut) is replayed
    // in turn, whose report is the one given (worlds/rebuild.ts).
    const r = (sql && (await rebuildInRanges(sql, id, { workers }))) ?? (await inTurn(id));
    if (r.problems.length > 0) bad++;
    console.log(JSON.stringify(r));
  }
} finally {
  await Promise.all([sql?.close(), whole.db?.then((db) => db.close()), stopRangeWorkers(workers)]);
}
process.exit(bad > 0 ? 1 : 0);
