/** The WorldLink over the page's Socket.IO connection, typed by packages/protocol. */
import type { Ack } from '@bke/protocol';
import { connection } from '../connection.svelte.ts';
import type { Answer, WorldHandlers, WorldLink } from './link.ts';

const ACK_TIMEOUT_MS = 15_000;
const timeout = { ok: false, error: { code: 'net/timeout' } } as const satisfies Answer<never>;

/** Wait for an acknowledgement, or answer net/timeout when the server stays silent. */
function acked<T>(send: (reply: (r: Ack<T>) => void) => void): Promise<Answer<T>> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(timeout), ACK_TIMEOUT_MS);
    send((r) => {
      clearTimeout(t);
      resolve(r);
    });
  });
}

export function socketLink(): WorldLink {
  const socket = connection.socket;
  return {
    subscribe: (worldId, version) =>
      acked((reply) =>
        socket.emit('world/subscribe', version === null ? { worldId } : { worldId, version }, reply),
      ),
    unsubscribe: (worldId) => {
      socket.emit('world/unsubscribe', { worldId }, () => {});
    },
    order: (worldId, version, order) =>
      acked((reply) => socket.emit('world/order', { worldId, version, order }, reply)),
    chat: (worldId, to, body) => acked((reply) => socket.emit('chat/send', { worldId, to, body }, reply)),
    planCost: (worldId, plan) =>
      acked((reply) => socket.emit('world/planCost', { worldId, plan: { ...plan } }, reply)),
    listen(h: WorldHandlers) {
      socket.on('world/view', h.view);
      socket.on('world/patch', h.patch);
      socket.on('world/status', h.status);
      socket.on('chat/message', h.chat);
      socket.on('chat/deleted', h.chatDeleted);
      return () => {
        socket.off('world/view', h.view);
        socket.off('world/patch', h.patch);
        socket.off('world/status', h.status);
        socket.off('chat/message', h.chat);
        socket.off('chat/deleted', h.chatDeleted);
      };
    },
    onReconnect(cb) {
      // A socket signed in late (its session could not be checked at first) follows again too: it
      // may hold a seat now.
      socket.on('connect', cb);
      connection.reauthenticated.push(cb);
      return () => {
        socket.off('connect', cb);
        const i = connection.reauthenticated.indexOf(cb);
        if (i >= 0) connection.reauthenticated.splice(i, 1);
      };
    },
  };
}
