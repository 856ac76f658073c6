/**
 * Snapshots of a world's engine state: where loading starts (then the later orders are replayed),
 * what a rollback row restores, and what `rebuild` checks its replay against. They are written on
 * a schedule (runtime.ts) and thinned at every new game turn by a retention rule, so their storage
 * grows with the world's age by a small fixed amount per turn, not with the number of snapshots
 * ever taken. Any turn stays reachable: rollback replays the log from the first snapshot, loading
 * from the latest one.
 */
import type { GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';

/** Every snapshot of the latest game turns is kept (loading, and the nearest start for a replay). */
const KEEP_ALL_TURNS = 2;
/** The first snapshot of each of the latest game turns is kept (a recent turn start, one read away). */
const KEEP_TURN_STARTS = 20;
/** Further back, the first snapshot of one game turn in this many. */
export const KEEP_EVERY_TURNS = 10;

/**
 * Writes a snapshot through raw SQL: Prisma's JSON argument handling costs seconds on a busy
 * machine for a 50 KB state (measured).
 */
export async function writeSnapshot(
  db: Database,
  worldId: string,
  seq: number,
  state: GameState,
  hash: string,
) {
  await db.sql(
    `INSERT INTO world_snapshots (world_id, seq, state, hash) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (world_id, seq) DO NOTHING`,
    [worldId, seq, JSON.stringify(state), hash],
  );
}

export async function latestSnapshot(db: Database, worldId: string, atMost: number) {
  return db.prisma.worldSnapshot.findFirst({
    where: { worldId, seq: { lte: atMost } },
    orderBy: { seq: 'desc' },
  });
}

/**
 * The retention rule, applied when game turn `turn` has begun. Kept: the created game (seq 0), the
 * state every rollback row restored, every snapshot of the latest KEEP_ALL_TURNS turns, the first
 * snapshot of each of the latest KEEP_TURN_STARTS turns, and further back the first snapshot of
 * every KEEP_EVERY_TURNS-th turn. Returns how many were deleted.
 */
export async function thinSnapshots(db: Database, worldId: string, turn: number): Promise<number> {
  const gone = await db.sql<{ seq: number }>(
    `WITH s AS (
       SELECT seq, turn, row_number() OVER (PARTITION BY turn ORDER BY seq) AS nth
         FROM world_snapshots WHERE world_id = $1)
     DELETE FROM world_snapshots d USING s
      WHERE d.world_id = $1 AND d.seq = s.seq AND s.seq > 0
        AND s.turn <= $2::int - $3::int
        AND NOT (s.nth = 1 AND (s.turn > $2::int - $4::int OR s.turn % $5::int = 0))
        AND NOT EXISTS (SELECT 1 FROM world_orders o
                         WHERE o.world_id = $1 AND o.seq = s.seq AND o.kind = 'rollback')
     RETURNING d.seq`,
    [worldId, turn, KEEP_ALL_TURNS, KEEP_TURN_STARTS, KEEP_EVERY_TURNS],
    'bke_thin_snapshots',
  );
  return gone.length;
}
