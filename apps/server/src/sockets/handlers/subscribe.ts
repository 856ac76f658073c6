/**
 * `world/subscribe`: a socket starts watching a world, from its seat when the account holds one,
 * and is given what it lacks — the patches since the version it holds when few, else a whole view
 * — with the status, its legal orders, the chat it may read and the recent events.
 */
import type { PlayerId } from '@bke/engine';
import {
  type Ack,
  type ChatMessage,
  MAX_PATCH_GAP,
  RECENT_EVENTS,
  type SubscribeResult,
  subscribeSchema,
} from '@bke/protocol';
import type { Database } from '../../db/database.ts';
import { recentEvents } from '../../worlds/store.ts';
import { toChat } from '../chat.ts';
import { handler, refuse } from '../context.ts';
import { playerRoom, worldRoom } from '../rooms.ts';
import { catchUpPatches } from '../viewer-messages.ts';

export const subscribe = handler({
  event: 'world/subscribe',
  schema: subscribeSchema,
  async handle(ctx, socket, msg) {
    const { hub } = ctx;
    const user = await ctx.admission.signedIn(socket);
    const rt = await hub.get(msg.worldId);
    if (!rt) return refuse('world/not_found');
    const seat = user ? await hub.activeSeat(msg.worldId, user.id) : null;
    const playerId = (seat?.playerId ?? null) as PlayerId | null;
    // Inside the queue: no patch can slip between the catch-up we send and joining the room.
    return rt.run(async (): Promise<Ack<SubscribeResult>> => {
      // Another process may have moved the world on since this one last heard (a client that
      // comes here after its process died must not be handed an older version than it held).
      await rt.catchUp();
      const former = socket.data.worlds.get(rt.id);
      if (former && former !== playerId) await socket.leave(playerRoom(rt.id, former));
      await socket.join(worldRoom(rt.id));
      if (playerId) await socket.join(playerRoom(rt.id, playerId));
      socket.data.worlds.set(rt.id, playerId);
      const v = msg.version;
      const caughtUp =
        v !== undefined && v <= rt.version && rt.version - v <= MAX_PATCH_GAP
          ? await catchUpPatches(ctx.db, hub, rt, v, playerId)
          : undefined;
      const sync: SubscribeResult['sync'] = caughtUp
        ? { kind: 'patches', patches: caughtUp }
        : { kind: 'view', version: rt.version, view: hub.engine.view(rt.state, playerId) };
      return {
        ok: true,
        role: playerId ? 'player' : 'spectator',
        playerId,
        sync,
        status: await ctx.status.of(rt),
        legal: playerId ? ctx.legal.at(rt, rt.state, playerId) : [],
        chat: await chatHistory(ctx.db, rt.id, playerId),
        recent: await recentEvents(ctx.db, rt.id, rt.version, rt.state.turn, RECENT_EVENTS, (events) =>
          hub.engine.eventsFor(events, playerId),
        ),
      };
    });
  },
});

/** The last 100 lines a viewer may read: the world's, and a seat's own private lines. */
async function chatHistory(db: Database, worldId: string, playerId: string | null): Promise<ChatMessage[]> {
  const rows = await db.prisma.chatMessage.findMany({
    where: {
      worldId,
      deletedAt: null,
      OR: [{ toPlayerId: null }, ...(playerId ? [{ toPlayerId: playerId }, { fromPlayerId: playerId }] : [])],
    },
    orderBy: { id: 'desc' },
    take: 100,
    include: { fromUser: { select: { username: true } } },
  });
  return rows.reverse().map(toChat);
}
