/**
 * Applies the committed migrations in prisma/migrations, exactly as `prisma migrate deploy` would
 * (same SQL, same `_prisma_migrations` bookkeeping), but through the WebAssembly schema engine so no
 * native engine download is needed. Safe to run at every start, by any number of processes at
 * once: applied migrations are skipped, and one process migrates while the others wait for it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Database, MigrationSession } from './database.ts';
import {
  failedMigrationAdvice,
  type MigrationRecord,
  migrationRecords,
  resolveMigration,
  unresolvedFailures,
} from './migration-status.ts';
import { MIGRATIONS_DIR, SCHEMA_PATH } from './paths.ts';
import { openSchemaEngine } from './schema-engine.ts';
import type { SqlDatabase } from './sql-pool.ts';

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** Reads prisma/migrations into the shape the schema engine expects. */
export async function readMigrations(dir = MIGRATIONS_DIR) {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(path.join(dir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  const lockContent = await readFile(path.join(dir, 'migration_lock.toml'), 'utf8').catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

async function readSchema() {
  return { path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, 'utf8') };
}

/**
 * The advisory lock Prisma's schema engine takes before migrating a PostgreSQL database. The engine
 * gives up after 10 s of waiting for it; a process that finds it taken waits here instead (and says
 * so) until the process holding it has finished, then finds little or nothing left to apply.
 */
const MIGRATION_LOCK = 72707369;
const LOCK_POLL_MS = 500;
const LOCK_TELL_MS = 30_000;

export interface MigrateOptions {
  log?(msg: string): void;
  /** The migration folders to apply (prisma/migrations unless a test gives another). */
  migrationsDir?: string;
}

/**
 * Applies pending migrations; returns the names of those applied now. Runs on a session of its own
 * (database.ts), which is closed when done: the lock is released however the engine leaves it.
 */
export async function migrateDatabase(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const session = await db.migrationSession();
  try {
    if (db.kind === 'postgres') await takeMigrationLock(session, options.log ?? (() => {}));
    const earlier = unresolvedFailures(await migrationRecords(session.query));
    if (earlier[0]) throw new MigrationFailedError(earlier[0].name, wordsForEarlierFailure(earlier[0]));
    try {
      return await applyMigrations(session.adapterFactory, options.migrationsDir ?? MIGRATIONS_DIR);
    } catch (e) {
      const failed = unresolvedFailures(await migrationRecords(session.query))[0];
      if (!failed) throw e;
      // The schema engine recorded the attempt as unfinished. Its script ran whole, as one
      // transaction (database.ts), so nothing of it is in the database: the record says so, and the
      // next migration applies it again once its SQL or the data it tripped on is fixed.
      await resolveMigration(session.query, failed.name, 'rolled-back');
      const cause = session.lastScriptError()?.message ?? firstLine(e);
      throw new MigrationFailedError(failed.name, wordsForFailure(failed.name, cause));
    }
  } finally {
    await session.close();
  }
}

/** A migration that failed: `message` says what happened and what to do. */
export class MigrationFailedError extends Error {
  constructor(
    readonly migration: string,
    message: string,
  ) {
    super(message);
    this.name = 'MigrationFailedError';
  }
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

function wordsForFailure(name: string, cause: string): string {
  return [
    `The migration ${name} failed: ${cause}`,
    'Nothing of it was applied: the database is as it was before it (migrations before it stay applied;',
    '`npm run -s admin -- migrations` lists them). Fix its SQL in prisma/migrations, or the data it trips on,',
    'then run `npm run migrate` (or start the server) again.',
  ].join('\n');
}

function wordsForEarlierFailure(r: MigrationRecord): string {
  return [
    `The migration ${r.name} failed at ${r.startedAt.toISOString()} and was left unresolved; nothing more is applied until it is.`,
    failedMigrationAdvice(r.name),
  ].join('\n');
}

async function takeMigrationLock(session: MigrationSession, log: (msg: string) => void): Promise<void> {
  const tryLock = async () =>
    (await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [MIGRATION_LOCK]))[0]?.ok;
  if (await tryLock()) return;
  const since = Date.now();
  let told = 0;
  for (;;) {
    if (Date.now() - told >= LOCK_TELL_MS) {
      told = Date.now();
      log(
        `waiting for another process to finish migrating the database (lock ${MIGRATION_LOCK}, ${Math.round((told - since) / 1000)} s so far)`,
      );
    }
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    if (await tryLock()) return;
  }
}

async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir: string,
): Promise<string[]> {
  const engine = await openSchemaEngine(adapterFactory, await readSchema());
  try {
    const out = await engine.applyMigrations({
      migrationsList: await readMigrations(dir),
      filters: NO_FILTERS,
    });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/** Committed migrations not applied to the database yet (a server started without migrating checks). */
export async function pendingMigrations(db: SqlDatabase): Promise<string[]> {
  const { migrationDirectories } = await readMigrations();
  const applied = await db
    .sql<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    .catch(() => []);
  const done = new Set(applied.map((r) => r.migration_name));
  return migrationDirectories.map((m) => m.path).filter((name) => !done.has(name));
}

/**
 * SQL that takes a database from the state the committed migrations leave to the current schema.
 * The schema engine replays the migrations on the shadow database of `scratch` (for in-memory PGlite,
 * another in-memory instance), so no server or network is needed.
 */
export async function diffSchemaAgainstMigrations(
  scratch: SqlMigrationAwareDriverAdapterFactory,
): Promise<string> {
  const schema = await readSchema();
  const engine = await openSchemaEngine(scratch, schema);
  try {
    const result = await engine.diff({
      from: { tag: 'migrations', ...(await readMigrations()) },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
  }
}
