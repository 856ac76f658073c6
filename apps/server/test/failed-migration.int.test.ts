/**
 * A migration that fails half-way leaves the database as it was and says what to do; fixed, it is
 * applied at the next run. Run on a copy of prisma/migrations with a broken migration added.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationFailedError, migrateDatabase } from '../src/db/migrate.ts';
import { migrationStatus } from '../src/db/migration-status.ts';
import { MIGRATIONS_DIR } from '../src/db/paths.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

const BROKEN = '20991231000000_broken_on_purpose';
let t: TestDatabase;
let dir: string;

const write = (sql: string) => writeFile(path.join(dir, BROKEN, 'migration.sql'), sql);

/** What a failed migration could have left behind: tables, columns and the users' rows. */
const shape = () =>
  t.db.sql<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, column_name`,
  );

beforeAll(async () => {
  t = await openTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'bke-migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  await mkdir(path.join(dir, BROKEN));
});
afterAll(async () => {
  await t.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('a failed migration', () => {
  it('leaves the database as it was, says why and what to do, and applies once fixed', async () => {
    await t.db.sql(
      `INSERT INTO users (id, username, username_key, password_hash) VALUES (gen_random_uuid(), 'Alboin', 'alboin', 'x')`,
    );
    const before = await shape();
    // Its first statements succeed; the third fails: none of them may stay.
    await write(
      [
        'CREATE TABLE "half_done" ("id" INTEGER);',
        'ALTER TABLE "users" ADD COLUMN "nickname" TEXT;',
        `UPDATE "users" SET "username" = 'changed';`,
        'ALTER TABLE "users" ALTER COLUMN "nickname" SET NOT NULL;',
      ].join('\n'),
    );
    const failure = await migrateDatabase(t.db, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MigrationFailedError);
    const words = (failure as Error).message;
    expect(words).toContain(`The migration ${BROKEN} failed: column "nickname"`);
    expect(words).toContain('the database is as it was before it');
    expect(words).toContain('run `npm run migrate`');
    expect(await shape()).toEqual(before);
    expect(await t.db.sql(`SELECT username FROM users`)).toEqual([{ username: 'Alboin' }]);
    // Recorded as a rolled-back attempt: nothing stands in the way of the next run.
    const state = (await migrationStatus(t.db.sql, dir)).find((s) => s.name === BROKEN);
    expect(state).toMatchObject({ state: 'pending', attempts: [{ rolledBackAt: expect.any(Date) }] });

    await write('ALTER TABLE "users" ADD COLUMN "nickname" TEXT;');
    expect(await migrateDatabase(t.db, { migrationsDir: dir })).toEqual([BROKEN]);
    expect(
      (await shape()).filter((c) => c.table_name === 'users' && c.column_name === 'nickname'),
    ).toHaveLength(1);
    expect((await migrationStatus(t.db.sql, dir)).find((s) => s.name === BROKEN)).toMatchObject({
      state: 'applied',
    });
  });

  it('left unresolved by an earlier run (a process that died in it) stops the next with what to do', async () => {
    await t.db.sql(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('died-in-it', 'x', '20991231000001_interrupted', now(), 0)`,
    );
    const failure = await migrateDatabase(t.db, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MigrationFailedError);
    expect((failure as Error).message).toContain('20991231000001_interrupted failed at');
    expect((failure as Error).message).toContain(
      'npm run -s admin -- migrations resolve 20991231000001_interrupted --rolled-back',
    );
  });
});
