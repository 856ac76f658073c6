/**
 * Which seats a rollback takes, said before (to the moderator who asks for it) and after (to each
 * player unseated). The restored state holds the players who had joined when the turn began; a
 * seat whose player joined later has no horde there and is freed.
 */
import type { GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import type { ModContext } from './context.ts';

/** A seat a rollback frees, with the account to tell (none for a bot's). */
interface Unseated {
  playerId: string;
  userId: string | null;
}

/**
 * The seats still taken now, each with the log position of its player's latest join: a rollback to
 * a turn that began at or before that position frees the seat.
 */
export async function seatsJoinedAt(
  db: Database,
  worldId: string,
): Promise<{ playerId: string; joinedSeq: number }[]> {
  const rows = await db.sql<{ player_id: string; joined_seq: number }>(
    `SELECT s.player_id, max(o.seq)::int AS joined_seq
       FROM world_seats s
       JOIN world_orders o ON o.world_id = s.world_id
        AND o."order"->>'type' = 'join' AND o."order"->>'player' = s.player_id
      WHERE s.world_id = $1 AND s.left_at IS NULL
      GROUP BY s.player_id
      ORDER BY s.player_id`,
    [worldId],
  );
  return rows.map((r) => ({ playerId: r.player_id, joinedSeq: r.joined_seq }));
}

/**
 * Seats follow the restored state: a seat whose player had not joined yet is freed (and returned,
 * to be told); a seat whose leaving was undone comes back when its account and colour are still
 * free. Ready flags reset.
 */
export async function reseat(
  ctx: ModContext,
  rt: WorldRuntime,
  state: GameState,
  now: Date,
): Promise<Unseated[]> {
  const seats = await ctx.db.prisma.worldSeat.findMany({ where: { worldId: rt.id } });
  const present = new Map(state.players.map((p) => [p.id as string, p]));
  const active = seats.filter((s) => !s.leftAt && present.has(s.playerId));
  const unseated: Unseated[] = [];
  for (const s of seats) {
    const p = present.get(s.playerId);
    let leftAt = s.leftAt;
    if (!p && !s.leftAt) {
      leftAt = now;
      unseated.push({ playerId: s.playerId, userId: s.userId });
    }
    if (p && p.status !== 'left' && s.leftAt) {
      const clash = active.some((a) => a.userId === s.userId || a.colour === s.colour || a.seat === s.seat);
      if (!clash) {
        leftAt = null;
        active.push(s);
      }
    }
    await ctx.db.prisma.worldSeat.update({
      where: { worldId_playerId: { worldId: rt.id, playerId: s.playerId } },
      data: { leftAt, readyKey: null },
    });
  }
  return unseated;
}
