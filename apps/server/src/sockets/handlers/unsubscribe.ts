/** `world/unsubscribe`: a socket stops watching a world (and playing there from this socket). */
import { unsubscribeSchema } from '@bke/protocol';
import { handler } from '../context.ts';
import { playerRoom, worldRoom } from '../rooms.ts';

export const unsubscribe = handler({
  event: 'world/unsubscribe',
  schema: unsubscribeSchema,
  async handle(_ctx, socket, msg) {
    const player = socket.data.worlds.get(msg.worldId);
    await socket.leave(worldRoom(msg.worldId));
    if (player) await socket.leave(playerRoom(msg.worldId, player));
    socket.data.worlds.delete(msg.worldId);
    return { ok: true };
  },
});
