/**
 * Opens the database: a PostgreSQL server when a URL is given, otherwise an embedded PostgreSQL
 * (PGlite, in-process) whose files live in a folder of the repository that git ignores.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.ts';

export type DatabaseConfig =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` is a folder, or `memory://` for a throwaway database. */
  | { kind: 'embedded'; dataDir: string };

export interface Database {
  readonly kind: DatabaseConfig['kind'];
  readonly prisma: PrismaClient;
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * Raw SQL on the same database, bypassing the ORM: only for hot paths a benchmark showed need it
   * (the order append, metric 12). A `name` makes it a prepared statement on the PostgreSQL server:
   * parsed and planned once per pooled connection instead of on every call. Give each distinct text
   * its own name.
   */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<R[]>;
  /** Whether the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * This process's name on the database (random per `openDatabase`): it tags what this process
   * tells other processes through `listen`'s channel, so that it can ignore its own messages.
   */
  readonly instanceId: string;
  /**
   * Calls `onMessage` with every payload sent with `pg_notify(channel, …)` by any process on this
   * database, on a connection of its own that comes back after a failure; `onGap` runs after such
   * a comeback (messages may have been missed meanwhile). Null on the embedded database, which
   * only one process can open. The returned function stops listening.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onGap: () => void,
  ): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === 'postgres'
    ? openPostgres(config.url, config.poolSize ?? 10)
    : openEmbedded(config.dataDir);
}

/**
 * PrismaPg runs a migration script by splitting it on every `;`, which cuts a dollar-quoted
 * function body (the audit log's append-only trigger) in pieces. PostgreSQL runs a whole script in
 * one simple-protocol query, so the migration is sent as it is written.
 */
class ScriptSafePg extends PrismaPg {
  constructor(private readonly scriptPool: pg.Pool) {
    super(scriptPool);
  }

  override async connect() {
    const adapter = await super.connect();
    adapter.executeScript = async (script: string) => {
      await this.scriptPool.query(script);
    };
    return adapter;
  }
}

function openPostgres(url: string, max: number): Database {
  const instanceId = `bke-${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max, application_name: instanceId });
  // An idle client losing its server connection must not crash the process.
  pool.on('error', () => {});
  const adapterFactory = new ScriptSafePg(pool);
  const prisma = new PrismaClient({ adapter: adapterFactory });
  const sql = async <R>(text: string, params?: unknown[], name?: string) =>
    (await pool.query(name ? { name, text, values: params } : { text, values: params })).rows as R[];
  return wrap(
    'postgres',
    instanceId,
    prisma,
    adapterFactory,
    sql,
    (channel, onMessage, onGap) => listenPostgres(url, instanceId, channel, onMessage, onGap),
    async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  );
}

const LISTEN_RETRY_MS = 1000;

/** A dedicated connection that LISTENs on `channel` and reconnects (then reports the gap). */
async function listenPostgres(
  url: string,
  instanceId: string,
  channel: string,
  onMessage: (payload: string) => void,
  onGap: () => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (stopped) return;
    retry = setTimeout(() => void open(true), LISTEN_RETRY_MS);
    retry.unref();
  };
  const open = async (afterFailure: boolean) => {
    const c = new pg.Client({ connectionString: url, application_name: `${instanceId}-listen` });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload) onMessage(n.payload);
    });
    // A lost connection errors, then ends: listen again on a new one.
    c.on('error', () => {});
    c.on('end', () => {
      if (current !== c) return;
      current = null;
      again();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch {
      void c.end().catch(() => {});
      again();
      return;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    current = c;
    if (afterFailure) onGap();
  };
  await open(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = current;
    current = null;
    await c?.end().catch(() => {});
  };
}

async function openEmbedded(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const adapterFactory = new PrismaPGlite(client);
  const prisma = new PrismaClient({ adapter: adapterFactory });
  const sql = async <R>(text: string, params?: unknown[]) => (await client.query<R>(text, params)).rows;
  return wrap(
    'embedded',
    `bke-${randomBytes(6).toString('hex')}`,
    prisma,
    adapterFactory,
    sql,
    async () => null,
    async () => {
      await prisma.$disconnect();
      await client.close();
    },
  );
}

function wrap(
  kind: DatabaseConfig['kind'],
  instanceId: string,
  prisma: PrismaClient,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  sql: Database['sql'],
  listen: Database['listen'],
  close: () => Promise<void>,
): Database {
  let closed: Promise<void> | undefined;
  return {
    kind,
    instanceId,
    prisma,
    adapterFactory,
    sql,
    listen,
    async ping() {
      try {
        await prisma.$queryRaw`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closed ??= close();
      return closed;
    },
  };
}
