/**
 * A PostgreSQL pool for raw SQL alone, without the ORM: what `rebuild` needs to replay a world side
 * by side in worker threads (worlds/rebuild-parallel.ts). Loading the ORM's client (database.ts)
 * took a batch command about 80 ms of its start and 15 MB; the command opens the whole database
 * only when it needs more (a migration, --repair, the replay in turn).
 */
import pg from 'pg';
import { connectionOptions, type Database, DEFAULT_CONNECT_TIMEOUT_MS } from './database.ts';

/** Raw SQL on a database, as `Database.sql` runs it. */
export type SqlDatabase = Pick<Database, 'sql'>;

export interface SqlPool extends SqlDatabase {
  close(): Promise<void>;
}

export function openSqlPool(url: string, max = 10, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): SqlPool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'bke-rebuild',
    ...connectionOptions(connectTimeoutMs),
  });
  // An idle client losing its server connection must not crash the process.
  pool.on('error', () => {});
  return {
    // A named statement is prepared once per connection, as in database.ts.
    sql: async <R>(text: string, params?: unknown[], name?: string): Promise<R[]> =>
      (await pool.query(name ? { name, text, values: params } : { text, values: params })).rows as R[],
    close: () => pool.end(),
  };
}
