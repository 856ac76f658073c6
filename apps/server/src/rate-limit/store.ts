/**
 * Where rate limits keep their counters: the `rate_limits` table (prisma/schema.prisma), shared by
 * every server process, through rate-limiter-flexible's PostgreSQL limiter, whose one upsert per
 * attempt counts concurrent attempts atomically. The embedded database is PostgreSQL too, so both
 * paths run the same statements.
 *
 * The limiter talks to a `pg`-style client: `query({ text, values, name })` → `{ rows }`. Ours is
 * `Database.sql`, which runs on the pool of the PostgreSQL server or on the embedded database;
 * the adapter below is written by hand because it is that one method. It also turns the `bigint`
 * columns into numbers: `pg` returns them as strings and the embedded driver as BigInt, and the
 * limiter subtracts `Date.now()` from them.
 */
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from '../db/database.ts';

const TABLE = 'rate_limits';

interface Query {
  text: string;
  values?: unknown[];
  name?: string;
}

function clientFor(db: Database) {
  return {
    async query(q: Query): Promise<{ rows: { points: number; expire: number | null }[] }> {
      const rows = await db.sql<{ points: unknown; expire: unknown }>(q.text, q.values ?? [], q.name);
      return {
        rows: rows.map((r) => ({
          points: Number(r.points),
          expire: r.expire === null || r.expire === undefined ? null : Number(r.expire),
        })),
      };
    },
  };
}

export interface WindowSpec {
  /** The limit's name, the first part of every key it counts (`login`, `chat`, …). */
  readonly name: string;
  /** Attempts allowed in one window. */
  readonly points: number;
  /** The window's length. */
  readonly seconds: number;
}

/** A limiter counting in the shared table. */
export function sharedWindow(db: Database, spec: WindowSpec): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: clientFor(db),
    storeType: 'client',
    tableName: TABLE,
    tableCreated: true, // made by a migration, never at run time
    keyPrefix: spec.name,
    points: spec.points,
    duration: spec.seconds,
    // Expired rows are deleted by each process once an hour; a failed delete is harmless.
    clearExpiredByTimeout: true,
  });
}
