/**
 * Applies the committed migrations in prisma/migrations, exactly as `prisma migrate deploy` would
 * (same SQL, same `_prisma_migrations` bookkeeping), but through the WebAssembly schema engine so no
 * native engine download is needed. Safe to run at every start: applied migrations are skipped.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { MIGRATIONS_DIR, SCHEMA_PATH } from './paths.ts';
import { openSchemaEngine } from './schema-engine.ts';

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

export async function readSchema() {
  return { path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, 'utf8') };
}

/** Applies pending migrations; returns the names of those applied now. */
export async function migrateDatabase(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string[]> {
  const engine = await openSchemaEngine(adapterFactory, await readSchema());
  try {
    const out = await engine.applyMigrations({ migrationsList: await readMigrations(), filters: NO_FILTERS });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
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
