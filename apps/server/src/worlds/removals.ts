/**
 * Whether a moderator removed an account from a world and none has let it back since. The audit
 * log holds both actions (`seat.remove`, `seat.allowRejoin`); the latest of the two for a world
 * and an account decides. Joining (seating.ts), the lobby's summaries and "play again" all ask it,
 * in the one statement below.
 */
import type { Database } from '../db/database.ts';

/**
 * The removals still standing in the worlds listed in `$worldsParam` (a uuid[] parameter), one
 * row (world_id, target_user_id) each: a subquery a larger statement can take in whole.
 */
export function standingRemovalsSql(worldsParam: string): string {
  return `SELECT world_id, target_user_id FROM (
         SELECT DISTINCT ON (world_id, target_user_id) world_id, target_user_id, action
           FROM moderation_actions
          WHERE world_id = ANY(${worldsParam}::uuid[]) AND action IN ('seat.remove', 'seat.allowRejoin')
          ORDER BY world_id, target_user_id, id DESC) last
        WHERE action = 'seat.remove'`;
}

/**
 * The accounts removed from world `worldId` and not let back. Inside a transaction, pass its `db`:
 * on the embedded database a query on the outer one waits for the transaction to end.
 */
export async function removedAccounts(db: Database, worldId: string): Promise<Set<string>> {
  const rows = await db.sql<{ target_user_id: string }>(standingRemovalsSql('$1'), [[worldId]]);
  return new Set(rows.map((r) => r.target_user_id));
}
