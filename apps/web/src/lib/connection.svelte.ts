/**
 * The one Socket.IO connection of the page and its status, as reactive state. Reconnection with
 * back-off is Socket.IO's; the status is shown so a player always knows whether the world is live.
 */
import type { ClientToServerEvents, Hello, ServerToClientEvents } from '@bke/protocol';
import { io, type Socket } from 'socket.io-client';

export type ConnectionStatus = 'connecting' | 'connected' | 'offline';

class Connection {
  status = $state<ConnectionStatus>('connecting');
  hello = $state<Hello | null>(null);
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;

  constructor() {
    this.socket = io({ transports: ['websocket', 'polling'], reconnectionDelayMax: 5000 });
    this.socket.on('connect', () => {
      this.status = 'connected';
    });
    this.socket.on('disconnect', () => {
      this.status = 'offline';
    });
    this.socket.io.on('reconnect_attempt', () => {
      this.status = 'connecting';
    });
    this.socket.on('hello', (hello) => {
      this.hello = hello;
    });
  }

  /** Reconnect so the server reads the new session cookie (after log in or log out). */
  reconnect(): void {
    this.socket.disconnect();
    this.socket.connect();
  }
}

export const connection = new Connection();
