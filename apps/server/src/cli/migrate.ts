/**
 * `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded database. A
 * deployment may run it once before starting the servers (which then start with MIGRATE_ON_START=0);
 * run while a server starts, one waits for the other.
 */
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { MigrationFailedError, migrateDatabase } from '../db/migrate.ts';
import { refuseWhileServed } from './embedded-in-use.ts';
import { exitOnHelp } from './help.ts';

const USAGE = `usage: npm run migrate
  Applies the pending migrations of prisma/migrations to DATABASE_URL (the embedded database when unset).`;
exitOnHelp(USAGE);
if (!z.tuple([]).safeParse(process.argv.slice(2)).success) {
  console.error(USAGE);
  process.exit(2);
}
const config = loadConfig();
await refuseWhileServed(
  config.database,
  'npm run migrate',
  'A server applies pending migrations itself when it starts (MIGRATE_ON_START=1, the default): restart it, or stop it, run npm run migrate, then start it.',
);
const db = await openDatabase(config.database);
try {
  const applied = await migrateDatabase(db, { log: (m) => console.log(m) });
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
} catch (e) {
  if (!(e instanceof MigrationFailedError)) throw e;
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await db.close();
}
