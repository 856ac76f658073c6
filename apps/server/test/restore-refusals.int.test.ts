/**
 * What a restore refuses, leaving the database as it was: a file cut short, a file from a newer
 * version, a database that is not empty, an embedded database a server is running on. And what it
 * keeps exact: 64-bit integers past JavaScript's 2^53, JSON, times, text with any character.
 * In-process on the test database (DATABASE_URL's server, else embedded), and from the embedded
 * database to DATABASE_URL's server when it is set.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackupLines, writeBackupFile } from '../src/backup/backup-file.ts';
import { controlFileOf } from '../src/backup/embedded-control.ts';
import { exportDatabase } from '../src/backup/export.ts';
import { RestoreRefused, restoreDatabase } from '../src/backup/restore.ts';
import { REPO_ROOT } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createScratchDatabase, openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let source: TestDatabase;
let dir: string;
let file: string;
const BIG = '9007199254740993'; // 2^53 + 1: a JavaScript number would read it as ...992

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bke-restore-'));
  file = path.join(dir, 'b.gz');
  source = await openTestDatabase();
  const [u] = await source.db.sql<{ id: string }>(
    `INSERT INTO users (id, username, username_key, password_hash, time_zone)
     VALUES (gen_random_uuid(), 'Ælfwine', 'ælfwine', 'x', 'Asia/Kolkata') RETURNING id::text AS id`,
  );
  await source.db.sql(
    `INSERT INTO moderation_actions (id, actor_id, action, reason, params, created_at)
     VALUES ($1::bigint, $2::uuid, 'user.ban', e'line one\\nline "two" \\\\ ✓', '{"nested":{"a":[1,null,"x"]}}', '2026-03-08T06:59:59.123Z')`,
    [BIG, u?.id],
  );
  await writeBackupFile(file, (write) => exportDatabase(source.db, write));
});
afterAll(async () => {
  await source.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function lines(): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readBackupLines(file)) out.push(l);
  return out;
}

async function* from(list: string[]) {
  yield* list;
}

/** A fresh, empty embedded database in memory. */
async function emptyDb(): Promise<Database> {
  return openDatabase({ kind: 'embedded', dataDir: 'memory://' });
}

const rowsOf = async (db: Database) =>
  (
    await db.sql<{ n: number }>(
      `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM moderation_actions) AS n`,
    )
  )[0]?.n;

describe('restoring a backup', () => {
  it('keeps big integers, JSON, times and text exact, and the sequences go on after them', async () => {
    const db = await emptyDb();
    try {
      const { rows } = await restoreDatabase(db, from(await lines()));
      expect(rows).toBe(2);
      const [a] = await db.sql<{ id: string; reason: string; params: unknown; at: string }>(
        `SELECT id::text AS id, reason, params, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at FROM moderation_actions`,
      );
      expect(a).toEqual({
        id: BIG,
        reason: 'line one\nline "two" \\ ✓',
        params: { nested: { a: [1, null, 'x'] } },
        at: '2026-03-08T06:59:59.123',
      });
      const [next] = await db.sql<{ id: string }>(
        `INSERT INTO moderation_actions (actor_id, action, reason) VALUES (gen_random_uuid(), 'user.ban', 'next') RETURNING id::text AS id`,
      );
      expect(BigInt(next?.id ?? 0)).toBeGreaterThan(BigInt(BIG));
      expect((await db.sql<{ username: string }>('SELECT username FROM users'))[0]?.username).toBe('Ælfwine');
    } finally {
      await db.close();
    }
  });

  it('refuses a file cut short, and leaves the database empty', async () => {
    const all = await lines();
    const db = await emptyDb();
    try {
      await expect(restoreDatabase(db, from(all.slice(0, -1)))).rejects.toThrow(/cut short/);
      expect(await rowsOf(db)).toBe(0);
      // and a damaged row
      const damaged = [...all];
      damaged[2] = '{"t":"users","r":';
      await expect(restoreDatabase(db, from(damaged))).rejects.toThrow(/not JSON: the file is damaged/);
      expect(await rowsOf(db)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('refuses a backup from a newer version, naming its migration', async () => {
    const all = await lines();
    const header = JSON.parse(all[0] ?? '{}') as { migrations: string[] };
    header.migrations.push('29990101000000_from_the_future');
    const db = await emptyDb();
    try {
      const refused = await restoreDatabase(db, from([JSON.stringify(header), ...all.slice(1)])).catch(
        (e) => e,
      );
      expect(refused).toBeInstanceOf(RestoreRefused);
      expect((refused as Error).message).toContain('29990101000000_from_the_future');
    } finally {
      await db.close();
    }
  });

  it('refuses a database that holds anything, naming what it holds', async () => {
    const db = await emptyDb();
    try {
      await migrateDatabase(db);
      await db.sql(
        `INSERT INTO users (id, username, username_key, password_hash) VALUES (gen_random_uuid(), 'x1', 'x1', 'x')`,
      );
      await expect(restoreDatabase(db, from(await lines()))).rejects.toThrow(
        'The database is not empty: users (1 row)',
      );
      expect(await rowsOf(db)).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('refuses the embedded database a server is running on', async () => {
    const dataDir = path.join(dir, 'in-use');
    // This very test process stands for the running server: its process id is alive.
    await writeFile(
      controlFileOf(dataDir),
      JSON.stringify({ pid: process.pid, port: 9, token: 'x'.repeat(43) }),
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/restore.ts', file], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`A server (process ${process.pid}) is running on ${dataDir}`);
  });

  it.skipIf(!process.env.DATABASE_URL)('moves an embedded database onto a PostgreSQL server', async () => {
    const embedded = await emptyDb();
    const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? '');
    const server = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 });
    try {
      await restoreDatabase(embedded, from(await lines()));
      const moved = path.join(dir, 'moved.gz');
      await writeBackupFile(moved, (write) => exportDatabase(embedded, write));
      const list: string[] = [];
      for await (const l of readBackupLines(moved)) list.push(l);
      expect(JSON.parse(list[0] ?? '{}')).toMatchObject({ source: 'embedded' });
      await restoreDatabase(server, from(list));
      expect(await server.sql(`SELECT id::text AS id FROM moderation_actions`)).toEqual([{ id: BIG }]);
    } finally {
      await embedded.close();
      await server.close();
      await scratch.drop();
    }
  });
});
