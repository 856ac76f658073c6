/**
 * Backup files on disk: written gzip-compressed to `<file>.partial` and renamed only once whole (a
 * backup that fails half-way never takes the place of a good one), read back line by line.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type BackupHeader, backupEndSchema, backupHeaderSchema } from './format.ts';

/** Runs `produce` with a writer of lines into `file`, gzip-compressed. */
export async function writeBackupFile<T>(
  file: string,
  produce: (write: (line: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const done = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  try {
    const out = await produce(write);
    gzip.end();
    await done;
    await rename(partial, file);
    return out;
  } catch (e) {
    gzip.destroy();
    await done.catch(() => {});
    await rm(partial, { force: true });
    throw e;
  }
}

/** Saves a gzip-compressed backup arriving as a byte stream (from a running server) into `file`. */
export async function saveBackupStream(file: string, body: AsyncIterable<Uint8Array>): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
}

/** The lines of a backup file, uncompressed. */
export function readBackupLines(file: string): AsyncIterable<string> {
  return createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
}

/** Reads a backup file through: its header, and its row count once its closing line is found. */
export async function checkBackupFile(file: string): Promise<{ header: BackupHeader; rows: number } | null> {
  let header: BackupHeader | null = null;
  let last = '';
  let rows = 0;
  for await (const line of readBackupLines(file)) {
    if (header === null) {
      const parsed = backupHeaderSchema.safeParse(JSON.parse(line));
      if (!parsed.success) return null;
      header = parsed.data;
    } else rows++;
    last = line;
  }
  const end = backupEndSchema.safeParse(JSON.parse(last || 'null'));
  return header && end.success && end.data.rows === rows - 1 ? { header, rows: end.data.rows } : null;
}
