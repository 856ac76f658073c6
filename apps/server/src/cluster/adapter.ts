/**
 * Several server processes on one PostgreSQL database, behind a load balancer with sticky sessions,
 * reach each other's sockets through a maintained Socket.IO adapter: rooms span the processes,
 * `serverSideEmit` carries messages between them (cluster/world-changes.ts, cluster/presence.ts),
 * and `disconnectSockets` ends sockets wherever they are.
 *
 * - `postgres` (@socket.io/postgres-adapter): LISTEN/NOTIFY on the server's own `pg` pool (it keeps
 *   one connection of it listening); payloads over 8 kB go through the `socket_io_attachments` table
 *   (a migration creates it). Needs nothing but the database.
 * - `redis` (@socket.io/redis-streams-adapter): Redis Streams plus pub/sub. Keeps the traffic
 *   between processes off the database, which serializes every NOTIFY at commit.
 * - `none`: one process (always so on the embedded database, which one process owns).
 *
 * Neither adapter replays to a process what it missed while disconnected: the database stays the
 * only source of truth, and a process catches up from it (cluster/world-changes.ts), at once when
 * the adapter listens again after a lost connection (`ClusterLink.onRelisten`).
 */
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';
import type { ClusterConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { listeningPool } from './listening-pool.ts';

export interface ClusterLink {
  readonly kind: ClusterConfig['kind'];
  /** The adapter's Redis client, which the socket-event limit counts in too (rate-limit/socket-events.ts). */
  readonly redis?: ReturnType<typeof createClient>;
  /** The prefix of this site's keys on that Redis (REDIS_STREAM). */
  readonly redisPrefix?: string;
  /** Ends what the adapter holds beyond the Socket.IO server (the Redis client). */
  close(): Promise<void>;
  /**
   * Calls `f` each time the PostgreSQL adapter listens again after its connection was lost, with
   * the moment it was lost (what the other processes said meanwhile is gone: the caller catches up
   * from the database). Redis Streams keep their messages across a reconnection and need no such call.
   */
  onRelisten(f: (lostAt: Date) => void): void;
}

type Log = (msg: string, data?: object) => void;

/** Installs the adapter `config` names on `io` (before any socket connects). */
export async function installClusterAdapter(
  io: Server,
  db: Database,
  config: ClusterConfig,
  log: Log,
): Promise<ClusterLink> {
  const relisten: ((lostAt: Date) => void)[] = [];
  const onRelisten = (f: (lostAt: Date) => void) => {
    relisten.push(f);
  };
  const relistened = (lostAt: Date) => {
    for (const f of relisten) f(lostAt);
  };
  if (config.kind === 'none') return { kind: 'none', close: async () => {}, onRelisten };
  if (config.kind === 'postgres') {
    if (!db.pool) throw new Error('the PostgreSQL adapter needs a PostgreSQL database (DATABASE_URL)');
    io.adapter(
      createPostgresAdapter(listeningPool(db.pool, log, relistened), {
        errorHandler: (err) => log('cluster adapter: PostgreSQL error', { err: String(err) }),
      }),
    );
    return { kind: 'postgres', close: async () => {}, onRelisten };
  }
  const client = createClient({ url: config.url });
  client.on('error', (err) => log('cluster adapter: Redis error', { err: String(err) }));
  await client.connect();
  io.adapter(createRedisAdapter(client, { streamName: config.stream, channelPrefix: config.stream }));
  return {
    kind: 'redis',
    redis: client,
    redisPrefix: config.stream,
    async close() {
      await client.close().catch(() => client.destroy());
    },
    onRelisten,
  };
}
