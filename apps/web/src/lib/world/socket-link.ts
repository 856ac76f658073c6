/**
 * The WorldLink over the page's Socket.IO connection. Event names are the protocol's; until
 * packages/protocol declares them (see its CHANGES.md, "Web → server requests") the socket is
 * used untyped here and only here.
 */
import type { Socket } from 'socket.io-client';
import { connection } from '../connection.svelte.ts';
import type { Order } from '../wire.ts';
import type { Ack, ChatMessage, FullView, Patch, WorldHandlers, WorldLink } from './link.ts';

const ACK_TIMEOUT_MS = 15_000;

function emitAck(socket: Socket, event: string, payload: unknown): Promise<Ack> {
  return new Promise((resolve) => {
    socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, (err: unknown, res: Ack | undefined) => {
      if (err)
        resolve({ ok: false, error: { code: 'net/timeout', message: 'The server did not answer in time.' } });
      else resolve(res ?? { ok: true });
    });
  });
}

export function socketLink(): WorldLink {
  const socket = connection.socket as unknown as Socket;
  return {
    watch: (worldId, version) => emitAck(socket, 'world:watch', { worldId, version }),
    unwatch: (worldId) => {
      socket.emit('world:unwatch', { worldId });
    },
    order: (worldId, version, order: Order) => emitAck(socket, 'world:order', { worldId, version, order }),
    chat: (worldId, to, text) => emitAck(socket, 'chat:send', { worldId, to, text }),
    subscribe(h: WorldHandlers) {
      const view = (v: FullView) => h.view(v);
      const patch = (p: Patch) => h.patch(p);
      const chat = (m: ChatMessage) => h.chat(m);
      const history = (r: { messages: ChatMessage[] }) => h.chatHistory(r.messages);
      socket.on('world:view', view);
      socket.on('world:patch', patch);
      socket.on('chat:message', chat);
      socket.on('chat:history', history);
      return () => {
        socket.off('world:view', view);
        socket.off('world:patch', patch);
        socket.off('chat:message', chat);
        socket.off('chat:history', history);
      };
    },
    onReconnect(cb) {
      socket.io.on('reconnect', cb);
      return () => socket.io.off('reconnect', cb);
    },
  };
}
