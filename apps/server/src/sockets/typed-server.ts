/**
 * The Socket.IO server and sockets as this server types them: the events of @bke/protocol each
 * way, the messages between server processes, and what each socket keeps about its user. A file of
 * its own so that whoever sends through the server (chat, moderation, the cluster) need not import
 * the socket handlers.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@bke/protocol';
import type { Server, Socket } from 'socket.io';
import type { SessionUser } from '../auth/sessions.ts';
import type { ServerSideEvents } from '../cluster/messages.ts';

export type Io = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

interface SocketData {
  user: SessionUser | null;
  /** The session token read at the handshake, kept while its lookup failed for a passing reason. */
  pendingToken: string | null;
  /** The client's address (the forwarded one when TRUST_PROXY says so). */
  address: string;
  /** worldId → the player id this socket plays as there, or null when watching. */
  worlds: Map<string, string | null>;
}

export type BkeSocket = Socket<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;
