/**
 * `npm run -s db:restore -- <file>`: restores a backup (backup/restore.ts) into DATABASE_URL, or the
 * embedded database in DATA_DIR, which must be empty: a new database (createdb) or a new DATA_DIR.
 * Then `npm run rebuild -- --all` replays every restored world and checks it against its snapshots.
 */
import { existsSync } from 'node:fs';
import { readBackupLines } from '../backup/backup-file.ts';
import { runningServer } from '../backup/embedded-control.ts';
import { RestoreRefused, restoreDatabase } from '../backup/restore.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { MigrationFailedError } from '../db/migrate.ts';
import { exitOnHelp, fileArgument } from './help.ts';

const USAGE = `usage: npm run -s db:restore -- <file>
  Restores a backup made by db:backup into DATABASE_URL (the embedded database in DATA_DIR when unset),
  which must be empty; a database holding anything is refused, never overwritten. Either kind of
  backup restores onto either kind of database. Then check the worlds: npm run -s rebuild -- --all`;
exitOnHelp(USAGE);
const file = fileArgument(USAGE);
if (!existsSync(file)) {
  console.error(`No file ${file}.`);
  process.exit(2);
}
const config = loadConfig();
if (config.database.kind === 'embedded') {
  const server = await runningServer(config.database.dataDir);
  if (server) {
    console.error(
      `A server (process ${server.pid}) is running on ${config.database.dataDir}: a backup is restored only into an empty database, with no server on it. Restore into another DATA_DIR, or stop the server and move its folder aside.`,
    );
    process.exit(1);
  }
}
const db = await openDatabase(config.database);
try {
  const { header, rows } = await restoreDatabase(db, readBackupLines(file));
  const where = config.database.kind === 'postgres' ? 'DATABASE_URL' : config.database.dataDir;
  console.log(
    `Restored ${rows} rows into ${where}: the ${header.source} database as it was at ${header.createdAt}.\nCheck the restored worlds against their snapshots: npm run -s rebuild -- --all`,
  );
} catch (e) {
  if (!(e instanceof RestoreRefused || e instanceof MigrationFailedError)) throw e;
  console.error(`Not restored: ${e.message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
