/**
 * Entry point: read the environment, open and migrate the database, serve, and shut down cleanly.
 *
 * Everything it says goes through one pino logger: JSON lines, one object each, unless LOG_PRETTY
 * (a developer's terminal) — the start-up messages, Node's own warnings and an uncaught error too,
 * so that a log collector never meets a line of plain text.
 */
import { createRequire } from 'node:module';
import pino from 'pino';
import { buildApp } from './app.ts';
import { ensureAdmin } from './auth/users.ts';
import { serveEmbeddedBackups } from './backup/embedded-control.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { MigrationFailedError, migrateDatabase, pendingMigrations } from './db/migrate.ts';
import { registerModeration } from './http/moderation.ts';

/** A wrong setting is told in words, without a stack trace: as a JSON line unless on a terminal. */
function configOrExit() {
  try {
    return loadConfig();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (process.stdout.isTTY && process.env.NODE_ENV !== 'production') console.error(message);
    else pino().fatal(message);
    process.exit(1);
  }
}
const config = configOrExit();

/** pino-pretty is a development tool: without it (a production install) the logs stay JSON lines. */
function prettyTransport(): { target: string } | 'missing' | undefined {
  if (!config.logPretty) return undefined;
  try {
    return { target: createRequire(import.meta.url).resolve('pino-pretty') };
  } catch {
    return 'missing';
  }
}
const transport = prettyTransport();
const logger = pino({ level: config.logLevel, ...(typeof transport === 'object' ? { transport } : {}) });
if (transport === 'missing')
  logger.warn('LOG_PRETTY: pino-pretty is not installed here (a production install); logging JSON lines');
// Node prints its warnings to stderr as text by a listener of its own: it gives way to the log.
process.removeAllListeners('warning');
process.on('warning', (w) => logger.warn({ warning: { name: w.name, message: w.message } }, 'node warning'));
process.on('uncaughtException', (err) => {
  logger.fatal({ err }, 'uncaught exception; exiting');
  process.exit(1);
});

const db = await openDatabase(config.database);
let applied: string[] = [];
if (config.migrateOnStart) {
  try {
    applied = await migrateDatabase(db, { log: (m) => logger.info(m) });
  } catch (e) {
    if (!(e instanceof MigrationFailedError)) throw e;
    logger.fatal({ migration: e.migration }, e.message);
    await db.close();
    process.exit(1);
  }
} else {
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    logger.fatal(
      `The database lacks ${pending.length} migration(s) (${pending.join(', ')}): run \`npm run migrate\` first, or start with MIGRATE_ON_START=1.`,
    );
    await db.close();
    process.exit(1);
  }
}
const app = await buildApp({
  db,
  webDist: config.webDist,
  loggerInstance: logger,
  deadlinePollMs: config.deadlinePollMs,
  bots: config.bots,
  trustProxy: config.trustProxy,
  notifications: config.notifications,
  cluster: config.cluster,
  metricsPort: config.metrics,
  processMetrics: true,
  limits: config.limits,
  hashing: config.hashing,
  replays: config.replays,
  sessionPurgeMs: config.sessionPurgeMs,
  worldIdleMs: config.worldIdleMs,
  mail: config.mail,
});
// Moderation routes are added here rather than in buildApp, whose tests add them themselves.
registerModeration(app.http, db, app.hub, app.io);
if (!config.mail.smtpUrl)
  app.http.log.info('mail: SMTP_URL is not set, so mail is written to this log instead of sent');
if (applied.length > 0) app.http.log.info({ applied }, 'database migrated');
if (config.admin) {
  const made = await ensureAdmin(db, config.admin.username, config.admin.password);
  app.http.log.info({ username: config.admin.username, made }, 'admin account from the environment');
}

/**
 * A graceful stop. Readiness drops first; on SIGTERM (an orchestrator's stop) the process then goes
 * on serving for SHUTDOWN_NOTICE_SECONDS, until the load balancer's health checks have taken it
 * out of rotation, so that no request is sent to a process that has stopped listening. Then it
 * drains (app.ts `close`) and closes the database. SIGINT (Ctrl-C at a terminal) and a second
 * signal skip what is left of the wait.
 */
let cutShort: (() => void) | null = null;
/** The embedded database's backup port (backup/embedded-control.ts), once listening. */
let backups: { close(): Promise<void> } | null = null;
/** The longest a drain may take before the process exits anyway (world queues get 5 s of it). */
const DRAIN_MS = 15_000;
async function shutdown(signal: NodeJS.Signals) {
  if (cutShort) {
    cutShort();
    return;
  }
  const noticeMs = signal === 'SIGTERM' ? config.shutdownNoticeMs : 0;
  app.dropReadiness();
  app.http.log.info({ signal, noticeSeconds: noticeMs / 1000 }, 'shutting down: readiness answers 503');
  const notice = new Promise<void>((resolve) => {
    const wait = setTimeout(resolve, noticeMs);
    cutShort = () => {
      clearTimeout(wait);
      resolve();
    };
  });
  await notice;
  app.http.log.info('draining: sockets, requests in flight, world queues, mail being sent');
  const timer = setTimeout(() => {
    app.http.log.error('draining took too long; exiting');
    process.exit(1);
  }, DRAIN_MS);
  timer.unref();
  await backups?.close();
  await app.close();
  await db.close();
  app.http.log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

const address = await app.http.listen({ port: config.port, host: config.host });
if (config.database.kind === 'embedded' && !config.database.dataDir.startsWith('memory://'))
  backups = await serveEmbeddedBackups(db, config.database.dataDir, (msg, data) =>
    app.http.log.info(data ?? {}, msg),
  );
const port = new URL(address).port;
const where =
  config.database.kind === 'postgres'
    ? `PostgreSQL (DATABASE_URL${config.cluster.kind === 'none' ? '' : `, cluster adapter: ${config.cluster.kind}`})`
    : `embedded PostgreSQL in ${config.database.dataDir}`;
if (app.metricsPort !== null)
  app.http.log.info({ port: app.metricsPort, host: config.metrics?.host }, 'metrics at GET /metrics');
const running = `BKE Online is running at http://localhost:${port}  (database: ${where})`;
// Told whatever LOG_LEVEL says (test harnesses and scripts wait for it); a banner on a terminal.
if (config.logPretty) console.log(`\n${running}\n`);
else logger.child({}, { level: 'info' }).info({ port: Number(port) }, running);
