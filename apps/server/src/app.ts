/**
 * Builds the HTTP + Socket.IO server around an open database. `main.ts` wires it to the environment;
 * tests build it directly on a throwaway database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { type ClusterLink, installClusterAdapter } from './cluster/adapter.ts';
import { linkPresence, type Presence } from './cluster/presence.ts';
import { linkWorldChanges } from './cluster/world-changes.ts';
import type { ClusterConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { registerAccount } from './http/account.ts';
import { type AuthLimits, registerAuth } from './http/auth.ts';
import { installErrorHandlers } from './http/errors.ts';
import { installCsrfGuard } from './http/guard.ts';
import { registerHealth } from './http/health.ts';
import { registerMetrics, serveMetrics } from './http/metrics.ts';
import { proxyTrust } from './http/origin.ts';
import { registerWeb } from './http/web.ts';
import { registerWorlds } from './http/worlds.ts';
import { Metrics } from './metrics.ts';
import { type TurnNotifier, watchTurns } from './notify/turns.ts';
import { attachSockets, type Io, type SocketLimits } from './sockets/io.ts';
import { WorldHub } from './worlds/hub.ts';

export interface AppOptions {
  db: Database;
  webDist: string;
  logger?: boolean | { level: string; transport?: { target: string } };
  /** How often this process looks for due deadlines (ms); 0 turns the deadline runner off. */
  deadlinePollMs?: number;
  authLimits?: AuthLimits;
  socketLimits?: SocketLimits;
  /** Turn notifications to players' webhooks: the site's address for links; private targets (tests). */
  notifications?: { publicUrl?: string | null; allowPrivate?: boolean };
  /** Fastify's `trustProxy`: which forwarded-for hops give the client's address (config.ts). */
  trustProxy?: boolean | number | string;
  /** How this process reaches the others on its database (cluster/adapter.ts); none by default. */
  cluster?: ClusterConfig;
  /** How often a clustered process compares the worlds it holds with the database (ms). */
  sweepMs?: number;
  /** A port of their own for the Prometheus metrics (http/metrics.ts). */
  metricsPort?: { port: number; host: string } | null;
  /** Node's process metrics too (once per process: main.ts). */
  processMetrics?: boolean;
}

export interface App {
  http: FastifyInstance;
  io: Io;
  hub: WorldHub;
  /** "Your move" webhooks: `remind()` sends the deadline reminders due (the app's timer calls it too). */
  turns: TurnNotifier;
  metrics: Metrics;
  cluster: ClusterLink;
  /** Whether a player has a page open on a world, on any process (cluster/presence.ts). */
  online: Presence;
  /** The metrics port when one was asked for (0 asks for a free one). */
  metricsPort: number | null;
  /** Stops accepting, lets in-flight requests finish, disconnects sockets. The database stays open. */
  close(): Promise<void>;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const trust = proxyTrust(options.trustProxy ?? false);
  const http = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 256 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // One function for Fastify (client address, host, protocol) and the sockets' origin check.
    trustProxy: trust,
  });
  const log = (msg: string, data?: object) => http.log.warn(data ?? {}, msg);
  let stopping = false;
  installErrorHandlers(http);
  installCsrfGuard(http);
  registerHealth(http, options.db, () => stopping);
  const hub = new WorldHub(options.db, log);
  const metrics = options.processMetrics ? new Metrics().withProcessMetrics() : new Metrics();
  registerAuth(http, options.db, options.authLimits ?? { burst: 10, perSecond: 0.2 });
  registerWorlds(http, options.db, hub);
  registerMetrics(http, options.db, metrics);
  await registerWeb(http, options.webDist);
  const io = attachSockets(http, options.db, hub, { limits: options.socketLimits, trust, metrics });
  const cluster = await installClusterAdapter(io, options.db, options.cluster ?? { kind: 'none' }, log);
  const changes = linkWorldChanges(io, hub, cluster, log, options.sweepMs);
  const presence = linkPresence(io, cluster);
  const notifications = options.notifications ?? {};
  registerAccount(http, options.db, { allowPrivate: notifications.allowPrivate ?? false });
  const turns = watchTurns(options.db, hub, {
    publicUrl: notifications.publicUrl ?? null,
    allowPrivate: notifications.allowPrivate ?? false,
    online: presence,
    log,
  });
  hub.deadlineFired.push(() => metrics.deadlinesFired.inc());
  metrics.watch({
    queues: () => hub.loaded().map((rt) => ({ worldId: rt.id, depth: rt.pending })),
    sockets: () => io.of('/').sockets.size,
    pool: () => {
      const p = options.db.pool;
      return p ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount } : null;
    },
    processes: () => io.of('/').adapter.serverCount(),
  });
  const scrape = options.metricsPort ? await serveMetrics(metrics, options.metricsPort) : null;
  const poll = options.deadlinePollMs ?? 1000;
  if (poll > 0) {
    hub.startDeadlines(poll);
    turns.start(Math.max(poll, 15_000));
  }
  let closing: Promise<void> | undefined;
  return {
    http,
    io,
    hub,
    turns,
    metrics,
    cluster,
    online: presence,
    metricsPort: scrape?.port ?? null,
    close() {
      closing ??= (async () => {
        stopping = true;
        hub.stopDeadlines();
        turns.stop();
        changes.stop();
        // This process's sockets only: with a cluster adapter `io.disconnectSockets` ends everyone's.
        io.local.disconnectSockets(true);
        await http.close();
        // The adapter says goodbye to the other processes and lets go of its connection.
        io.of('/').adapter.close();
        await cluster.close();
        await scrape?.close();
      })();
      return closing;
    },
  };
}
