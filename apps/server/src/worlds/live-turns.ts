/**
 * The game turn each order of the log was given in, along the timeline as it now stands, read from
 * the few rows that move the turn: the created game (snapshot 0), the orders that began a turn
 * (world_turn_starts) and the rollback rows (which return the world to the start of an earlier
 * turn). An order's events name a turn only when the order ends one; every order is given in the
 * turn its world was at just before it, that of the last of those rows before it. The orders a
 * rollback undid are off the timeline: they get no turn.
 */
import type { Database } from '../db/database.ts';

export interface TurnMark {
  /** The world is at `turn` from the state after order `seq` on. */
  seq: number;
  turn: number;
  /** A rollback row: the seq whose state it returned to (the orders after it, before this row, are undone). */
  toSeq?: number;
}

/**
 * The turn order `seq` was given in on the live timeline, or null when a rollback undid it (or no
 * mark precedes it). `marks` are in ascending seq. A live order's last mark before it is itself
 * live: a mark undone by a rollback lies before that rollback's row, a later mark of its own.
 */
export function turnAt(marks: readonly TurnMark[], seq: number): number | null {
  let turn: number | null = null;
  for (const m of marks) {
    if (m.toSeq !== undefined && seq > m.toSeq && seq < m.seq) return null;
    if (m.seq < seq) turn = m.turn;
  }
  return turn;
}

/** The world's turn marks up to `upTo`, in ascending seq: a few rows per game turn. */
export async function turnMarks(db: Database, worldId: string, upTo: number): Promise<TurnMark[]> {
  const rows = await db.sql<{ seq: number; turn: number; to_seq: number | null }>(
    `SELECT seq, turn, NULL::int AS to_seq FROM world_snapshots WHERE world_id = $1 AND seq = 0
     UNION ALL
     SELECT seq, turn, NULL::int FROM world_turn_starts WHERE world_id = $1 AND seq <= $2
     UNION ALL
     SELECT seq, ("order"->>'turn')::int, ("order"->>'toSeq')::int FROM world_orders
      WHERE world_id = $1 AND kind = 'rollback' AND seq <= $2
     ORDER BY seq`,
    [worldId, upTo],
  );
  return rows.map((r) =>
    r.to_seq === null ? { seq: r.seq, turn: r.turn } : { seq: r.seq, turn: r.turn, toSeq: r.to_seq },
  );
}
