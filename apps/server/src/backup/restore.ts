/**
 * Restores a backup (format.ts) into an empty database, of either kind: the migrations the backup
 * was taken at are applied first (exactly those, so every row fits its table), then every row goes
 * in, in one transaction: a restore that fails half-way leaves the database empty. A database that
 * holds anything is refused, never merged into or overwritten.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, RawQuery } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { migrationRecords } from '../db/migration-status.ts';
import { MIGRATIONS_DIR } from '../db/paths.ts';
import { readSchemaShape } from './export.ts';
import {
  type BackupHeader,
  backupEndSchema,
  backupHeaderSchema,
  backupRowSchema,
  NOT_BACKED_UP,
} from './format.ts';

/** A restore that cannot go ahead, in words for the operator; the database is left as it was. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/** Rows sent to the database per statement. */
const BATCH_ROWS = 500;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function parseLine<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  line: string,
  n: number,
): T {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RestoreRefused(`Line ${n} of the backup is not JSON: the file is damaged.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new RestoreRefused(
      `Line ${n} of the backup is not what a backup holds there: the file is damaged.`,
    );
  return parsed.data;
}

/** Refuses a backup this version cannot restore, and a database that is not empty. */
async function checkTarget(db: Database, header: BackupHeader, migrationsDir: string): Promise<void> {
  const known = new Set(
    (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name),
  );
  const unknown = header.migrations.filter((m) => !known.has(m));
  if (unknown.length)
    throw new RestoreRefused(
      `The backup was taken by a newer version of the game (its database has migrations this one does not know: ${unknown.join(', ')}). Restore it with that version or a later one.`,
    );
  const applied = (await migrationRecords(db.sql))
    .filter((r) => r.finishedAt && !r.rolledBackAt)
    .map((r) => r.name);
  const beyond = applied.filter((m) => !header.migrations.includes(m));
  if (beyond.length)
    throw new RestoreRefused(
      `The database is migrated beyond the backup (${beyond.join(', ')}). Restore into a new, empty database: createdb, or another DATA_DIR.`,
    );
  const { tables } = await readSchemaShape(db.sql);
  const full: string[] = [];
  for (const name of tables.keys()) {
    const [row] = await db.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(name)}`);
    if ((row?.n ?? 0) > 0) full.push(`${name} (${row?.n} row${row?.n === 1 ? '' : 's'})`);
  }
  if (full.length)
    throw new RestoreRefused(
      `The database is not empty: ${full.join(', ')}. A backup is restored only into an empty database, never over one; create a new database (createdb, or another DATA_DIR) and restore there.`,
    );
}

