/**
 * Server configuration, read once from the environment and checked with zod. A variable set to the
 * empty string counts as unset (`DATABASE_URL=` in a compose file or a shell means "none").
 */
import path from 'node:path';
import { z } from 'zod';
import { defaultHashing, type HashingSettings } from './auth/hashing-pool.ts';
import { type DatabaseConfig, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_POOL_MAX } from './db/database.ts';
import { DEFAULT_LIMITS, type Limits } from './limits.ts';
import { REPO_ROOT } from './root.ts';
import { defaultReplays, type ReplaySettings } from './worlds/replay-pool.ts';

export { REPO_ROOT };

/**
 * How long a world nobody watches or uses stays in memory (ms). Loading one back costs reading its
 * latest snapshot and replaying the orders after it, once per return after ten minutes away;
 * holding every world ever touched costs heap, and longer major collections for the worlds in play.
 */
export const DEFAULT_WORLD_IDLE_MS = 10 * 60_000;

const count = (d: number) => z.coerce.number().int().min(1).max(1_000_000).default(d);
const rate = (d: number) => z.coerce.number().positive().max(1_000_000).default(d);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Connections of this process's main PostgreSQL pool (one of them held by the cluster adapter's
   * LISTEN). A process opens this many plus BACKGROUND_CONNECTIONS (3), plus one while it migrates:
   * docs/operations.md, "Connections to PostgreSQL", gives the arithmetic against the server's max_connections.
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(1000).default(DEFAULT_POOL_MAX),
  /** How long a new PostgreSQL connection, or a wait for a free one, may take (ms). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_CONNECT_TIMEOUT_MS),
  /** Where the embedded database keeps its files when DATABASE_URL is not set. */
  DATA_DIR: z.string().min(1).optional(),
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: z.enum(['0', '1']).optional(),
  /** How often this process looks for due deadlines, in ms (0: never; another process does). */
  DEADLINE_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** A bot's thinking time per decision, in ms (bots/driver.ts). */
  BOT_DECISION_MS: z.coerce.number().int().min(1).max(10_000).default(40),
  /** The pause between a bot's commits while a person plays in the world, in ms (0: at once). */
  BOT_PACE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** The pause between bots' commits in a world where no person is present, in ms. */
  BOT_ALONE_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  /** 0: bots never act in this process (another process plays them). */
  BOTS: z.enum(['0', '1']).default('1'),
  /** 0: the server does not migrate at start-up (a deploy step ran `npm run migrate`); it checks. */
  MIGRATE_ON_START: z.enum(['0', '1']).default('1'),
  /**
   * How several server processes on one PostgreSQL reach each other's sockets (cluster/adapter.ts):
   * Socket.IO's PostgreSQL adapter (the default with DATABASE_URL), its Redis Streams adapter
   * (with REDIS_URL), or none (one process).
   */
  CLUSTER_ADAPTER: z.enum(['postgres', 'redis', 'none']).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// or rediss:// URL')
    .optional(),
  /** The Redis stream (and channel prefix) of this deployment: one per site sharing a Redis. */
  REDIS_STREAM: z
    .string()
    .regex(/^[\w.:-]{1,100}$/)
    .default('bke'),
  /** Prometheus metrics on a port of their own (unset: only /api/admin/metrics, for admins). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  NODE_ENV: z.string().optional(),
  /**
   * Behind a reverse proxy or load balancer: which `X-Forwarded-For` hops to believe, so that rate
   * limits and logs see the player's address rather than the proxy's. `true` trusts every hop, a
   * number that many hops, otherwise a comma-separated list of proxy addresses or CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+)(,\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:/]+))*)$/,
      'TRUST_PROXY: true, false, a hop count, or addresses/CIDRs (loopback, linklocal and uniquelocal name ranges)',
    )
    .optional(),
  /** The site's public address (https://bke.example.org): links in turn notifications. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Lets players' webhooks point at private addresses (a receiver on this machine; tests). */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** Creates this admin account at start-up when no account of that name exists (with the password). */
  BKE_ADMIN_USERNAME: z.string().min(3).max(24).optional(),
  BKE_ADMIN_PASSWORD: z.string().min(8).max(200).optional(),
  /** How often expired sessions are deleted (and their sockets ended), in minutes. */
  SESSION_PURGE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /**
   * On SIGTERM, how long readiness answers 503 while everything else is served, before the server
   * drains and stops: long enough for the load balancer's health checks to take the process out of
   * rotation (deploy/haproxy.cfg: every 3 s, out after 2 failures, so 7). 0: drain at once (no
   * balancer in front). SIGINT, or a second signal, never waits.
   */
  SHUTDOWN_NOTICE_SECONDS: z.coerce.number().min(0).max(600).default(0),
  /** A world nobody on this process watches or uses for this long is unloaded, in minutes (0: never). */
  WORLD_IDLE_MINUTES: z.coerce
    .number()
    .min(0)
    .max(10_080)
    .default(DEFAULT_WORLD_IDLE_MS / 60_000),
  // Limits (limits.ts; docs/limits.md).
  AUTH_ATTEMPTS_BURST: count(DEFAULT_LIMITS.authPerAddress.burst),
  AUTH_ATTEMPTS_PER_MINUTE: rate(DEFAULT_LIMITS.authPerAddress.perMinute),
  LOGIN_FREE_FAILURES: count(DEFAULT_LIMITS.loginFreeFailures),
  LOGIN_FIRST_DELAY_SECONDS: count(DEFAULT_LIMITS.loginFirstDelaySeconds),
  LOGIN_MAX_DELAY_SECONDS: count(DEFAULT_LIMITS.loginMaxDelaySeconds),
  SOCKET_EVENTS_BURST: count(DEFAULT_LIMITS.socketEvents.burst),
  SOCKET_EVENTS_PER_SECOND: rate(DEFAULT_LIMITS.socketEvents.perSecond),
  SOCKETS_PER_ADDRESS: count(DEFAULT_LIMITS.socketsPerAddress),
  SOCKETS_PER_ACCOUNT: count(DEFAULT_LIMITS.socketsPerAccount),
  WORLDS_PER_ACCOUNT_PER_DAY: count(DEFAULT_LIMITS.worldsPerDay),
  CHAT_LINES_PER_MINUTE: count(DEFAULT_LIMITS.chatPerMinute),
  JOINS_PER_WORLD_PER_DAY: count(DEFAULT_LIMITS.joinsPerWorldPerDay),
  STALE_ORDER_MAX_PATCHES: count(DEFAULT_LIMITS.staleOrderPatches),
  FORGOT_ATTEMPTS_BURST: count(DEFAULT_LIMITS.forgotPerAddress.burst),
  FORGOT_ATTEMPTS_PER_MINUTE: rate(DEFAULT_LIMITS.forgotPerAddress.perMinute),
  RESET_ATTEMPTS_BURST: count(DEFAULT_LIMITS.resetPerAddress.burst),
  RESET_ATTEMPTS_PER_MINUTE: rate(DEFAULT_LIMITS.resetPerAddress.perMinute),
  MADE_UP_LINKS_BURST: count(DEFAULT_LIMITS.madeUpLinksPerAddress.burst),
  MADE_UP_LINKS_PER_MINUTE: rate(DEFAULT_LIMITS.madeUpLinksPerAddress.perMinute),
  WORLDS_PER_ADDRESS_PER_DAY: count(DEFAULT_LIMITS.worldsPerAddressPerDay),
  ACCOUNT_LINKS_PER_HOUR: count(DEFAULT_LIMITS.accountLinksPerHour),
  MAIL_LINKS_PER_RECIPIENT_PER_HOUR: count(DEFAULT_LIMITS.mail.linksPerHour),
  MAIL_LINKS_PER_RECIPIENT_PER_DAY: count(DEFAULT_LIMITS.mail.linksPerDay),
  MAIL_VERIFY_PER_RECIPIENT_PER_WEEK: count(DEFAULT_LIMITS.mail.verifyPerWeek),
  MAIL_NOTICES_PER_RECIPIENT_PER_HOUR: count(DEFAULT_LIMITS.mail.noticesPerHour),
  MAIL_TURNS_PER_RECIPIENT_PER_HOUR: count(DEFAULT_LIMITS.mail.turnsPerHour),
  MAIL_LINKS_PER_CLIENT_ADDRESS_PER_HOUR: count(DEFAULT_LIMITS.mail.perClientAddressPerHour),
  REPLAYS_BURST: count(DEFAULT_LIMITS.replays.burst),
  REPLAYS_PER_MINUTE: rate(DEFAULT_LIMITS.replays.perMinute),
  PRIVATE_WRITES_BURST: count(DEFAULT_LIMITS.privateWrites.burst),
  PRIVATE_WRITES_PER_MINUTE: rate(DEFAULT_LIMITS.privateWrites.perMinute),
  /** Mail goes out through this SMTP server (smtp:// or smtps://, user and password in the URL); unset: logged. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From of every mail ("BKE Online <bke@example.org>"); by default no-reply at PUBLIC_URL's host. */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /** Password-hashing threads, and hashes that may wait for one (auth/hashing-pool.ts). */
  PASSWORD_HASH_THREADS: z.coerce.number().int().min(1).max(64).default(defaultHashing().threads),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(defaultHashing().queue),
  /** Threads that replay past turns, and replays that may wait for one (worlds/replay-pool.ts). */
  REPLAY_THREADS: z.coerce.number().int().min(1).max(64).default(defaultReplays().threads),
  REPLAY_QUEUE: z.coerce.number().int().min(0).max(10_000).default(defaultReplays().queue),
  /**
   * The key that signs links sent by mail (mail/link-signature.ts), base64url, at least 32 bytes:
   * when set it is used instead of the one the database keeps (mail/link-key.ts), so a secret store
   * can hold it. Every process of a site must be given the same.
   */
  LINK_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{43,512}$/,
      'LINK_KEY must be 43 to 512 base64url characters (32 random bytes or more: `openssl rand -base64 32 | tr "+/" "-_" | tr -d =`)',
    )
    .optional(),
  /** How often this process looks for mail to send (queued by other processes, retries), in ms. */
  MAIL_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  logPretty: boolean;
  deadlinePollMs: number;
  /** How bots think and pace their orders; false: no bot acts in this process. */
  bots: { decisionMs: number; paceMs: number; aloneMs: number } | false;
  admin: { username: string; password: string } | null;
  /** Fastify's `trustProxy`. */
  trustProxy: boolean | number | string;
  notifications: { publicUrl: string | null; allowPrivate: boolean };
  migrateOnStart: boolean;
  cluster: ClusterConfig;
  metrics: { port: number; host: string } | null;
  limits: Limits;
  hashing: HashingSettings;
  replays: ReplaySettings;
  sessionPurgeMs: number;
  /** How long an unwatched, unused world stays in memory (ms); 0: for good. */
  worldIdleMs: number;
  /** On SIGTERM, how long readiness answers 503 before the server drains (ms). */
  shutdownNoticeMs: number;
  mail: MailConfig;
}

