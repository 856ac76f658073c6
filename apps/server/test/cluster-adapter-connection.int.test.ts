/**
 * The PostgreSQL cluster adapter's own connection (the one it keeps checked out for LISTEN) is
 * terminated on the database, as a restart or a failover does: the process goes on, the adapter
 * listens again, and a message between two Socket.IO servers gets through once more. The servers
 * are real Socket.IO servers on one real pool each; the adapter is the maintained one, installed as
 * the server installs it. PostgreSQL only (the embedded database serves one process, no adapter).
 */
import pg from 'pg';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClusterAdapter } from '../src/cluster/adapter.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

const serverUrl = process.env.DATABASE_URL;
let test: TestDatabase | null = null;
let other: Database | null = null;
let admin: pg.Client | null = null;
const servers: Server[] = [];
const said: string[] = [];
const log = (msg: string) => {
  said.push(msg);
};

beforeAll(async () => {
  if (!serverUrl) return;
  test = await openTestDatabase();
  const url = test.url ?? '';
  other = await openDatabase({ kind: 'postgres', url, poolSize: 3 });
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (const db of [test.db, other]) {
    const io = new Server();
    await installClusterAdapter(io, db, { kind: 'postgres' }, log);
    servers.push(io);
  }
});

afterAll(async () => {
  // No HTTP server behind them: the adapter (its LISTEN connection) is what there is to end.
  for (const io of servers) await io.of('/').adapter.close();
  await admin?.end();
  await other?.close();
  await test?.dispose();
});

/** Resolves with the next `ping` message `servers[1]` hears from `servers[0]`. */
function nextPing(): Promise<unknown> {
  return new Promise((resolve) => {
    const to = servers[1];
    const heard = (n: unknown) => {
      to?.off('ping' as never, heard);
      resolve(n);
    };
    to?.on('ping' as never, heard);
  });
}

/** Sends pings every 100 ms until one is heard: the adapter may still be listening again. */
async function pingThrough(n: number): Promise<unknown> {
  const heard = nextPing();
  let done = false;
  void heard.then(() => {
    done = true;
  });
  while (!done) {
    servers[0]?.serverSideEmit('ping', n);
    await Promise.race([heard, new Promise((r) => setTimeout(r, 100))]);
  }
  return heard;
}

describe.runIf(serverUrl)('the cluster adapter loses its connection', () => {
  it('carries messages between two servers', async () => {
    expect(await pingThrough(1)).toBe(1);
  });

  it('listens again after its backend is terminated, and carries messages again', async () => {
    const dbName = new URL(test?.url ?? '').pathname.slice(1);
    // The LISTEN connections (and any other) of the test's database: what a restart does to them.
    const ended = await admin?.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [dbName],
    );
    expect(ended?.rows[0]?.n).toBeGreaterThanOrEqual(2);
    expect(await pingThrough(2)).toBe(2);
    // Both adapters said they lost their connection and listen again (and the process lived).
    await new Promise<void>((resolve) => {
      const check = () => {
        if (said.filter((m) => m.includes('listening again; catching up')).length >= 2) resolve();
        else setTimeout(check, 50);
      };
      check();
    });
    expect(said.filter((m) => m.includes('connection to the database was lost')).length).toBe(2);
  });
});
