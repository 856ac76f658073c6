/**
 * Prometheus metrics (prom-client), one registry per app: HTTP requests and their time by route and
 * status, the orders and how long they take to be acknowledged, each world's queue, the worlds held
 * and unloaded, the sockets, the deadlines fired, the mail outbox (queued, sent, failed), the
 * database pool, the processes of the cluster and the build. Served to admins at
 * /api/admin/metrics, or to a scraper on a port of its own (http/metrics.ts). Values that exist
 * anyway (queue depths, pool counts, the outbox's rows) are read when scraped, not kept up to date
 * on the hot path.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { HashingStats } from './auth/hashing-pool.ts';
import type { ReplayStats } from './worlds/replay-pool.ts';

/** The label of the worlds that are not public, all together (metrics name no hidden world). */
export const HIDDEN_WORLDS = 'not-public';

export type OrderOutcome = 'accepted' | 'deferred' | 'refused' | 'failed';

export interface MetricSources {
  /**
   * Tasks queued on each world this process holds: a public world under its id, the others under
   * `HIDDEN_WORLDS` (their ids are no one's business outside them, a scraper's included).
   */
  queues(): Promise<Iterable<{ worldId: string; depth: number }>>;
  /** Worlds this process holds in memory. */
  worlds(): number;
  /** Sockets connected to this process. */
  sockets(): number;
  /** The PostgreSQL pool (null on the embedded database). */
  pool(): { total: number; idle: number; waiting: number; max: number } | null;
  /** The site's mail outbox: messages waiting to be sent, and how long the oldest has waited (s). */
  outbox(): Promise<{ queued: number; oldestSeconds: number }>;
  /** Server processes the cluster adapter knows of, this one included. */
  processes(): Promise<number>;
  /** This process's password-hashing threads (auth/hashing-pool.ts). */
  hashing(): HashingStats;
  /** This process's replay threads (worlds/replay-pool.ts). */
  replays(): ReplayStats;
}

export class Metrics {
  readonly registry = new Registry();
  readonly orders = new Counter({
    name: 'bke_orders_total',
    help: 'Orders received over sockets, by outcome (deferred: an end of phase recorded as ready).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly orderAck = new Histogram({
    name: 'bke_order_ack_seconds',
    help: 'From an order reaching the server to its acknowledgement (committed to the log first).',
    labelNames: ['outcome'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly deadlinesFired = new Counter({
    name: 'bke_deadlines_fired_total',
    help: 'Turn deadlines this process fired (each fires once across all processes).',
    registers: [this.registry],
  });
  readonly httpRequests = new Histogram({
    name: 'bke_http_request_duration_seconds',
    help: 'HTTP requests answered by this process and their time, by method, route pattern and status (the count is the requests).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly mailSent = new Counter({
    name: 'bke_mail_sent_total',
    help: 'Messages of the outbox this process handed to the mail server (or the log), by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly mailFailed = new Counter({
    name: 'bke_mail_failed_total',
    help: 'Attempts to send a message of the outbox that failed, by kind and by what follows: a retry, or giving up.',
    labelNames: ['kind', 'then'] as const,
    registers: [this.registry],
  });
  readonly worldsUnloaded = new Counter({
    name: 'bke_worlds_unloaded_total',
    help: 'Worlds this process let go of from memory, unwatched and unused for the idle time.',
    registers: [this.registry],
  });

  /** Gauges read from `sources` at every scrape. */
  watch(sources: MetricSources): void {
    // Both outbox gauges come from one query: a scrape collects them together, and the second
    // takes the read the first started instead of counting the table again.
    let outboxRead: ReturnType<MetricSources['outbox']> | null = null;
    const outbox = () => {
      outboxRead ??= sources.outbox().finally(() => {
        outboxRead = null;
      });
      return outboxRead;
    };
    new Gauge({
      name: 'bke_world_queue_depth',
      help: 'Tasks queued on a world held by this process (orders, catch-ups, snapshots).',
      labelNames: ['world'] as const,
      registers: [this.registry],
      async collect() {
        const queues = await sources.queues();
        this.reset();
        for (const q of queues) this.inc({ world: q.worldId }, q.depth);
      },
    });
    new Gauge({
      name: 'bke_worlds_loaded',
      help: 'Worlds this process holds in memory (loaded on first use, unloaded when idle).',
      registers: [this.registry],
      collect() {
        this.set(sources.worlds());
      },
    });
    new Gauge({
      name: 'bke_sockets',
      help: 'Socket.IO connections to this process.',
      registers: [this.registry],
      collect() {
        this.set(sources.sockets());
      },
    });
    new Gauge({
      name: 'bke_db_pool_connections',
      help: 'The PostgreSQL pool: connections open, of them idle, and queries waiting for one.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = sources.pool();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
        this.set({ state: 'max' }, p.max);
      },
    });
    new Gauge({
      name: 'bke_mail_queued',
      help: "Messages of the site's outbox waiting to be sent (due now or retrying later), all processes together.",
      registers: [this.registry],
      async collect() {
        this.set((await outbox()).queued);
      },
    });
    new Gauge({
      name: 'bke_mail_oldest_queued_seconds',
      help: 'How long the oldest message waiting in the outbox has waited (0: none waits).',
      registers: [this.registry],
      async collect() {
        this.set((await outbox()).oldestSeconds);
      },
    });
    new Gauge({
      name: 'bke_password_hashing',
      help: 'Password hashing in this process: its threads, its queue places, and hashes running or waiting now.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const h = sources.hashing();
        this.set({ state: 'threads' }, h.threads);
        this.set({ state: 'queue' }, h.queue);
        this.set({ state: 'in_flight' }, h.inFlight);
      },
    });
    new Counter({
      name: 'bke_password_hashes_total',
      help: 'Password hashes this process made or checked (done), and refused with auth/busy (busy).',
      labelNames: ['outcome'] as const,
      registers: [this.registry],
      collect() {
        const h = sources.hashing();
        this.reset();
        this.inc({ outcome: 'done' }, h.done);
        this.inc({ outcome: 'busy' }, h.busy);
      },
    });
    new Counter({
      name: 'bke_replays_total',
      help: 'Past turns this process replayed on its replay threads (done), and refused with world/replay_busy (busy).',
      labelNames: ['outcome'] as const,
      registers: [this.registry],
      collect() {
        const r = sources.replays();
        this.reset();
        this.inc({ outcome: 'done' }, r.done);
        this.inc({ outcome: 'busy' }, r.busy);
      },
    });
    new Gauge({
      name: 'bke_cluster_processes',
      help: 'Server processes the cluster adapter knows of, this one included.',
      registers: [this.registry],
      async collect() {
        this.set(await sources.processes());
      },
    });
  }

  /** Which build runs: the server's version and Node's, as labels of a gauge that is always 1. */
  withBuild(version: string): this {
    new Gauge({
      name: 'bke_build_info',
      help: 'The running build: the server version and the Node.js version (always 1).',
      labelNames: ['version', 'node'] as const,
      registers: [this.registry],
    }).set({ version, node: process.version }, 1);
    return this;
  }

  /** Node's own metrics (CPU, memory, event-loop lag, garbage collection): once per process. */
  withProcessMetrics(): this {
    collectDefaultMetrics({ register: this.registry });
    return this;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
