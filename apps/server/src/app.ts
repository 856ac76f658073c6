/**
 * Builds the HTTP + Socket.IO server around an open database. `main.ts` wires it to the environment;
 * tests build it directly on a throwaway database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database } from './db/database.ts';
import { installErrorHandlers } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { registerWeb } from './http/web.ts';
import { attachSockets, type Io } from './sockets/io.ts';

export interface AppOptions {
  db: Database;
  webDist: string;
  logger?: boolean | { level: string; transport?: { target: string } };
}

export interface App {
  http: FastifyInstance;
  io: Io;
  /** Stops accepting, lets in-flight requests finish, disconnects sockets. The database stays open. */
  close(): Promise<void>;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const http = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 256 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  installErrorHandlers(http);
  registerHealth(http, options.db);
  await registerWeb(http, options.webDist);
  const io = attachSockets(http);
  let closing: Promise<void> | undefined;
  return {
    http,
    io,
    close() {
      closing ??= (async () => {
        io.disconnectSockets(true);
        await http.close();
      })();
      return closing;
    },
  };
}
