/**
 * Builds the HTTP + Socket.IO server around an open database. `main.ts` wires it to the environment;
 * tests build it directly on a throwaway database.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { purgeOldDevices } from './auth/devices.ts';
import { configureHashing, type HashingSettings, hashingStats } from './auth/hashing-pool.ts';
import { purgeOldFailures } from './auth/login-throttle.ts';
import { type EndedSession, purgeExpiredSessions } from './auth/sessions.ts';
import { BotDriver, type BotSettings, DEFAULT_BOT_SETTINGS } from './bots/driver.ts';
import { type ClusterLink, installClusterAdapter } from './cluster/adapter.ts';
import { linkChatCatchUp } from './cluster/chat-catch-up.ts';
import { linkPresence, type Presence } from './cluster/presence.ts';
import { linkWorldChanges } from './cluster/world-changes.ts';
import { type ClusterConfig, DEFAULT_WORLD_IDLE_MS } from './config.ts';
import type { Database } from './db/database.ts';
import { watchDatabase } from './db/database-watch.ts';
import { failingLoop, tickOf } from './db/failing-loop.ts';
import { registerAccount } from './http/account.ts';
import { registerAccountExport } from './http/account-export.ts';
import { registerAuth } from './http/auth.ts';
import { registerBotAccounts } from './http/bot-accounts.ts';
import { registerChatBlocks } from './http/chat-blocks.ts';
import { answerClientError, answerFrameworkError, installErrorHandlers } from './http/errors.ts';
import { registerGameRecord } from './http/game-record.ts';
import { installCsrfGuard, installTextGuard } from './http/guard.ts';
import { installSecurityHeaders } from './http/headers.ts';
import { registerHealth, SERVER_VERSION } from './http/health.ts';
import { registerHistory } from './http/history.ts';
import { registerMailAccount } from './http/mail-account.ts';
import { instrumentHttp, registerMetrics, serveMetrics } from './http/metrics.ts';
import { privateWritesLimit, registerNotes } from './http/notes.ts';
import { proxyTrust } from './http/origin.ts';
import { registerPasswordReset } from './http/password-reset.ts';
import { registerProfile } from './http/profile.ts';
import { registerProfilePrivacy } from './http/profile-privacy.ts';
import { registerRatings } from './http/ratings.ts';
import { registerReplay } from './http/replay.ts';
import { type RouteEntry, recordRoutes } from './http/route-table.ts';
import { registerRules } from './http/rules.ts';
import { registerSeatPlay } from './http/seat-play.ts';
import { registerSinceLast } from './http/since-last.ts';
import { registerUnsubscribe } from './http/unsubscribe.ts';
import { registerWeb } from './http/web.ts';
import { registerWorldAccess } from './http/world-access.ts';
import { registerWorlds } from './http/worlds.ts';
import { type LimitOverrides, type Limits, limitsWith } from './limits.ts';
import { siteLinkKey } from './mail/link-key.ts';
import { type Mailer, makeMailer } from './mail/mailer.ts';
import { type MailSender, mailSender, outboxBacklog, purgeOldMail } from './mail/outbox.ts';
import { purgeOldTokens } from './mail/tokens.ts';
import { mailTransport } from './mail/transport.ts';
import { HIDDEN_WORLDS, Metrics } from './metrics.ts';
import { type TurnNotifier, watchTurns } from './notify/turns.ts';
import { MadeUpLinkBudget } from './rate-limit/made-up-links.ts';
import { tellDatabaseChanges } from './sockets/database-notice.ts';
import { attachSockets, endSessionSockets, openSockets, watchedHere } from './sockets/io.ts';
import type { Io } from './sockets/typed-server.ts';
import { WorldHub } from './worlds/hub.ts';
import { configureReplays, type ReplaySettings, replayStats } from './worlds/replay-pool.ts';

/** How long a stopping process spends storing the digests of the worlds it holds. */
const STORE_DIGESTS_MS = 5000;

