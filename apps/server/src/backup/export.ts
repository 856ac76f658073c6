/**
 * A consistent logical backup of a running site, through the application's own connection: every
 * table read in one REPEATABLE READ, READ ONLY transaction, so the file holds the database as it
 * was at one instant however many orders commit meanwhile (an order and its snapshot, a world and
 * its seats, are never half in it).
 *
 * Why not pg_dump: it is not installed with the game (the embedded default has no server to point
 * it at, and a user's machine often has no PostgreSQL client at all), and a pg_dump older than the
 * server refuses it (the embedded database is PostgreSQL 18; Debian 12's pg_dump is 15). A file of
 * our own also restores onto the other kind of database, and is checked line by line on restore.
 * pg_dump remains the tool for a database that also holds other applications' data.
 */
import type { Database, RawQuery } from '../db/database.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  type BackupTable,
  NOT_BACKED_UP,
} from './format.ts';
import { tableOrder } from './table-order.ts';

/** Rows fetched from the cursor at a time: a table is never read into memory whole. */
const FETCH_ROWS = 500;

/** Types written as JSON strings (their values do not fit a JavaScript number). */
const AS_TEXT = new Set(['bigint', 'numeric', 'money']);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface BackupSummary {
  tables: number;
  rows: number;
  header: BackupHeader;
}

/** The tables, columns and foreign keys of the database's schema. */
export async function readSchemaShape(q: RawQuery) {
  const columns = await q<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const keys = await q<{ child: string; parent: string }>(
    `SELECT cl.relname AS child, pl.relname AS parent
       FROM pg_constraint c
       JOIN pg_class cl ON cl.oid = c.conrelid
       JOIN pg_class pl ON pl.oid = c.confrelid
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  const tables = new Map<string, { name: string; type: string }[]>();
  for (const c of columns) {
    if (NOT_BACKED_UP.has(c.table_name)) continue;
    const list = tables.get(c.table_name) ?? [];
    list.push({ name: c.column_name, type: c.data_type });
    tables.set(c.table_name, list);
  }
  return { tables, order: tableOrder([...tables.keys()], keys) };
}

/**
 * Writes the whole database as backup lines (format.ts) to `write`, which resolves once the line is
 * taken (so a slow disk or network slows the reading instead of filling memory).
 */
export async function exportDatabase(
  db: Database,
  write: (line: string) => Promise<void>,
): Promise<BackupSummary> {
  return db.rawTransaction('snapshot', async (q) => {
    const { tables, order } = await readSchemaShape(q);
    const migrations = (
      await q<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
    ).map((r) => r.migration_name);
    const listed: BackupTable[] = [];
    for (const name of order) {
      const [count] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(name)}`);
      listed.push({ name, columns: (tables.get(name) ?? []).map((c) => c.name), rows: count?.n ?? 0 });
    }
    const [version] = await q<{ v: string }>('SELECT version() AS v');
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      source: db.kind,
      serverVersion: (version?.v ?? '').slice(0, 200),
      migrations,
      tables: listed,
    };
    await write(JSON.stringify(header));
    let rows = 0;
    for (const table of listed) {
      const select = (tables.get(table.name) ?? [])
        .map((c) => (AS_TEXT.has(c.type) ? `${quote(c.name)}::text AS ${quote(c.name)}` : quote(c.name)))
        .join(', ');
      await q(
        `DECLARE bke_backup NO SCROLL CURSOR FOR
           SELECT to_jsonb(x)::text AS j FROM (SELECT ${select} FROM ${quote(table.name)}) x`,
      );
      let written = 0;
      for (;;) {
        const batch = await q<{ j: string }>(`FETCH ${FETCH_ROWS} FROM bke_backup`);
        // The row is PostgreSQL's own JSON text, put in the line as it is (never re-encoded here).
        for (const r of batch) await write(`{"t":${JSON.stringify(table.name)},"r":${r.j}}`);
        written += batch.length;
        if (batch.length < FETCH_ROWS) break;
      }
      await q('CLOSE bke_backup');
      if (written !== table.rows)
        throw new Error(`${table.name}: counted ${table.rows} rows, read ${written}`);
      rows += written;
    }
    await write(JSON.stringify({ end: true, rows }));
    return { tables: listed.length, rows, header };
  });
}
