/** @bke/server's surface for the benchmarks and tools in this repository. */

/** The one PostgreSQL driver (with its types), for the benchmarks' bare baselines. */
export { default as pg } from 'pg';
/** Re-exported so the benchmarks' bare baseline uses the very same Socket.IO. */
export { Server as SocketIoServer } from 'socket.io';
export { type App, buildApp } from './app.ts';
export { createSession } from './auth/sessions.ts';
export { type Database, openDatabase } from './db/database.ts';
export { migrateDatabase } from './db/migrate.ts';
export type { ModContext } from './moderation/context.ts';
export { listTurnStarts, rollbackWorld } from './moderation/rollback.ts';
export { diffViews } from './worlds/diff.ts';
export { WorldHub } from './worlds/hub.ts';
export { rebuildWorld } from './worlds/rebuild.ts';
export { appendOrders } from './worlds/store.ts';
