/**
 * The socket-event limit, counted for the whole site without a database round trip per message
 * (an order is answered on the hot path; docs/limits.md, "Socket events"):
 *
 * - **Redis configured** (CLUSTER_ADAPTER=redis): rate-limiter-flexible's Redis limiter, one atomic
 *   script per message on the Redis the adapter already uses, so every process counts the same
 *   window. While Redis is unreachable, this process's share (below) counts instead.
 * - **Otherwise**: each process counts in its own memory and grants its share of the site's limit,
 *   the limit divided by the number of live server processes (the adapter's `serverCount()`, asked
 *   again every SHARE_REFRESH_MS), so N processes together never grant more than the site's limit
 *   to one key however its sockets are spread. One process (the embedded database, `none`) grants
 *   it all. A process that starts is known to the others at its first heartbeat; one that dies
 *   is counted until the adapter gives up on it, which only makes the shares smaller meanwhile.
 */
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { ClusterLink } from '../cluster/adapter.ts';
import type { Io } from '../sockets/typed-server.ts';
import { Limit, type Taken } from './limit.ts';
import type { WindowSpec } from './store.ts';

/** How often the number of live processes is asked again (a local read for the heartbeat adapters). */
const SHARE_REFRESH_MS = 1000;

/** This process's allowance when `servers` processes share `points`: never 0, never more than its part. */
const shareOf = (points: number, servers: number): number =>
  Math.max(1, Math.floor(points / Math.max(1, servers)));

export class SocketEventLimit {
  private readonly own: RateLimiterMemory;
  private counted: Limit;
  private servers = 1;

  constructor(
    readonly spec: WindowSpec,
    private readonly log: (msg: string, data: object) => void,
  ) {
    this.own = new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.seconds });
    this.counted = Limit.over(this.own, spec, log);
  }

  take(key: string): Promise<Taken> {
    return this.counted.take(key);
  }

  /** How many processes this one believes share the limit (1 until linked). */
  get processes(): number {
    return this.servers;
  }

  /**
   * Counts with the site's other processes from now on: in Redis when the adapter has one, else by
   * this process's share. Returns the stop of the share's refresh.
   */
  link(io: Io, link: ClusterLink): () => void {
    if (link.kind === 'none') return () => {};
    if (link.redis)
      this.counted = Limit.over(
        new RateLimiterRedis({
          storeClient: link.redis,
          useRedisPackage: true,
          // Straight to this process's share while Redis is away, instead of waiting on its queue.
          rejectIfRedisNotReady: true,
          keyPrefix: `${link.redisPrefix}:${this.spec.name}`,
          points: this.spec.points,
          duration: this.spec.seconds,
          insuranceLimiter: this.own,
        }),
        this.spec,
        this.log,
      );
    let busy = false;
    const refresh = () => {
      if (busy) return;
      busy = true;
      io.of('/')
        .adapter.serverCount()
        .then((n) => this.share(n))
        .catch((e) => this.log('server count not read; the share stays', { err: String(e) }))
        .finally(() => {
          busy = false;
        });
    };
    refresh();
    const timer = setInterval(refresh, SHARE_REFRESH_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private share(servers: number): void {
    if (servers === this.servers) return;
    this.servers = servers;
    this.own.points = shareOf(this.spec.points, servers);
    this.log('socket-event limit shared', {
      limit: this.spec.name,
      processes: servers,
      allowance: this.own.points,
      of: this.spec.points,
    });
  }
}