interface MailConfig {
  /** null: messages are written to the log instead of sent. */
  smtpUrl: string | null;
  from: string;
  /** The address links in mail point at: PUBLIC_URL, else this server on localhost. */
  publicUrl: string;
  pollMs: number;
  /** LINK_KEY's bytes; null: the database's key. */
  linkKey: Buffer | null;
}

export type ClusterConfig =
  | { kind: 'none' }
  | { kind: 'postgres' }
  | { kind: 'redis'; url: string; stream: string };

/** `NAME=` (empty) is unset: the environment without its empty variables. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
}

function clusterOf(e: z.infer<typeof envSchema>): ClusterConfig {
  const kind = e.CLUSTER_ADAPTER ?? (e.DATABASE_URL ? 'postgres' : 'none');
  if (kind === 'none') return { kind };
  if (!e.DATABASE_URL)
    throw new Error(
      `Invalid configuration: CLUSTER_ADAPTER=${kind} needs DATABASE_URL (the embedded database serves one process only)`,
    );
  if (kind === 'postgres') return { kind };
  if (!e.REDIS_URL) throw new Error('Invalid configuration: CLUSTER_ADAPTER=redis needs REDIS_URL');
  return { kind, url: e.REDIS_URL, stream: e.REDIS_STREAM };
}

function trustProxyOf(v: string | undefined): Config['trustProxy'] {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v.replace(/\s+/g, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) throw new Error(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolSize: e.DATABASE_POOL_MAX,
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
        }
      : { kind: 'embedded', dataDir: path.resolve(REPO_ROOT, e.DATA_DIR ?? '.data/pglite') },
    webDist: path.resolve(REPO_ROOT, e.WEB_DIST ?? 'apps/web/dist'),
    logLevel: e.LOG_LEVEL,
    // Readable logs are for a developer at a terminal; pino-pretty is not installed in production.
    logPretty: e.LOG_PRETTY
      ? e.LOG_PRETTY === '1'
      : Boolean(process.stdout.isTTY) && e.NODE_ENV !== 'production',
    deadlinePollMs: e.DEADLINE_POLL_MS,
    bots:
      e.BOTS === '1'
        ? { decisionMs: e.BOT_DECISION_MS, paceMs: e.BOT_PACE_MS, aloneMs: e.BOT_ALONE_MS }
        : false,
    admin:
      e.BKE_ADMIN_USERNAME && e.BKE_ADMIN_PASSWORD
        ? { username: e.BKE_ADMIN_USERNAME, password: e.BKE_ADMIN_PASSWORD }
        : null,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    notifications: { publicUrl: e.PUBLIC_URL ?? null, allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === '1' },
    migrateOnStart: e.MIGRATE_ON_START === '1',
    cluster: clusterOf(e),
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    limits: {
      authPerAddress: { burst: e.AUTH_ATTEMPTS_BURST, perMinute: e.AUTH_ATTEMPTS_PER_MINUTE },
      loginFreeFailures: e.LOGIN_FREE_FAILURES,
      loginFirstDelaySeconds: e.LOGIN_FIRST_DELAY_SECONDS,
      loginMaxDelaySeconds: e.LOGIN_MAX_DELAY_SECONDS,
      socketEvents: { burst: e.SOCKET_EVENTS_BURST, perSecond: e.SOCKET_EVENTS_PER_SECOND },
      socketsPerAddress: e.SOCKETS_PER_ADDRESS,
      socketsPerAccount: e.SOCKETS_PER_ACCOUNT,
      worldsPerDay: e.WORLDS_PER_ACCOUNT_PER_DAY,
      chatPerMinute: e.CHAT_LINES_PER_MINUTE,
      joinsPerWorldPerDay: e.JOINS_PER_WORLD_PER_DAY,
      staleOrderPatches: e.STALE_ORDER_MAX_PATCHES,
      forgotPerAddress: { burst: e.FORGOT_ATTEMPTS_BURST, perMinute: e.FORGOT_ATTEMPTS_PER_MINUTE },
      resetPerAddress: { burst: e.RESET_ATTEMPTS_BURST, perMinute: e.RESET_ATTEMPTS_PER_MINUTE },
      madeUpLinksPerAddress: { burst: e.MADE_UP_LINKS_BURST, perMinute: e.MADE_UP_LINKS_PER_MINUTE },
      worldsPerAddressPerDay: e.WORLDS_PER_ADDRESS_PER_DAY,
      accountLinksPerHour: e.ACCOUNT_LINKS_PER_HOUR,
      mail: {
        linksPerHour: e.MAIL_LINKS_PER_RECIPIENT_PER_HOUR,
        linksPerDay: e.MAIL_LINKS_PER_RECIPIENT_PER_DAY,
        verifyPerWeek: e.MAIL_VERIFY_PER_RECIPIENT_PER_WEEK,
        noticesPerHour: e.MAIL_NOTICES_PER_RECIPIENT_PER_HOUR,
        turnsPerHour: e.MAIL_TURNS_PER_RECIPIENT_PER_HOUR,
        perClientAddressPerHour: e.MAIL_LINKS_PER_CLIENT_ADDRESS_PER_HOUR,
      },
      replays: { burst: e.REPLAYS_BURST, perMinute: e.REPLAYS_PER_MINUTE },
      privateWrites: { burst: e.PRIVATE_WRITES_BURST, perMinute: e.PRIVATE_WRITES_PER_MINUTE },
    },
    hashing: { threads: e.PASSWORD_HASH_THREADS, queue: e.PASSWORD_HASH_QUEUE },
    replays: { threads: e.REPLAY_THREADS, queue: e.REPLAY_QUEUE },
    sessionPurgeMs: e.SESSION_PURGE_MINUTES * 60_000,
    worldIdleMs: Math.round(e.WORLD_IDLE_MINUTES * 60_000),
    shutdownNoticeMs: Math.round(e.SHUTDOWN_NOTICE_SECONDS * 1000),
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from:
        e.MAIL_FROM ?? `BKE Online <no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost'}>`,
      publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
      pollMs: e.MAIL_POLL_MS,
      linkKey: e.LINK_KEY ? Buffer.from(e.LINK_KEY, 'base64url') : null,
    },
  };
}
