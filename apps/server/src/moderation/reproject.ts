/**
 * The cycle and VP-ledger projections after a rollback, rewritten without replaying the log: only
 * the rows the undone orders can have written are deleted or reset, and the restored order's own
 * events are projected again. The work depends on how many turns were undone and how many cycles
 * run, never on the world's age, and it runs no engine.
 *
 * The rollback restores the state right after order S, where game turn T began (S = 0: the created
 * game). Along the live timeline the game turn never goes down (a rollback row restores an earlier
 * state and its undone orders leave the timeline; an undo takes back orders of the current step
 * only, 4), so every order after S plays turns T and later, every order before S turns before T,
 * and S itself ends turn T − 1 and begins T. What each projected row holds, read against that
 * (worlds/projections.ts):
 * - a VP-ledger row is keyed by its game turn: a `ledgerRow` event carries the turn that wrote the
 *   sheet row (14.3.3; the administration phase fills in column 11 of its own turn's row only),
 *   and a `vpGained` cell the turn after its order. Rows of turns T and later are written by S and
 *   later orders only, rows of earlier turns by S and earlier orders only; the first are deleted
 *   and S's events projected again, the others stay as they are.
 * - a cycle started by S or later starts at turn T or later (its start turn is the turn after the
 *   order): deleted, S's own projected again.
 * - a cycle started earlier keeps its start. Its kingdom and empire turns are set once per cycle
 *   (10.1, 11.x: a stage is never left but by the cycle's end) at the turn being played, its end
 *   once at the turn after the order: a value of T or later came from S or a later order and is
 *   cleared (S puts its own back). Its VP and `updated_seq` are "the last order that wrote them",
 *   which no turn bounds; for a cycle a later order touched (then it ran at S, since cycles are never
 *   reopened) they are read back from the logged events: the latest live order up to S that named
 *   the cycle, found walking back from S (a running cycle gets a sheet row every economic phase, so
 *   the walk is about a turn long).
 */
