/**
 * Builds the HTTP + Socket.IO server around an open database. `main.ts` wires it to the environment;
 * tests build it directly on a throwaway database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { startBus } from './cluster/bus.ts';
import type { Database } from './db/database.ts';
import { registerAccount } from './http/account.ts';
import { type AuthLimits, registerAuth } from './http/auth.ts';
import { installErrorHandlers } from './http/errors.ts';
import { installCsrfGuard } from './http/guard.ts';
import { registerHealth } from './http/health.ts';
import { registerWeb } from './http/web.ts';
import { registerWorlds } from './http/worlds.ts';
import { moderationFromBus, playerRoom, socketNotifier } from './moderation/notify.ts';
import { type TurnNotifier, watchTurns } from './notify/turns.ts';
import { attachSockets, deliverStoredChat, type Io, type SocketLimits } from './sockets/io.ts';
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
}

export interface App {
  http: FastifyInstance;
  io: Io;
  hub: WorldHub;
  /** "Your move" webhooks: `remind()` sends the deadline reminders due (the app's timer calls it too). */
  turns: TurnNotifier;
  /** Stops accepting, lets in-flight requests finish, disconnects sockets. The database stays open. */
  close(): Promise<void>;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const http = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 256 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A hop count becomes proxy-addr's function form (Fastify's types take no number).
    trustProxy:
      typeof options.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(options.trustProxy)
        : (options.trustProxy ?? false),
  });
  installErrorHandlers(http);
  installCsrfGuard(http);
  registerHealth(http, options.db);
  const hub = new WorldHub(options.db, (msg, data) => http.log.warn(data ?? {}, msg));
  registerAuth(http, options.db, options.authLimits ?? { burst: 10, perSecond: 0.2 });
  registerWorlds(http, options.db, hub);
  await registerWeb(http, options.webDist);
  const io = attachSockets(http, options.db, hub, options.socketLimits);
  const notifications = options.notifications ?? {};
  registerAccount(http, options.db, { allowPrivate: notifications.allowPrivate ?? false });
  const turns = watchTurns(options.db, hub, {
    publicUrl: notifications.publicUrl ?? null,
    allowPrivate: notifications.allowPrivate ?? false,
    online: (worldId, playerId) =>
      (io.sockets.adapter.rooms.get(playerRoom(worldId, playerId))?.size ?? 0) > 0,
    log: (msg, data) => http.log.warn(data ?? {}, msg),
  });
  hub.bus = await listenToOtherProcesses(options.db, hub, io, (msg, data) => http.log.warn(data ?? {}, msg));
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
    close() {
      closing ??= (async () => {
        hub.stopDeadlines();
        turns.stop();
        await hub.bus.stop();
        io.disconnectSockets(true);
        await http.close();
      })();
      return closing;
    },
  };
}

/**
 * The other server processes on this database (cluster/bus.ts): what they change reaches this
 * process's sockets — world patches and status, chat, moderation notices and ended sockets.
 */
function listenToOtherProcesses(
  db: Database,
  hub: WorldHub,
  io: Io,
  log: (msg: string, data?: object) => void,
) {
  const local = socketNotifier(db, io);
  return startBus(db, {
    message(m) {
      if (m.k === 'world') hub.refresh(m.w);
      else if (m.k === 'chat')
        deliverStoredChat(io, db, m.w, m.id).catch((e) =>
          log('bus: chat delivery failed', { err: String(e) }),
        );
      else moderationFromBus(io, local, m);
    },
    gap: () => hub.refreshAll(),
    log,
  });
}
