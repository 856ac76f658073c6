/**
 * The one Socket.IO connection of the page and its status, as reactive state. Reconnection with
 * back-off is Socket.IO's; the status is shown so a player always knows whether the world is live.
 */
import type { ClientToServerEvents, Hello, ServerToClientEvents } from '@bke/protocol';
import { io, type Socket } from 'socket.io-client';

export type ConnectionStatus = 'connecting' | 'connected' | 'offline';
/** The server's database as its last `server/database` said: `back` until the next change. */
type DatabaseStatus = 'up' | 'down' | 'back';

/** After the server ended the connection (a logout elsewhere, a ban, a seat given up): come back after this. */
const COME_BACK_MS = 250;
/**
 * A page's first connection is not announced until it has taken this long: the page shows at once,
 * and a connection made on a busy server within a few seconds needs no word (nothing waits on it
 * but the live parts, which say "loading" themselves).
 */
const FIRST_CONNECT_PATIENCE_MS = 4000;

class Connection {
  status = $state<ConnectionStatus>('connecting');
  hello = $state<Hello | null>(null);
  database = $state<DatabaseStatus>('up');
  /** True once the status is worth a word: after a first connection, or when it takes long. */
  announced = $state(false);
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** Called when the server ended the connection: the account may have changed (session.svelte.ts). */
  readonly ended: (() => void)[] = [];
  /** Called when a session the server could not check at first (its database was away) is signed in. */
  readonly reauthenticated: (() => void)[] = [];

  constructor() {
    this.socket = io({ transports: ['websocket', 'polling'], reconnectionDelayMax: 5000 });
    const patience = setTimeout(() => {
      this.announced = true;
    }, FIRST_CONNECT_PATIENCE_MS);
    this.socket.on('connect', () => {
      this.status = 'connected';
      this.announced = true;
      clearTimeout(patience);
    });
    this.socket.on('disconnect', (reason) => {
      this.status = 'offline';
      // Socket.IO does not reconnect by itself when the server ended the connection: the session
      // or the seat it played ended. Come back as whoever the cookie now says.
      if (reason === 'io server disconnect') {
        for (const f of this.ended) f();
        setTimeout(() => this.socket.connect(), COME_BACK_MS);
      }
    });
    this.socket.io.on('reconnect_attempt', () => {
      this.status = 'connecting';
    });
    this.socket.on('server/database', ({ up }) => {
      this.database = up ? (this.database === 'down' ? 'back' : 'up') : 'down';
    });
    this.socket.on('hello', (hello) => {
      const was = this.hello;
      this.hello = hello;
      if (was?.auth === 'unavailable' && !hello.auth) for (const f of this.reauthenticated) f();
    });
  }

  /** "Try again now": skips what is left of Socket.IO's back-off wait. */
  retry(): void {
    if (this.socket.connected) return;
    this.status = 'connecting';
    this.socket.disconnect();
    this.socket.connect();
  }

  /** Reconnect so the server reads the new session cookie (after log in or log out). */
  reconnect(): void {
    this.socket.disconnect();
    this.socket.connect();
  }
}

export const connection = new Connection();
