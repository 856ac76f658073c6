/**
 * A past game turn as one viewer saw it, order by order: the board as the turn began and, for each
 * order of the turn, the patch to that viewer's next view with the events it was sent. Rebuilt from
 * the stored log through the engine (the nearest earlier snapshot, then its orders replayed), so
 * nothing is kept per viewer: each view is the engine's `view(state, viewer)` and each order's events
 * pass `eventsFor(events, viewer)`, exactly what the viewer received when the order was made. An
 * account sees an order as the seat it held at that moment; before it sat (or after it left) it
 * sees what spectators saw.
 */
import { type Engine, type GameEvent, type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { PatchOp, WorldEvent } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { diffViews } from './diff.ts';
import { type PagedOrder, readOrderPage, replayRows } from './store.ts';

/** One seat an account held: its player, and when it sat and left. */
export interface SeatSpan {
  readonly playerId: string;
  readonly joinedAt: Date;
  readonly leftAt: Date | null;
}

export interface TurnReplay {
  readonly turn: number;
  readonly start: { readonly seq: number; readonly view: unknown };
  readonly steps: { seq: number; ops: PatchOp[]; events: WorldEvent[] }[];
}

/** Orders read per page while looking for the turn. */
const PAGE = 200;

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
 * Replays game turn `turn` of a world for the account holding `seats` (none: a spectator). Null
 * when the world never reached that turn. A turn a moderator rolled back is shown as it was played
 * since: the orders a rollback undid are left out, and so is the rollback row itself (on the play
 * as it stands, the state it restored is the one its undone orders started from).
 */
export async function replayTurn(
  db: Database,
  engine: Engine,
  worldId: string,
  turn: number,
  seats: readonly SeatSpan[],
): Promise<TurnReplay | null> {
  const cuts = await rollbackCuts(db, worldId);
  const undone = (seq: number) => cuts.some((c) => seq > c.to && seq <= c.at);
  const snap = await startingSnapshot(db, worldId, turn, cuts);
  if (!snap) return null;
  let state: GameState = upgradeState(snap.state);
  const viewerAt = (s: GameState, at: Date): PlayerId | null => {
    const seat = seats.find(
      (x) =>
        x.joinedAt.getTime() <= at.getTime() && (x.leftAt === null || x.leftAt.getTime() >= at.getTime()),
    );
    return seat && s.players.some((p) => p.id === seat.playerId) ? (seat.playerId as PlayerId) : null;
  };
  let start: TurnReplay['start'] | null = null;
  let last: unknown = null;
  const steps: TurnReplay['steps'] = [];
  let after = snap.seq;
  let done = false;
  while (!done) {
    const page = await readOrderPage(db, worldId, after, PAGE);
    if (page.length === 0) break;
    after = page.at(-1)?.seq ?? after;
    const rows = page.filter((r) => !undone(r.seq));
    if (rows.length === 0) continue;
    const times = await db.prisma.worldOrder.findMany({
      where: { worldId, seq: { in: rows.map((r) => r.seq) } },
      select: { seq: true, createdAt: true },
    });
    const when = new Map(times.map((t) => [t.seq, t.createdAt]));
    let before = state;
    await replayRows(db, engine, worldId, state, rows, (r: PagedOrder, next, events: GameEvent[]) => {
      const prev = before;
      before = next;
      state = next;
      if (done) return;
      if (next.turn > turn && prev.turn <= turn) {
        done = start !== null;
        if (done) return;
      }
      if (next.turn !== turn) return;
      const at = when.get(r.seq) ?? new Date();
      const viewer = viewerAt(next, at);
      if (start === null) {
        last = engine.view(prev, viewerAt(prev, at));
        start = { seq: r.seq - 1, view: last };
      }
      const v = engine.view(next, viewer);
      steps.push({
        seq: r.seq,
        ops: diffViews(last, v),
        events: engine.eventsFor(events, viewer) as unknown as WorldEvent[],
      });
      last = v;
    });
  }
  return start ? { turn, start, steps } : null;
}