export interface AppOptions {
  db: Database;
  webDist: string;
  logger?: boolean | { level: string; transport?: { target: string } };
  /** A logger of the caller's own (main.ts logs its start-up through it too); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** How often this process looks for due deadlines (ms); 0 turns the deadline runner off. */
  deadlinePollMs?: number;
  /** What one address or account may do (limits.ts); the defaults for anything not given. */
  limits?: LimitOverrides;
  /** The password-hashing threads and their queue (auth/hashing-pool.ts); unset: as they are. */
  hashing?: HashingSettings;
  /** The threads that replay past turns and their queue (worlds/replay-pool.ts); unset: as they are. */
  replays?: ReplaySettings;
  /** How often expired sessions are deleted and their sockets ended (ms); 0: never (tests call it). */
  sessionPurgeMs?: number;
  /** Turn notifications to players' webhooks: the site's address for links; private targets (tests). */
  notifications?: { publicUrl?: string | null; allowPrivate?: boolean };
  /** Fastify's `trustProxy`: which forwarded-for hops give the client's address (config.ts). */
  trustProxy?: boolean | number | string;
  /** How this process reaches the others on its database (cluster/adapter.ts); none by default. */
  cluster?: ClusterConfig;
  /** How often a clustered process compares the worlds it holds with the database (ms). */
  sweepMs?: number;
  /**
   * A world nobody on this process watches or uses for this long (ms) is unloaded from memory
   * (worlds/loaded-worlds.ts `unloadIdle`); 0: never. By default 10 minutes when the deadline runner is on, else
   * never (tests unload by hand).
   */
  worldIdleMs?: number;
  /** A port of their own for the Prometheus metrics (http/metrics.ts). */
  metricsPort?: { port: number; host: string } | null;
  /** Node's process metrics too (once per process: main.ts). */
  processMetrics?: boolean;
  /** Mail (mail/): SMTP or the log, the address links point at, how often to look for mail to send. */
  mail?: {
    smtpUrl?: string | null;
    from?: string;
    /** Links in mail point here (else `notifications.publicUrl`, else localhost). */
    publicUrl?: string;
    pollMs?: number;
    /** The first retry's wait (ms); doubles with each attempt. */
    retryBaseMs?: number;
    /** The key that signs mailed links (LINK_KEY), else the database's (mail/link-key.ts). */
    linkKey?: Buffer | null;
  };
  /** How bots think and pace their orders (bots/driver.ts); `false`: no bot acts in this process. */
  bots?: Partial<BotSettings> | false;
}

export interface App {
  http: FastifyInstance;
  io: Io;
  hub: WorldHub;
  /** The bots at play on this process's worlds (null when bots are off here). */
  bots: BotDriver | null;
  /** "Your move" webhooks: `remind()` sends the deadline reminders due (the app's timer calls it too). */
  turns: TurnNotifier;
  metrics: Metrics;
  /** Every route the server answers, as registered (http/route-table.ts); routes added later too. */
  routes: readonly RouteEntry[];
  /** The outbox sender: `runOnce()` sends what is due now (its timer does too). */
  mail: MailSender;
  mailer: Mailer;
  cluster: ClusterLink;
  /** Whether a player has a page open on a world, on any process (cluster/presence.ts). */
  online: Presence;
  /** The metrics port when one was asked for (0 asks for a free one). */
  metricsPort: number | null;
  /**
   * Deletes expired sessions and ends their sockets, and forgets browsers unused for a year and
   * log-in failures a day old (the app's timer calls it too). Returns how many sessions ended.
   */
  purgeSessions(): Promise<number>;
  /**
   * The first step of a graceful stop: readiness answers 503 from now on, so that a load balancer
   * sends this process nothing new, while everything else is served as before (`close` does it too).
   */
  dropReadiness(): void;
  /**
   * Drains and stops: stops the timers and the bots, lets the mail being sent go out, disconnects
   * this process's sockets (their players reconnect to another process), lets in-flight requests
   * finish while refusing new ones, lets every world's queue run out and stores the lobby's digests.
   * The database stays open.
   */
  close(): Promise<void>;
}

/** The largest request body the server reads (bytes); a larger one answers http/too_large. */
const HTTP_BODY_LIMIT = 256 * 1024;

