/**
 * Where the database stands against the committed migrations: each folder of prisma/migrations
 * applied, pending or failed, from Prisma's own bookkeeping (`_prisma_migrations`), and what an
 * operator does about a failed one. Prisma's `migrate status` needs the native engine this project
 * does without (migrate.ts); this reads the same table.
 */
import { readdir } from 'node:fs/promises';
import { MIGRATIONS_DIR } from './paths.ts';

type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

export interface MigrationRecord {
  name: string;
  startedAt: Date;
  finishedAt: Date | null;
  rolledBackAt: Date | null;
  logs: string | null;
}

export type MigrationState =
  | { name: string; state: 'applied'; at: Date }
  | { name: string; state: 'pending'; attempts: MigrationRecord[] }
  /** Started and neither finished nor marked rolled back: an operator must look (resolveMigration). */
  | { name: string; state: 'failed'; record: MigrationRecord }
  /** Applied to the database, but its folder is not in this checkout (a newer version migrated it). */
  | { name: string; state: 'unknown'; at: Date };

/** Every row of `_prisma_migrations`, oldest first ([] before the first migration made the table). */
export async function migrationRecords(query: Query): Promise<MigrationRecord[]> {
  const exists = await query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!exists[0]?.t) return [];
  const rows = await query<{
    migration_name: string;
    started_at: Date;
    finished_at: Date | null;
    rolled_back_at: Date | null;
    logs: string | null;
  }>(
    `SELECT migration_name, started_at, finished_at, rolled_back_at, logs
       FROM _prisma_migrations ORDER BY started_at, migration_name`,
  );
  return rows.map((r) => ({
    name: r.migration_name,
    startedAt: new Date(r.started_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
    rolledBackAt: r.rolled_back_at ? new Date(r.rolled_back_at) : null,
    logs: r.logs,
  }));
}

/** Rows that stop Prisma from applying anything more until someone resolves them. */
export const unresolvedFailures = (records: MigrationRecord[]): MigrationRecord[] =>
  records.filter((r) => r.finishedAt === null && r.rolledBackAt === null);

/** Each committed migration's state, then any the database has and this checkout does not. */
export async function migrationStatus(query: Query, dir = MIGRATIONS_DIR): Promise<MigrationState[]> {
  const folders = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const records = await migrationRecords(query);
  const out: MigrationState[] = folders.map((name) => {
    const mine = records.filter((r) => r.name === name);
    const applied = mine.find((r) => r.finishedAt && !r.rolledBackAt);
    if (applied?.finishedAt) return { name, state: 'applied', at: applied.finishedAt };
    const failed = unresolvedFailures(mine)[0];
    if (failed) return { name, state: 'failed', record: failed };
    return { name, state: 'pending', attempts: mine };
  });
  const known = new Set(folders);
  for (const r of records)
    if (!known.has(r.name) && r.finishedAt && !r.rolledBackAt && !out.some((s) => s.name === r.name))
      out.push({ name: r.name, state: 'unknown', at: r.finishedAt });
  return out;
}

/** What to do about a failed migration, in words for the operator. */
export function failedMigrationAdvice(name: string): string {
  return [
    `Check whether any of ${name} is in the database (its SQL is prisma/migrations/${name}/migration.sql), then either`,
    `  npm run -s admin -- migrations resolve ${name} --rolled-back   when none of it is (fix the SQL, then migrate again), or`,
    `  npm run -s admin -- migrations resolve ${name} --applied       when you finished it by hand.`,
  ].join('\n');
}

/** Marks a failed migration rolled back (it is applied again at the next migration) or applied. */
export async function resolveMigration(
  query: Query,
  name: string,
  as: 'rolled-back' | 'applied',
): Promise<boolean> {
  const rows =
    as === 'rolled-back'
      ? await query(
          `UPDATE _prisma_migrations SET rolled_back_at = now()
            WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL RETURNING id`,
          [name],
        )
      : await query(
          `UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1
            WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL RETURNING id`,
          [name],
        );
  return rows.length > 0;
}
