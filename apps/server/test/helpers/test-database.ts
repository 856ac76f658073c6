/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server named by
 * DATABASE_URL when it is set (dropped afterwards), else an in-memory embedded PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';

export interface TestDatabase {
  db: Database;
  /** The URL of the fresh database, when running on a PostgreSQL server. */
  url: string | null;
  dispose(): Promise<void>;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the server behind `serverUrl`; returns its URL and a drop function. */
export async function createScratchDatabase(serverUrl: string) {
  const name = `bke_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ kind: 'embedded', dataDir: 'memory://' });
    await migrateDatabase(db);
    return { db, url: null, dispose: () => db.close() };
  }
  const scratch = await createScratchDatabase(serverUrl);
  const db = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 });
  await migrateDatabase(db);
  return {
    db,
    url: scratch.url,
    async dispose() {
      await db.close();
      await scratch.drop();
    },
  };
}
