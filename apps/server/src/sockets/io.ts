/** Socket.IO on the HTTP server Fastify owns. */
import type { ClientToServerEvents, ServerToClientEvents } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { SERVER_VERSION } from '../http/health.ts';

export type Io = Server<ClientToServerEvents, ServerToClientEvents>;

export function attachSockets(app: FastifyInstance): Io {
  const io: Io = new Server(app.server, {
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    transports: ['websocket', 'polling'],
  });
  io.on('connection', (socket) => {
    app.log.debug({ socket: socket.id }, 'socket connected');
    socket.emit('hello', { serverVersion: SERVER_VERSION, serverTime: new Date().toISOString() });
  });
  return io;
}
