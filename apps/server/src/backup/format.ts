/**
 * The backup file: gzip-compressed JSON lines, the same on both kinds of database, so a backup of
 * the embedded database restores onto a PostgreSQL server and back (the way to move a site).
 *
 *   {"format":"bke-online-backup","version":1,…,"migrations":[…],"tables":[{"name","columns","rows"}…]}
 *   {"t":"users","r":{…one row, as PostgreSQL's to_jsonb gives it…}}
 *   …
 *   {"end":true,"rows":1234}
 *
 * Tables come parents first (a row's foreign keys point at rows already restored). Columns of
 * 64-bit integers and numerics are written as strings: JSON numbers lose digits past 2^53 in
 * JavaScript. The last line says the file is whole; a file cut short is refused. Every line is
 * parsed with these schemas on restore.
 */
import { z } from 'zod';

export const BACKUP_FORMAT = 'bke-online-backup';
export const BACKUP_VERSION = 1;

const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);

const backupTableSchema = z
  .object({
    name: identifier,
    /** The columns written, in the order of the table. */
    columns: z.array(identifier).min(1),
    rows: z.number().int().min(0),
  })
  .strict();
export type BackupTable = z.infer<typeof backupTableSchema>;

export const backupHeaderSchema = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(BACKUP_VERSION),
    createdAt: z.iso.datetime({ offset: true }),
    /** Where it was taken: `embedded` or `postgres` (the restore takes either onto either). */
    source: z.enum(['embedded', 'postgres']),
    /** The database's PostgreSQL version, for the reader. */
    serverVersion: z.string().max(200),
    /** The migrations applied to the database backed up, in order: the restore applies exactly these. */
    migrations: z.array(z.string().regex(/^\d{14}_\w+$/)),
    tables: z.array(backupTableSchema),
  })
  .strict();
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

export const backupRowSchema = z.object({ t: identifier, r: z.record(z.string(), z.unknown()) }).strict();

export const backupEndSchema = z.object({ end: z.literal(true), rows: z.number().int().min(0) }).strict();

/** Tables not backed up: `_prisma_migrations` (the header lists the migrations instead), the
 * PostgreSQL adapter's attachments, messages between server processes kept a few minutes, and the
 * rate limits' counters, whose windows last minutes to a day. */
export const NOT_BACKED_UP = new Set(['_prisma_migrations', 'socket_io_attachments', 'rate_limits']);
