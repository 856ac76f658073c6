/**
 * A past game turn as one viewer saw it, order by order: the board as the turn began and, for each
 * order of the turn, the patch to that viewer's next view with the events it was sent. Rebuilt from
 * the stored log through the engine (the nearest earlier snapshot, then its orders replayed), so
 * nothing is kept per viewer. This file reads what a replay needs; replay-play.ts plays it, on a
 * replay thread for the HTTP route (replay-pool.ts: a turn's orders through the engine take the
 * main thread for as long as they run), in place here.
 */
import type { Engine } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { playReplay, type ReplayInput, type ReplayRow, type TurnReplay } from './replay-play.ts';

export type { TurnReplay } from './replay-play.ts';

/** One seat an account held: its player, and when it sat and left. */
export interface SeatSpan {
  readonly playerId: string;
  readonly joinedAt: Date;
  readonly leftAt: Date | null;
}

/** Orders read per page while looking for the turn. */
const PAGE = 500;

/**
 * A rollback of a world: its row at `at` restored the state right after order `to`, so the orders
 * between them are no longer part of the play.
 */
interface Cut {
  readonly at: number;
  readonly to: number;
}

async function rollbackCuts(db: Database, worldId: string): Promise<Cut[]> {
  const rows = await db.sql<{ seq: number; to: number }>(
    `SELECT seq, ("order"->>'toSeq')::int AS "to" FROM world_orders
      WHERE world_id = $1 AND kind = 'rollback'`,
    [worldId],
    'bke_replay_rollbacks',
  );
  return rows.map((r) => ({ at: r.seq, to: r.to }));
}

/**
 * The nearest snapshot on the play as it now stands taken before game turn `turn` began (the
 * created game at worst): one taken among orders a later rollback undid is passed over.
 */
async function startingSnapshot(db: Database, worldId: string, turn: number, cuts: readonly Cut[]) {
  const rows = await db.sql<{ seq: number }>(
    `SELECT seq FROM world_snapshots
      WHERE world_id = $1 AND (turn < $2::int OR seq = 0)
      ORDER BY seq DESC`,
    [worldId, turn],
    'bke_replay_snapshots',
  );
  const seq = rows.find((r) => !cuts.some((c) => r.seq > c.to && r.seq < c.at))?.seq;
  if (seq === undefined) return null;
  return db.prisma.worldSnapshot.findUnique({ where: { worldId_seq: { worldId, seq } } });
}

/**
 * The seq of the order that ended game turn `turn` on the play as it stands after `after` (the
 * first live start of a later turn, kept by the database in world_turn_starts); null when the
 * world has not left that turn yet.
 */
async function turnEnd(db: Database, worldId: string, turn: number, after: number, cuts: readonly Cut[]) {
  const rows = await db.sql<{ seq: number }>(
    `SELECT seq FROM world_turn_starts WHERE world_id = $1 AND turn > $2::int AND seq > $3::int
      ORDER BY seq`,
    [worldId, turn, after],
    'bke_replay_turn_end',
  );
  return rows.find((r) => !cuts.some((c) => r.seq > c.to && r.seq <= c.at))?.seq ?? null;
}

async function turnBegun(db: Database, worldId: string, turn: number): Promise<boolean> {
  const rows = await db.sql<{ seq: number }>(
    'SELECT seq FROM world_turn_starts WHERE world_id = $1 AND turn >= $2::int LIMIT 1',
    [worldId, turn],
    'bke_replay_turn_begun',
  );
  return rows.length > 0;
}

/**
 * What replaying game turn `turn` of a world for the account holding `seats` (none: a spectator)
 * needs; null when the world never reached that turn. A turn a moderator rolled back is shown as
 * it was played since: the orders a rollback undid are left out, and so is the rollback row itself
 * (on the play as it stands, the state it restored is the one its undone orders started from).
 */
export async function readReplayInput(
  db: Database,
  worldId: string,
  turn: number,
  seats: readonly SeatSpan[],
): Promise<ReplayInput | null> {
  const cuts = await rollbackCuts(db, worldId);
  const undone = (seq: number) => cuts.some((c) => seq > c.to && seq <= c.at);
  const snap = await startingSnapshot(db, worldId, turn, cuts);
  if (!snap) return null;
  const end = await turnEnd(db, worldId, turn, snap.seq, cuts);
  // A turn the world never began has nothing to replay (its last turns' orders are not read).
  if (end === null && turn > snap.turn && !(await turnBegun(db, worldId, turn))) return null;
  const rows: ReplayRow[] = [];
  let after = snap.seq;
  for (;;) {
    const page = await db.sql<{ seq: number; actor: string; kind: string; order: unknown; at: Date }>(
      `SELECT seq, actor, kind, "order", created_at AS at FROM world_orders
        WHERE world_id = $1 AND seq > $2::int AND ($3::int IS NULL OR seq <= $3::int)
        ORDER BY seq LIMIT $4`,
      [worldId, after, end, PAGE],
      'bke_replay_orders',
    );
    for (const r of page)
      if (!undone(r.seq))
        rows.push({ seq: r.seq, actor: r.actor, kind: r.kind, order: r.order, at: new Date(r.at).getTime() });
    after = page.at(-1)?.seq ?? after;
    if (page.length < PAGE) break;
  }
  return {
    worldId,
    turn,
    state: snap.state,
    rows,
    seats: seats.map((s) => ({
      playerId: s.playerId,
      joinedAt: s.joinedAt.getTime(),
      leftAt: s.leftAt?.getTime() ?? null,
    })),
  };
}

/** Reads and replays game turn `turn` in place (readReplayInput, then replay-play.ts). */
export async function replayTurn(
  db: Database,
  engine: Engine,
  worldId: string,
  turn: number,
  seats: readonly SeatSpan[],
): Promise<TurnReplay | null> {
  const input = await readReplayInput(db, worldId, turn, seats);
  return input ? playReplay(engine, input) : null;
}