/** The outbox's sender and the mailer that queues into it, with the site's link key. */
async function mailFor(
  options: AppOptions,
  http: FastifyInstance,
  metrics: Metrics,
  limits: Limits,
  publicUrl: string | null,
  log: (msg: string, data?: object) => void,
): Promise<{ mail: MailSender; mailer: Mailer }> {
  const mailOptions = options.mail ?? {};
  const transport = mailTransport(
    {
      smtpUrl: mailOptions.smtpUrl ?? null,
      from: mailOptions.from ?? 'BKE Online <no-reply@localhost>',
    },
    (msg, data) => http.log.info(data, msg),
  );
  const mail = mailSender(options.db, transport, {
    retryBaseMs: mailOptions.retryBaseMs,
    log,
    onSent: (kind) => metrics.mailSent.inc({ kind }),
    onFailed: (kind, then) => metrics.mailFailed.inc({ kind, then }),
  });
  const mailer = makeMailer(
    mailOptions.publicUrl ?? publicUrl ?? 'http://localhost:3000',
    () => mail.kick(),
    limits.mail,
    await siteLinkKey(options.db, mailOptions.linkKey ?? null),
  );
  return { mail, mailer };
}

/** The routes of accounts, mail links, worlds, rules, profiles, ratings and past turns. */
function registerRoutes(
  http: FastifyInstance,
  db: Database,
  hub: WorldHub,
  limits: Limits,
  mailer: Mailer,
  endSessions: (ended: EndedSession[]) => void,
  https: boolean,
): void {
  registerAuth(http, db, endSessions, limits, { secureAlways: https }, mailer);
  // One budget of made-up links per address for both link routes (rate-limit/made-up-links.ts).
  const madeUpLinks = new MadeUpLinkBudget(limits.madeUpLinksPerAddress);
  registerPasswordReset(http, db, mailer, limits, endSessions, madeUpLinks);
  registerMailAccount(http, db, mailer, limits, madeUpLinks);
  registerUnsubscribe(http, db, mailer.links);
  registerWorlds(http, db, hub, limits);
  registerWorldAccess(http, db, hub);
  registerRules(http);
  registerProfile(http, db);
  registerProfilePrivacy(http, db);
  registerRatings(http, db);
  registerReplay(http, db, limits);
  registerGameRecord(http, db, hub, limits);
  registerSinceLast(http, db, hub, limits);
  registerHistory(http, db, hub, limits);
  registerBotAccounts(http, db, endSessions);
  registerSeatPlay(http, db, hub, limits);
  const privateWrites = privateWritesLimit(http, db, limits);
  registerNotes(http, db, privateWrites);
  registerChatBlocks(http, db, privateWrites);
  registerAccountExport(http, db);
}

/** Before any route: cookies, security headers, the cross-site and control-character guards. */
async function installGuards(http: FastifyInstance, https: boolean): Promise<void> {
  // Cookies are parsed by @fastify/cookie (a malformed %-escape is left as it is, never thrown).
  await http.register(fastifyCookie);
  await installSecurityHeaders(http, { https });
  installCsrfGuard(http);
  installTextGuard(http);
}

/** The bots of this process's worlds, watching for seats to play (none when bots are off here). */
function botsFor(options: AppOptions, hub: WorldHub, log: (msg: string, data?: object) => void) {
  if (options.bots === false) return null;
  const bots = new BotDriver(options.db, hub, { ...DEFAULT_BOT_SETTINGS, ...options.bots }, log);
  bots.watch();
  return bots;
}

/** On PostgreSQL, the watch on its connection, told to every socket; the embedded one has none to lose. */
function databaseWatch(db: Database, http: FastifyInstance, io: Io) {
  if (db.kind !== 'postgres') return null;
  const database = watchDatabase(db, (level, msg, data) => http.log[level](data ?? {}, msg));
  tellDatabaseChanges(io, database);
  return database;
}

/**
 * The process's timers: deadlines and reminders (when this process runs deadlines), the mail
 * sender, unloading idle worlds and the session purge, whose timer is returned for the stop.
 */
