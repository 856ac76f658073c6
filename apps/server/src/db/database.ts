/**
 * Opens the database: a PostgreSQL server when a URL is given, otherwise an embedded PostgreSQL
 * (PGlite, in-process) whose files live in a folder of the repository that git ignores.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';

/**
 * Connections of a process's main PostgreSQL pool unless DATABASE_POOL_MAX says otherwise
 * (config.ts). Declared here, beside the pool, so that the settings import the database and not
 * the other way round.
 */
export const DEFAULT_POOL_MAX = 10;

/**
 * How long opening a PostgreSQL connection, or waiting for a free one of a pool, may take (ms)
 * unless DATABASE_CONNECT_TIMEOUT_MS says otherwise (config.ts): past it the query fails (readiness
 * answers 503) instead of hanging on a network that went silent.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export type DatabaseConfig =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** How long a new connection, or a wait for a free one, may take (ms); DEFAULT_CONNECT_TIMEOUT_MS. */
      connectTimeoutMs?: number;
    }
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
   * Calls `f` whenever one of this process's idle connections to the database is lost (a restart,
   * a failover, a terminated backend): the pool replaces it on its next use. Never on the embedded
   * database, which has no connection to lose.
   */
  onConnectionLost(f: (err: Error) => void): void;
  /**
   * The `pg` pool behind Prisma on PostgreSQL (the Socket.IO adapter and the metrics use it);
   * null on the embedded database.
   */
  readonly pool: pg.Pool | null;
  /**
   * A database session for the schema engine alone (migrations.ts): on PostgreSQL a connection of
   * its own, so that the migration lock it takes dies with it when `close` ends it, and never sits
   * on a pooled connection the server keeps busy. On the embedded database, the database itself.
   */
  migrationSession(): Promise<MigrationSession>;
  /** This process's name on the database (random per `openDatabase`; its connections' application_name). */
  readonly instanceId: string;
  /**
   * The same database for writes that nobody waits on (projections, snapshots and their thinning,
   * notices): on PostgreSQL its `sql` runs on a small pool of its own (BACKGROUND_CONNECTIONS), so
   * that a burst of them — every world's snapshot and projections at a turn end — never holds the
   * connections an order's append is waiting for (the ack waits for the append alone). Its `prisma`
   * is the main one. Never part of a transaction. On the embedded database, the database itself.
   */
  readonly background: Database;
  /**
   * Runs `fn` in one transaction on one connection, with raw SQL, beside the ORM: `snapshot` is a
   * REPEATABLE READ, READ ONLY transaction (every query sees the database as it was at its first,
   * whatever commits meanwhile: a backup while the site runs); `write` commits what `fn` wrote, or
   * nothing if it throws (a restore). No time limit, unlike the ORM's transactions. On the embedded
   * database the transaction holds the database: everything else waits for it.
   */
  rawTransaction<T>(mode: 'snapshot' | 'write', fn: (query: RawQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type RawQuery = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

const BEGIN = {
  snapshot: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  write: 'BEGIN',
} as const;

/** Connections of the background writes' pool on PostgreSQL (`Database.background`). */
const BACKGROUND_CONNECTIONS = 3;

export interface MigrationSession {
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * The database's own error for the last migration script that failed on this session (the schema
   * engine reports only that "an external connector" failed), or null.
   */
  lastScriptError(): Error | null;
  /** A query on that very session (the migration lock is taken on it). */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Ends the session, and with it any lock it holds. */
  close(): Promise<void>;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === 'postgres'
    ? openPostgres(
        config.url,
        config.poolSize ?? DEFAULT_POOL_MAX,
        config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      )
    : openEmbedded(config.dataDir);
}

/**
 * How a migration script reaches the database, on both kinds: as one simple-protocol query, which
 * PostgreSQL runs as one implicit transaction ("multiple statements in a simple Query message",
 * protocol-flow.html): a script that fails half-way leaves nothing of itself behind, so a failed
 * migration leaves the database as it was (migrate.ts relies on this). Replaced because
 * - PrismaPg splits the script on every `;`, cutting a dollar-quoted function body (the audit log's
 *   append-only trigger) in pieces, and runs the pieces one by one;
 * - pglite-prisma-adapter 0.7.2 does not await the script: a failing migration was recorded as
 *   applied and its error crashed the process as an unhandled rejection.
 * `failures` keeps each error, whose words the schema engine does not pass on.
 */
function withWholeScripts<F extends SqlMigrationAwareDriverAdapterFactory>(
  factory: F,
  run: (script: string) => Promise<unknown>,
  failures: Error[] = [],
): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script: string) => {
      try {
        await run(script);
      } catch (e) {
        failures.push(e instanceof Error ? e : new Error(String(e)));
        throw e;
      }
    };
    return adapter;
  };
  return factory;
}

/** `Database.sql` on a pool: a named statement is prepared once per connection. */
function sqlOn(pool: pg.Pool) {
  return async <R>(text: string, params?: unknown[], name?: string): Promise<R[]> =>
    (await pool.query(name ? { name, text, values: params } : { text, values: params })).rows as R[];
}

/**
 * What every pool of a process asks of its connections. Without a connection timeout, a network
 * that drops packets silently (no refusal, no reset) held each new connection, and each wait for a
 * free one, for as long as the operating system's TCP retries last (minutes): readiness and every
 * request hung instead of failing. TCP keep-alive lets the system notice a connection whose peer
 * vanished while it sat idle in the pool.
 */