/** Applies exactly the backup's migrations: a copy of prisma/migrations with only those folders. */
async function migrateTo(db: Database, header: BackupHeader, migrationsDir: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bke-restore-migrations-'));
  try {
    for (const name of header.migrations)
      await cp(path.join(migrationsDir, name), path.join(dir, name), { recursive: true });
    await cp(path.join(migrationsDir, 'migration_lock.toml'), path.join(dir, 'migration_lock.toml')).catch(
      () => {},
    );
    await migrateDatabase(db, { migrationsDir: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every table and column of the backup must be the database's (they are, at the same migrations). */
async function checkColumns(q: RawQuery, header: BackupHeader): Promise<void> {
  const { tables } = await readSchemaShape(q);
  for (const t of header.tables) {
    const have = tables.get(t.name)?.map((c) => c.name) ?? [];
    const missing = t.columns.filter((c) => !have.includes(c));
    if (!tables.has(t.name) || missing.length)
      throw new RestoreRefused(
        `The backup's table ${t.name} does not fit this database${missing.length ? ` (no column ${missing.join(', ')})` : ''}.`,
      );
  }
}

async function insertBatch(q: RawQuery, table: { name: string; columns: string[] }, rows: unknown[]) {
  const cols = table.columns.map(quote).join(', ');
  // PostgreSQL turns each JSON value back into its column's type (jsonb_populate_recordset); a row
  // a trigger already made from an earlier table's rows (an order's turn start) is kept as it is.
  await q(
    `INSERT INTO ${quote(table.name)} (${cols})
     SELECT ${cols} FROM jsonb_populate_recordset(NULL::${quote(table.name)}, $1::jsonb)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
}

/** Sequences behind serial columns continue after the largest restored value. */
async function resetSequences(q: RawQuery, header: BackupHeader): Promise<void> {
  const serial = await q<{ table_name: string; column_name: string; seq: string }>(
    `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
  );
  for (const s of serial) {
    if (!s.seq || !header.tables.some((t) => t.name === s.table_name)) continue;
    await q(
      `SELECT setval($1::regclass, coalesce((SELECT max(${quote(s.column_name)}) FROM ${quote(s.table_name)}), 0) + 1, false)`,
      [s.seq],
    );
  }
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
}

/**
 * Restores the backup whose lines `lines` yields into `db`. Throws RestoreRefused (with words)
 * when the backup or the database does not allow it; nothing is written then.
 */
export async function restoreDatabase(
  db: Database,
  lines: AsyncIterable<string>,
  migrationsDir = MIGRATIONS_DIR,
): Promise<RestoreSummary> {
  const it = lines[Symbol.asyncIterator]();
  let n = 0;
  const next = async () => {
    const r = await it.next();
    n++;
    return r.done ? null : r.value;
  };
  const first = await next();
  if (first === null) throw new RestoreRefused('The backup file is empty.');
  const header = parseLine(backupHeaderSchema, first, n);
  await checkTarget(db, header, migrationsDir);
  await migrateTo(db, header, migrationsDir);
  const rows = await db.rawTransaction('write', async (q) => {
    await checkColumns(q, header);
    const tables = new Map(header.tables.map((t) => [t.name, t]));
    const seen = new Map<string, number>();
    let current: string | null = null;
    let batch: unknown[] = [];
    const flush = async () => {
      const t = current ? tables.get(current) : undefined;
      if (t && batch.length) await insertBatch(q, t, batch);
      batch = [];
    };
    for (;;) {
      const line = await next();
      if (line === null)
        throw new RestoreRefused('The backup file ends early (no closing line): it was cut short.');
      if (line.startsWith('{"end"')) {
        await flush();
        const end = parseLine(backupEndSchema, line, n);
        const total = [...seen.values()].reduce((a, b) => a + b, 0);
        if (end.rows !== total)
          throw new RestoreRefused(`The backup says ${end.rows} rows and holds ${total}: it is damaged.`);
        break;
      }
      const row = parseLine(backupRowSchema, line, n);
      const table = tables.get(row.t);
      if (!table || NOT_BACKED_UP.has(row.t))
        throw new RestoreRefused(`Line ${n} is a row of ${row.t}, which the backup does not list.`);
      if (row.t !== current) {
        await flush();
        if (seen.has(row.t))
          throw new RestoreRefused(`The rows of ${row.t} are not together in the backup (line ${n}).`);
        current = row.t;
      }
      const extra = Object.keys(row.r).filter((k) => !table.columns.includes(k));
      if (extra.length)
        throw new RestoreRefused(`Line ${n} has columns ${row.t} does not: ${extra.join(', ')}.`);
      batch.push(row.r);
      seen.set(row.t, (seen.get(row.t) ?? 0) + 1);
      if (batch.length >= BATCH_ROWS) await flush();
    }
    for (const t of header.tables) {
      const [row] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(t.name)}`);
      if (row?.n !== t.rows || (seen.get(t.name) ?? 0) !== t.rows)
        throw new RestoreRefused(
          `${t.name}: the backup lists ${t.rows} rows, it holds ${seen.get(t.name) ?? 0}, the database has ${row?.n ?? 0} after the restore. Nothing was restored.`,
        );
    }
    await resetSequences(q, header);
    return [...seen.values()].reduce((a, b) => a + b, 0);
  });
  return { header, rows };
}