function startTimers(
  options: AppOptions,
  parts: {
    hub: WorldHub;
    turns: TurnNotifier;
    mail: MailSender;
    purgeSessions: () => Promise<number>;
    log: (msg: string, data?: object) => void;
  },
): NodeJS.Timeout | null {
  const { hub, turns } = parts;
  const poll = options.deadlinePollMs ?? 1000;
  if (poll > 0) {
    hub.startDeadlines(poll);
    turns.start(Math.max(poll, 15_000));
  }
  parts.mail.start(options.mail?.pollMs ?? 5000);
  hub.startUnloading(options.worldIdleMs ?? (poll > 0 ? DEFAULT_WORLD_IDLE_MS : 0));
  const purgeMs = options.sessionPurgeMs ?? (poll > 0 ? 10 * 60_000 : 0);
  // While the database is away every purge fails alike: told once, and once when back.
  const purges = failingLoop('session purge', parts.log);
  const purgeTimer =
    purgeMs > 0 ? setInterval(() => void tickOf(purges, parts.purgeSessions), purgeMs) : null;
  purgeTimer?.unref();
  return purgeTimer;
}

/** What the gauges read when scraped: queues (public worlds by id), worlds, sockets, pool, outbox. */
function watchGauges(metrics: Metrics, db: Database, hub: WorldHub, io: Io): void {
  hub.events.on('deadlineFired', () => metrics.deadlinesFired.inc());
  hub.events.on('unloaded', () => metrics.worldsUnloaded.inc());
  metrics.watch({
    queues: async () => {
      const held = hub.loaded();
      const shown = await db.prisma.world.findMany({
        where: { id: { in: held.map((rt) => rt.id) }, access: 'public' },
        select: { id: true },
      });
      const open = new Set(shown.map((w) => w.id));
      return held.map((rt) => ({ worldId: open.has(rt.id) ? rt.id : HIDDEN_WORLDS, depth: rt.pending }));
    },
    worlds: () => hub.loaded().length,
    sockets: () => io.of('/').sockets.size,
    pool: () => {
      const p = db.pool;
      return p
        ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max: p.options.max ?? 10 }
        : null;
    },
    outbox: () => outboxBacklog(db),
    processes: () => io.of('/').adapter.serverCount(),
    hashing: hashingStats,
    replays: replayStats,
  });
}

/**
 * Deletes expired sessions and ends their sockets, then forgets old browsers, log-in failures,
 * mail tokens and sent mail; returns how many sessions ended.
 */
async function purgeExpired(db: Database, endSessions: (ended: EndedSession[]) => void): Promise<number> {
  const ended = await purgeExpiredSessions(db);
  endSessions(ended);
  await purgeOldDevices(db);
  await purgeOldFailures(db);
  await purgeOldTokens(db);
  await purgeOldMail(db);
  return ended.length;
}

/**
 * The stop after the timers: the bots, the notices and the loops end, the mail being sent goes out,
 * this process's sockets and requests end, the lobby's digests are stored, the adapter closes.
 */
async function drain(parts: {
  http: FastifyInstance;
  io: Io;
  hub: WorldHub;
  bots: BotDriver | null;
  turns: TurnNotifier;
  mail: MailSender;
  cluster: ClusterLink;
  loops: readonly ({ stop(): void } | null)[];
  scrape: { close(): Promise<void> } | null;
}): Promise<void> {
  const { http, io, hub, cluster } = parts;
  hub.stopDeadlines();
  hub.stopUnloading();
  parts.bots?.stop();
  parts.turns.stop();
  for (const loop of parts.loops) loop?.stop();
  await parts.mail.stop();
  // This process's sockets only: with a cluster adapter `io.disconnectSockets` ends everyone's.
  io.local.disconnectSockets(true);
  await http.close();
  // Nothing takes orders any more: what the lobby shows of the worlds held here is stored,
  // for as long as the stop can spare (a world whose queue is not done by then is loaded
  // by the next process's lobby, as before).
  await Promise.race([hub.storeDigests(), new Promise((r) => setTimeout(r, STORE_DIGESTS_MS).unref())]);
  // The adapter says goodbye to the other processes and lets go of its connection.
  io.of('/').adapter.close();
  await cluster.close();
  await parts.scrape?.close();
}