export function connectionOptions(connectTimeoutMs: number): pg.PoolConfig {
  return { connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
}

function openPostgres(url: string, max: number, connectTimeoutMs: number): Database {
  const instanceId = `bke-${randomBytes(6).toString('hex')}`;
  const timeouts = connectionOptions(connectTimeoutMs);
  const pool = new pg.Pool({ connectionString: url, max, application_name: instanceId, ...timeouts });
  // An idle client losing its server connection must not crash the process: it is told instead.
  const lost: ((err: Error) => void)[] = [];
  const connectionLost = (err: Error) => {
    for (const f of lost) f(err);
  };
  pool.on('error', connectionLost);
  const adapterFactory = withWholeScripts(new PrismaPg(pool), (script) => pool.query(script));
  const prisma = new PrismaClient({ adapter: adapterFactory });
  // Created empty: a process that writes nothing in the background (the CLI tools) opens nothing.
  const backgroundPool = new pg.Pool({
    connectionString: url,
    max: BACKGROUND_CONNECTIONS,
    application_name: instanceId,
    ...timeouts,
  });
  backgroundPool.on('error', connectionLost);
  const sql = sqlOn(pool);
  const backgroundSql = sqlOn(backgroundPool);
  return wrap({
    kind: 'postgres',
    pingTimeoutMs: connectTimeoutMs,
    instanceId,
    prisma,
    adapterFactory,
    sql,
    pool,
    onConnectionLost(f) {
      lost.push(f);
    },
    async migrationSession() {
      // One connection: every statement of the schema engine, and the lock, share its session.
      const own = new pg.Pool({
        connectionString: url,
        max: 1,
        application_name: `${instanceId}-migrate`,
        ...timeouts,
      });
      own.on('error', () => {});
      const failures: Error[] = [];
      return {
        adapterFactory: withWholeScripts(new PrismaPg(own), (script) => own.query(script), failures),
        lastScriptError: () => failures.at(-1) ?? null,
        query: async <R>(text: string, params?: unknown[]) => (await own.query(text, params)).rows as R[],
        close: () => own.end(),
      };
    },
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), backgroundPool.end()]);
    },
    background: { sql: backgroundSql },
    async rawTransaction(mode, fn) {
      const client = await pool.connect();
      // Checked out, the connection's loss between two queries is told on the connection itself
      // (unheard, it would end the process); the next query fails with it and rolls back.
      const dropped = (err: Error) => connectionLost(err);
      client.on('error', dropped);
      try {
        await client.query(BEGIN[mode]);
        const out = await fn(async (text, params) => (await client.query(text, params)).rows);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.off('error', dropped);
        client.release();
      }
    },
  });
}

async function openEmbedded(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  // Loaded only here: importing PGlite costs about 40 MB of memory, which a process on a
  // PostgreSQL server (a server, `npm run rebuild`) does not need.
  const [{ EventLoopPGlite }, { PrismaPGlite }] = await Promise.all([
    import('./event-loop-pglite.ts'),
    import('pglite-prisma-adapter'),
  ]);
  // `PGlite.create` always makes a plain PGlite: the subclass is made with `new`, then awaited.
  const client = new EventLoopPGlite(dataDir);
  await client.waitReady;
  const adapterFactory = withWholeScripts(new PrismaPGlite(client), (script) => client.exec(script));
  const prisma = new PrismaClient({ adapter: adapterFactory });
  const sql = async <R>(text: string, params?: unknown[]) => (await client.query<R>(text, params)).rows;
  return wrap({
    kind: 'embedded',
    // In-process: a query cannot be lost on a network.
    pingTimeoutMs: null,
    instanceId: `bke-${randomBytes(6).toString('hex')}`,
    prisma,
    adapterFactory,
    sql,
    pool: null,
    onConnectionLost: () => {},
    // In-process, one process only: the database itself, nothing to release.
    migrationSession: async () => {
      const failures: Error[] = [];
      return {
        adapterFactory: withWholeScripts(new PrismaPGlite(client), (script) => client.exec(script), failures),
        lastScriptError: () => failures.at(-1) ?? null,
        query: sql,
        close: async () => {},
      };
    },
    async close() {
      await prisma.$disconnect();
      await client.close();
    },
    // One connection in-process: the background writes queue with everything else.
    background: null,
    rawTransaction: (mode, fn) =>
      client.transaction(async (tx) => {
        if (mode === 'snapshot') await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        return fn(async (text, params) => (await tx.query(text, params)).rows as never[]);
      }),
  });
}

function wrap(
  parts: Omit<Database, 'ping' | 'background'> & {
    /** The background writes' own `sql`, or null when the database itself serves them. */
    background: Pick<Database, 'sql'> | null;
    /**
     * How long a ping waits before it counts as no answer (null: as long as it takes). A query on
     * a connection whose network went silent gets no answer and no error: unbounded, readiness
     * (and the database watch, which waits for its last look) would hang with it.
     */
    pingTimeoutMs: number | null;
  },
): Database {
  let closed: Promise<void> | undefined;
  const { background, pingTimeoutMs, ...rest } = parts;
  const db: { -readonly [K in keyof Database]: Database[K] } = {
    ...rest,
    background: undefined as unknown as Database,
    async ping() {
      const answered = parts.prisma.$queryRaw`SELECT 1`.then(
        () => true,
        () => false,
      );
      if (pingTimeoutMs === null) return answered;
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<false>((r) => {
        timer = setTimeout(() => r(false), pingTimeoutMs);
      });
      try {
        return await Promise.race([answered, silent]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closed ??= parts.close();
      return closed;
    },
  };
  db.background = background ? { ...db, sql: background.sql } : db;
  (db.background as typeof db).background = db.background;
  return db;
}
