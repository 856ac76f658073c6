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
import { type RangeWorker, startRangeWorkers, stopRangeWorkers } from '../worlds/range-workers.ts';
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
// Started first: the workers load the engine while this thread loads the engine, the database client
// and the rest (imported only now for that reason) and opens the database. Not for --repair or
// --all-at-once, which replay in turn.
const workers: RangeWorker[] =
  repair || allAtOnce
    ? []
    : startRangeWorkers(
        availableParallelism(),
        new URL(`./rebuild-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
      );
const [{ loadConfig }, { openDatabase }, { migrateDatabase, pendingMigrations }, { rebuildWorld }] =
  await Promise.all([
    import('../config.ts'),
    import('../db/database.ts'),
    import('../db/migrate.ts'),
    import('../worlds/rebuild.ts'),
  ]);
const db = await openDatabase(loadConfig().database);
let bad = 0;
try {
  // The schema engine costs about 40 MB of memory: started only when a migration is due.
  if ((await pendingMigrations(db)).length > 0) await migrateDatabase(db);
  const targets = all
    ? (await db.sql<{ id: string }>('SELECT id FROM worlds ORDER BY created_at')).map((w) => w.id)
    : ids.data;
  for (const id of targets) {
    const r = await rebuildWorld(db, id, { repair, allAtOnce, parallel: { workers } });
    if (r.problems.length > 0) bad++;
    console.log(JSON.stringify(r));
  }
} finally {
  await Promise.all([db.close(), stopRangeWorkers(workers)]);
}
process.exit(bad > 0 ? 1 : 0);
