/**
 * `chat/send`: a line to the whole world, or privately to one seat from another. Muted accounts
 * are refused until their mute ends; lines are counted per account in the database, so every
 * process and every socket of the account share the limit.
 */
import { chatSendSchema } from '@bke/protocol';
import { deliverChat, toChat } from '../chat.ts';
import { handler, refuse } from '../context.ts';
import { rights } from '../rights.ts';

export const chatSend = handler({
  event: 'chat/send',
  schema: chatSendSchema,
  async handle(ctx, socket, msg) {
    const { db } = ctx;
    const now = await rights(ctx, socket, msg.worldId);
    if ('ok' in now) return now;
    const { user, playerId: from, mutedUntil } = now;
    if (mutedUntil && mutedUntil.getTime() > Date.now())
      return refuse('chat/muted', { until: mutedUntil.toISOString() });
    const to = msg.to ?? null;
    if (to !== null) {
      if (!from) return refuse('auth/forbidden', { reason: 'spectator' });
      const seats = await ctx.hub.seats(msg.worldId);
      if (!seats.some((s) => s.playerId === to && !s.leftAt) || to === from)
        return refuse('chat/unknown_recipient', { to });
    }
    const [recent] = await db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM chat_messages
        WHERE from_user_id = $1::uuid AND created_at > now() - interval '1 minute'`,
      [user.id],
      'bke_chat_recent',
    );
    if ((recent?.n ?? 0) >= ctx.limits.chatPerMinute)
      return refuse('chat/too_fast', { limit: ctx.limits.chatPerMinute });
    const row = await db.prisma.chatMessage.create({
      data: { worldId: msg.worldId, fromUserId: user.id, fromPlayerId: from, toPlayerId: to, body: msg.body },
      include: { fromUser: { select: { username: true } } },
    });
    const message = toChat(row);
    deliverChat(ctx.io, message);
    return { ok: true, message };
  },
});
