/**
 * The embedded database admits one process: a command that opened it while a server runs on it
 * would work on a second copy of the same files beside the server's, and whichever wrote last
 * would leave the other's writes torn. A running server says so in `<DATA_DIR>.server.json`
 * (backup/embedded-control.ts; a file a crashed server left behind names a process that is gone,
 * and is ignored). Commands that open the database refuse while it names a live process, saying
 * what to do instead. PostgreSQL admits many processes: nothing to refuse there.
 */
import { runningServer } from '../backup/embedded-control.ts';
import type { DatabaseConfig } from '../db/database.ts';

/** Exits 1 with `instead` when a server runs on the embedded database `database` names. */
export async function refuseWhileServed(database: DatabaseConfig, command: string, instead: string) {
  if (database.kind !== 'embedded') return;
  const server = await runningServer(database.dataDir);
  if (!server) return;
  console.error(
    `A server (process ${server.pid}) is running on ${database.dataDir}, and the embedded database admits one process: ${command} did not open it. ${instead}`,
  );
  process.exit(1);
}
