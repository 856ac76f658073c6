/**
 * Backing up the embedded database while its server runs. The embedded database lives inside the
 * server's process and admits no second one, so `npm run db:backup` cannot open it; the server
 * takes the backup itself, on the same consistent snapshot (export.ts), for the command to fetch.
 *
 * While it runs, the server listens on a loopback port of its own (never the site's port, never
 * another interface) and writes `<DATA_DIR>.server.json` beside the database: its process id, that
 * port and a random token, readable by the database files' owner only (mode 0600). Whoever can
 * read that file can read the database's files anyway; a request without the token is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createGzip } from 'node:zlib';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { exportDatabase } from './export.ts';

export const controlFileOf = (dataDir: string) => `${dataDir.replace(/[/\\]+$/, '')}.server.json`;

const controlSchema = z
  .object({
    pid: z.number().int().positive(),
    port: z.number().int().min(1).max(65535),
    token: z.string().min(32),
  })
  .strict();
export type RunningServer = z.infer<typeof controlSchema>;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server running on `dataDir`, or null (none, or a file a crashed one left behind). */
export async function runningServer(dataDir: string): Promise<RunningServer | null> {
  const text = await readFile(controlFileOf(dataDir), 'utf8').catch(() => null);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = controlSchema.safeParse(value);
  return parsed.success && alive(parsed.data.pid) ? parsed.data : null;
}

/** Starts the loopback backup port of a server on the embedded database in `dataDir`. */
export async function serveEmbeddedBackups(
  db: Database,
  dataDir: string,
  log: (msg: string, data?: object) => void,
): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  let running = false;
  const server: Server = createServer((req, res) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    const authorized = given.length === expected.length && timingSafeEqual(given, expected);
    if (req.method !== 'GET' || req.url !== '/backup' || !authorized) {
      res
        .writeHead(authorized ? 404 : 403, { 'content-type': 'text/plain' })
        .end('GET /backup with the token\n');
      return;
    }
    if (running) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end('a backup is being taken already\n');
      return;
    }
    running = true;
    res.writeHead(200, { 'content-type': 'application/gzip' });
    const gzip = createGzip();
    gzip.pipe(res);
    const write = (line: string) =>
      new Promise<void>((resolve) => {
        if (gzip.write(`${line}\n`)) resolve();
        else gzip.once('drain', resolve);
      });
    exportDatabase(db, write)
      .then(
        (s) => {
          log('backup taken', { tables: s.tables, rows: s.rows });
          gzip.end();
        },
        (e: unknown) => {
          log('backup failed', { err: String(e) });
          // Cut short on purpose: the file then lacks its closing line, and a restore refuses it.
          gzip.destroy();
          res.destroy();
        },
      )
      .finally(() => {
        running = false;
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const file = controlFileOf(dataDir);
  await writeFile(file, JSON.stringify({ pid: process.pid, port, token }), { mode: 0o600 });
  return {
    async close() {
      await rm(file, { force: true });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // An idle keep-alive connection would hold the stop up until it timed out.
      server.closeIdleConnections();
      await closed;
    },
  };
}