/** The Fastify instance: its logger, body limit, error shapes and the proxies it believes. */
function fastifyFor(options: AppOptions, trust: ReturnType<typeof proxyTrust>): FastifyInstance {
  return Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    bodyLimit: HTTP_BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // The router's own refusals (a URL it cannot decode) and requests Node cannot parse (bad
    // framing, over-long lines and headers) answer in the server's error shape too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // One function for Fastify (client address, host, protocol) and the sockets' origin check.
    trustProxy: trust,
  });
}

export async function buildApp(options: AppOptions): Promise<App> {
  const trust = proxyTrust(options.trustProxy ?? false);
  const limits = limitsWith(options.limits);
  if (options.hashing) configureHashing(options.hashing);
  if (options.replays) configureReplays(options.replays);
  const publicUrl = options.notifications?.publicUrl ?? null;
  const https = publicUrl?.startsWith('https:') ?? false;
  const http = fastifyFor(options, trust);
  const log = (msg: string, data?: object) => http.log.warn(data ?? {}, msg);
  let stopping = false;
  installErrorHandlers(http);
  const routes = recordRoutes(http);
  await installGuards(http, https);
  registerHealth(http, options.db, () => stopping);
  const metrics = new Metrics().withBuild(SERVER_VERSION);
  if (options.processMetrics) metrics.withProcessMetrics();
  instrumentHttp(http, metrics);
  registerMetrics(http, options.db, metrics);
  await registerWeb(http, options.webDist);
  const io = openSockets(http, trust);
  const hub = new WorldHub(options.db, log, limits, { watched: (worldId) => watchedHere(io, worldId) });
  const linkSocketLimits = attachSockets(http, io, options.db, hub, { limits, trust, metrics });
  // A deleted session's sockets end on every process: the adapter spans the session's room.
  const endSessions = (ended: EndedSession[]) => {
    for (const e of ended) endSessionSockets(io, e.sessionId);
  };
  const { mail, mailer } = await mailFor(options, http, metrics, limits, publicUrl, log);
  registerRoutes(http, options.db, hub, limits, mailer, endSessions, https);
  const bots = botsFor(options, hub, log);
  const cluster = await installClusterAdapter(io, options.db, options.cluster ?? { kind: 'none' }, log);
  const changes = linkWorldChanges(io, hub, cluster, log, options.sweepMs);
  linkChatCatchUp(io, options.db, cluster, log);
  const sharing = { stop: linkSocketLimits(cluster) };
  const database = databaseWatch(options.db, http, io);
  const presence = linkPresence(io, cluster);
  const notifications = options.notifications ?? {};
  registerAccount(http, options.db, { allowPrivate: notifications.allowPrivate ?? false });
  const turns = watchTurns(options.db, hub, {
    publicUrl: notifications.publicUrl ?? null,
    allowPrivate: notifications.allowPrivate ?? false,
    mailer,
    online: presence,
    log,
  });
  watchGauges(metrics, options.db, hub, io);
  const scrape = options.metricsPort ? await serveMetrics(metrics, options.metricsPort) : null;
  const purgeSessions = () => purgeExpired(options.db, endSessions);
  const purgeTimer = startTimers(options, { hub, turns, mail, purgeSessions, log });
  let closing: Promise<void> | undefined;
  return {
    http,
    io,
    hub,
    bots,
    turns,
    metrics,
    routes,
    mail,
    mailer,
    cluster,
    online: presence,
    metricsPort: scrape?.port ?? null,
    purgeSessions,
    dropReadiness() {
      stopping = true;
    },
    close() {
      stopping = true;
      if (purgeTimer) clearInterval(purgeTimer);
      closing ??= drain({
        http,
        io,
        hub,
        bots,
        turns,
        mail,
        cluster,
        loops: [changes, database, sharing],
        scrape,
      });
      return closing;
    },
  };
}
