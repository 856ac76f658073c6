/**
 * What a socket may do in a world now: orders, chat and plan prices are checked against the session
 * and the seat in the database each time, so a seat's rights end with the seat and a session's with
 * the session, on every process, whatever the socket believed when it subscribed.
 */
import type { SessionUser } from '../auth/sessions.ts';
import { type Refusal, refuse, type SocketContext } from './context.ts';
import { playerRoom } from './rooms.ts';
import type { BkeSocket } from './typed-server.ts';

export interface Rights {
  user: SessionUser;
  playerId: string | null;
  mutedUntil: Date | null;
}

/**
 * The session and the seat as the database has them now: one query. Null when the session is gone
 * (logged out, expired, purged).
 */
async function rightsNow(ctx: SocketContext, sessionId: string, worldId: string, playerId: string | null) {
  const rows = await ctx.db.sql<{
    user_id: string;
    banned_until: Date | null;
    muted_until: Date | null;
    seat_user: string | null;
  }>(
    `SELECT u.id AS user_id, u.banned_until, u.muted_until,
            (SELECT ws.user_id FROM world_seats ws
              WHERE ws.world_id = $2::uuid AND ws.player_id = $3 AND ws.left_at IS NULL) AS seat_user
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [sessionId, worldId, playerId ?? ''],
    'bke_socket_rights',
  );
  return rows[0] ?? null;
}

/**
 * The account and seat `socket` may act as in `worldId` now, or the refusal to answer with. A
 * socket whose session ended is disconnected; one whose seat ended becomes a spectator there.
 */
export async function rights(
  ctx: SocketContext,
  socket: BkeSocket,
  worldId: string,
): Promise<Rights | Refusal> {
  const user = await ctx.admission.signedIn(socket);
  if (!user) return refuse(socket.data.pendingToken ? 'auth/unavailable' : 'auth/required');
  if (!socket.data.worlds.has(worldId)) return refuse('world/not_subscribed');
  const playerId = socket.data.worlds.get(worldId) ?? null;
  const now = await rightsNow(ctx, user.sessionId, worldId, playerId);
  // The answer leaves first, then the socket is closed.
  if (!now || now.user_id !== user.id) {
    setImmediate(() => socket.disconnect(true));
    return refuse('auth/required');
  }
  if (now.banned_until && now.banned_until.getTime() > Date.now()) {
    setImmediate(() => socket.disconnect(true));
    return refuse('auth/banned', { until: now.banned_until.toISOString() });
  }
  if (playerId && now.seat_user !== user.id) {
    socket.data.worlds.set(worldId, null);
    await socket.leave(playerRoom(worldId, playerId));
    return refuse('world/not_seated');
  }
  return { user, playerId, mutedUntil: now.muted_until };
}
