/**
 * Rebuilds worlds from their order logs and checks them against their snapshots:
 *   npx tsx apps/server/src/cli/rebuild.ts <worldId>… | --all   [--repair]
 * Exits 1 when any world has a problem. `--repair` also rewrites cycles and the VP ledger.
 */
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { rebuildWorld } from '../worlds/rebuild.ts';
import { exitOnHelp } from './help.ts';

const USAGE = `usage: npm run -s rebuild -- <worldId>… | --all   [--repair]
  Replays worlds from their order log and checks every snapshot; --repair rewrites cycles and the VP ledger.`;
exitOnHelp(USAGE);
const argv = process.argv.slice(2);
const repair = argv.includes('--repair');
const all = argv.includes('--all');
const ids = z.array(z.uuid()).safeParse(argv.filter((a) => !a.startsWith('--')));
if (!ids.success || (!all && ids.data.length === 0)) {
  console.error(USAGE);
  process.exit(2);
}
const db = await openDatabase(loadConfig().database);
let bad = 0;
try {
  await migrateDatabase(db);
  const targets = all
    ? (await db.prisma.world.findMany({ select: { id: true } })).map((w) => w.id)
    : ids.data;
  for (const id of targets) {
    const r = await rebuildWorld(db, id, repair);
    if (r.problems.length > 0) bad++;
    console.log(JSON.stringify(r));
  }
} finally {
  await db.close();
}
process.exit(bad > 0 ? 1 : 0);
