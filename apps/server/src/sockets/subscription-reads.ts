/**
 * What a subscribe must read from the database, in one statement (one round trip per socket, which
 * a reconnect storm makes by the thousand): whether the account may see the world (worlds/access.ts),
 * its seat, the world's ready flags, the log's version (is this process behind?) and the ids of
 * the chat lines the viewer may read (not those of accounts it blocks). Everything else comes from the world held in memory.
 */
import type { Database } from '../db/database.ts';
import { seesEveryWorld, visibleToSql } from '../worlds/access.ts';
import { LOG_VERSION } from '../worlds/store.ts';

/** How many of the latest chat lines a viewer is given on subscribing. */
const CHAT_TAIL = 100;

export interface SubscriptionReads {
  spectators: boolean;
  /** The account's active seat (null: none, or nobody signed in). */
  playerId: string | null;
  /** The seats still in the world whose ready flag is `readyKey`'s. */
  ready: (stepKey: string) => string[];
  /** The log's version: later than the process's copy when another process moved the world on. */
  version: number;
  /** The chat lines the viewer may read, newest first. */
  chatIds: string[];
}

/**
 * The reads of a subscribe of `user` to `worldId`; null when the world does not exist or the
 * account may not see it (then it is, for them, no world).
 */
export async function readSubscription(
  db: Database,
  worldId: string,
  user: { id: string; role: string } | null,
): Promise<SubscriptionReads | null> {
  const [row] = await db.sql<{
    spectators: boolean;
    player_id: string | null;
    seats: { p: string; r: string | null }[];
    version: number;
    chat_ids: string[];
  }>(
    `WITH seat AS (
       SELECT player_id FROM world_seats
        WHERE world_id = $1::uuid AND user_id = $2::uuid AND left_at IS NULL
        ORDER BY joined_at LIMIT 1
     )
     SELECT w.spectators, (SELECT player_id FROM seat) AS player_id,
            coalesce((SELECT json_agg(json_build_object('p', s.player_id, 'r', s.ready_key))
                        FROM world_seats s WHERE s.world_id = w.id AND s.left_at IS NULL), '[]') AS seats,
            ${LOG_VERSION} AS version,
            ARRAY(SELECT c.id::text FROM chat_messages c
                   WHERE c.world_id = w.id AND c.deleted_at IS NULL
                     AND (c.to_player_id IS NULL
                          OR c.to_player_id = (SELECT player_id FROM seat)
                          OR c.from_player_id = (SELECT player_id FROM seat))
                     -- Lines of an account the viewer blocks are not theirs to read; notices are.
                     AND (c.system OR NOT EXISTS (SELECT 1 FROM chat_blocks b
                                                   WHERE b.user_id = $2::uuid AND b.blocked_user_id = c.from_user_id))
                   ORDER BY c.id DESC LIMIT ${CHAT_TAIL}) AS chat_ids
       FROM worlds w
      WHERE w.id = $1::uuid AND ${visibleToSql('$2', '$3')}`,
    [worldId, user?.id ?? null, seesEveryWorld(user)],
    'bke_subscription_reads',
  );
  if (!row) return null;
  return {
    spectators: row.spectators,
    playerId: row.player_id,
    ready: (stepKey) => row.seats.filter((s) => s.r === stepKey).map((s) => s.p),
    version: row.version,
    chatIds: row.chat_ids,
  };
}
