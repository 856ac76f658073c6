/**
 * `chat/send`: a line to the whole world, or privately to one seat from another. Muted accounts
 * are refused until their mute ends; lines are counted per account in the shared rate-limit
 * table, so every process and every socket of the account share the limit. The accounts that
 * block the sender do not receive the line (sockets/chat.ts).
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
    // One atomic count per line (not a count of the stored lines, which lines sent at once all passed).
    const taken = await ctx.chatLines.take(`account:${user.id}`);
    if (!taken.ok)
      return refuse('chat/too_fast', {
        limit: ctx.limits.chatPerMinute,
        retryAfterSeconds: taken.retryAfterSeconds,
      });
    const row = await db.prisma.chatMessage.create({
      data: { worldId: msg.worldId, fromUserId: user.id, fromPlayerId: from, toPlayerId: to, body: msg.body },
      include: { fromUser: { select: { username: true } } },
    });
    const message = toChat(row);
    const blockers = await db.prisma.chatBlock.findMany({
      where: { blockedUserId: user.id },
      select: { userId: true },
    });
    deliverChat(
      ctx.io,
      message,
      blockers.map((b) => b.userId),
    );
    return { ok: true, message };
  },
});