import type { GameEvent, GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { ProjectionBatch } from '../worlds/projections.ts';

/** Orders read per step when walking back from the restored order (one or two are usually enough). */
const WALK_PAGE = 4;

/**
 * Rewrites the projections of world `worldId` for the state `restored` taken from order `restoredSeq`
 * (S), given the projections match the live timeline before the rollback (every write of the
 * orders so far done: `WorldRuntime.persisted`).
 */
export async function reprojectAfterRollback(
  db: Database,
  worldId: string,
  restoredSeq: number,
  restored: GameState,
): Promise<void> {
  const turn = restored.turn;
  await db.sql('DELETE FROM vp_ledger WHERE world_id = $1 AND turn >= $2', [worldId, turn]);
  await db.sql('DELETE FROM world_cycles WHERE world_id = $1 AND start_turn >= $2', [worldId, turn]);
  const touched = await db.sql<{ player_id: string; number: number }>(
    `UPDATE world_cycles
        SET kingdom_turn = CASE WHEN kingdom_turn >= $2 THEN NULL ELSE kingdom_turn END,
            empire_turn = CASE WHEN empire_turn >= $2 THEN NULL ELSE empire_turn END,
            end_reason = CASE WHEN end_turn >= $2 THEN NULL ELSE end_reason END,
            end_turn = CASE WHEN end_turn >= $2 THEN NULL ELSE end_turn END
      WHERE world_id = $1 AND updated_seq > $3
      RETURNING player_id, number`,
    [worldId, turn, restoredSeq],
  );
  const rollbacks = await db.sql<{ seq: number; to_seq: number }>(
    `SELECT seq, ("order"->>'toSeq')::int AS to_seq FROM world_orders
      WHERE world_id = $1 AND kind = 'rollback' AND seq <= $2`,
    [worldId, restoredSeq],
  );
  const undone = (seq: number) => rollbacks.some((r) => seq > r.to_seq && seq < r.seq);
  for (const c of touched) {
    const running = restored.players.find((p) => p.id === c.player_id)?.cycle?.number === c.number;
    // A cycle not running at S was not written after S (see above); nothing of it to restore.
    if (!running) continue;
    const last = await lastWrites(db, worldId, restoredSeq, c.player_id, c.number, undone);
    if (!last) continue;
    await db.sql(
      'UPDATE world_cycles SET vp = $4, updated_seq = $5 WHERE world_id = $1 AND player_id = $2 AND number = $3',
      [worldId, c.player_id, c.number, last.vp, last.seq],
    );
  }
  if (restoredSeq === 0) return;
  const [row] = await db.sql<{ events: GameEvent[] }>(
    'SELECT events FROM world_orders WHERE world_id = $1 AND seq = $2',
    [worldId, restoredSeq],
  );
  if (!row) throw new Error(`world ${worldId}: no order ${restoredSeq}`);
  await new ProjectionBatch().add(restoredSeq, restored, row.events).write(db, worldId);
}

/**
 * The cycle's VP and the order that last touched its row, as the projection of the live timeline
 * up to order `upTo` has them, for a cycle running after `upTo`: read from the logged events of the
 * latest live orders that name the player's cycle, newest first, back to the one that started it
 * at the furthest. Every event the projection folds into a running cycle counts (its start, VP
 * gained, a sheet row of that cycle, becoming a kingdom or an empire); a cycle's end cannot be
 * among them, since the cycle still runs. The VP is the last one written: a `vpGained` total or a
 * sheet row's column 4, 0 for a cycle that has none since it started.
 */
export async function lastWrites(
  db: Database,
  worldId: string,
  upTo: number,
  player: string,
  number: number,
  undone: (seq: number) => boolean,
): Promise<{ vp: number; seq: number } | null> {
  const patterns = [
    [{ type: 'cycleStarted', player, cycle: number }],
    [{ type: 'vpGained', player }],
    [{ type: 'ledgerRow', row: { player, cycle: number } }],
    [{ type: 'becameKingdom', player }],
    [{ type: 'becameEmpire', player }],
  ].map((p) => JSON.stringify(p));
  let touchedAt: number | null = null;
  for (let below = upTo; below > 0; ) {
    const rows = await db.sql<{ seq: number; events: GameEvent[] }>(
      `SELECT seq, events FROM world_orders
        WHERE world_id = $1 AND seq <= $2 AND seq > 0 AND kind <> 'rollback'
          AND (events @> $4::jsonb OR events @> $5::jsonb OR events @> $6::jsonb
               OR events @> $7::jsonb OR events @> $8::jsonb)
        ORDER BY seq DESC LIMIT $3`,
      [worldId, below, WALK_PAGE, ...patterns],
    );
    for (const r of rows) {
      if (undone(r.seq)) continue;
      touchedAt ??= r.seq;
      const vp = vpWritten(r.events, player, number);
      if (vp !== undefined) return { vp, seq: touchedAt };
    }
    if (rows.length < WALK_PAGE) break;
    below = rows.at(-1)!.seq - 1;
  }
  // No start of the cycle on the live timeline: a log the projection never matched (rebuild --repair
  // rewrites it); the row is left as it is rather than the rollback refused.
  return null;
}

/**
 * The cycle's VP after one order's events as ProjectionBatch folds them (the last write wins; a
 * cycle started with none gets 0), or undefined when the order wrote none.
 */
function vpWritten(events: readonly GameEvent[], player: string, number: number): number | undefined {
  let vp: number | undefined;
  for (const e of events) {
    if (e.type === 'vpGained' && e.player === player) vp = e.total;
    else if (e.type === 'ledgerRow' && e.row.player === player && e.row.cycle === number) vp = e.row.vp;
    else if (e.type === 'cycleStarted' && e.player === player && e.cycle === number) vp ??= 0;
  }
  return vp;
}
