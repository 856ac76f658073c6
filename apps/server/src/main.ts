/** Entry point: read the environment, open and migrate the database, serve, and shut down cleanly. */
import { buildApp } from './app.ts';
import { ensureAdmin } from './auth/users.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateDatabase } from './db/migrate.ts';
import { registerModeration } from './http/moderation.ts';

const config = loadConfig();
const logger = {
  level: config.logLevel,
  ...(config.logPretty ? { transport: { target: 'pino-pretty' } } : {}),
};

const db = await openDatabase(config.database);
const applied = await migrateDatabase(db.adapterFactory);
const app = await buildApp({
  db,
  webDist: config.webDist,
  logger,
  deadlinePollMs: config.deadlinePollMs,
  trustProxy: config.trustProxy,
  notifications: config.notifications,
});
// Moderation routes (issue 8) are added here rather than in buildApp, whose tests add them themselves.
registerModeration(app.http, db, app.hub, app.io);
if (applied.length > 0) app.http.log.info({ applied }, 'database migrated');
if (config.admin) {
  const made = await ensureAdmin(db, config.admin.username, config.admin.password);
  app.http.log.info({ username: config.admin.username, made }, 'admin account from the environment');
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.http.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => {
    app.http.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, 15_000);
  timer.unref();
  await app.close();
  await db.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

const address = await app.http.listen({ port: config.port, host: config.host });
const port = new URL(address).port;
const where =
  config.database.kind === 'postgres'
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded PostgreSQL in ${config.database.dataDir}`;
console.log(`\nBKE Online is running at http://localhost:${port}  (database: ${where})\n`);
