/**
 * Rollback: return a world to the start of an earlier game turn. Nothing in the order log is
 * deleted or rewritten. The state at the start of the wanted turn is replayed from the nearest kept
 * snapshot before it along the current timeline (an earlier rollback row cuts off the orders it
 * undid) and becomes the world's state, and ONE row is appended at seq N+1 (actor "system", kind
 * "rollback") together with the snapshot of the restored state at N+1; its patch takes every
 * client's view from version N to the restored view, so clients follow with an ordinary patch. The
 * undone orders stay in world_orders and are listed in the audit entry. The cycle and VP-ledger
 * projections lose what the undone orders wrote (reproject.ts). Nothing here replays the log from
 * the created game: the work is a few game turns whatever the world's age.
 */
import { type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { WorldEvent } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { afterCommit, isTransaction, onRollback } from '../db/transaction.ts';
import { diffViews } from '../worlds/diff.ts';
import { getEngine } from '../worlds/engine.ts';
import { stepKeyOf } from '../worlds/runtime.ts';
import { isUniqueViolation, type LogRow, lockWorld, type WorldHead } from '../worlds/store.ts';
import type { ModContext } from './context.ts';
import { type ModResult, refuse } from './errors.ts';
import { reprojectAfterRollback } from './reproject.ts';
import { reseat, seatsJoinedAt } from './rollback-seats.ts';
import { inWorld } from './worlds.ts';

export const ROLLBACK_KIND = 'rollback';

export interface TurnStart {
  turn: number;
  /** The world's state is the one right after order `seq` (0: the created game). */
  seq: number;
  state: GameState;
}

/** The state a rollback row restored: the snapshot written with it. */
export async function restoredState(db: Database, worldId: string, seq: number): Promise<GameState> {
  const snap = await db.prisma.worldSnapshot.findUnique({ where: { worldId_seq: { worldId, seq } } });
  if (!snap) throw new Error(`world ${worldId}: rollback row ${seq} has no snapshot`);
  return upgradeState(snap.state);
}

/**
 * Where game turn `turn` began on the live timeline up to `upTo`, replayed from the nearest kept
 * snapshot before it rather than from the created game: the latest snapshot on the live timeline
 * (not among the orders an earlier rollback undid) of an earlier turn, then the live orders after
 * it until the turn begins. The retention rule (worlds/snapshots.ts) keeps a turn start in every
 * few, so this replays a few turns at most, whatever the world's age; and none when the order that
 * began the turn has its own snapshot (every turn start gets one, kept for the latest turns). Null
 * when the timeline has no such start (a turn not reached, or one whose start an earlier rollback
 * undid and play has not reached again).
 */
export async function turnStartFromSnapshot(
  db: Database,
  worldId: string,
  turn: number,
  upTo: number,
): Promise<TurnStart | null> {
  const engine = getEngine();
  const rollbacks = await db.sql<{ seq: number; to_seq: number }>(
    `SELECT seq, ("order"->>'toSeq')::int AS to_seq FROM world_orders
      WHERE world_id = $1 AND kind = $2 AND seq <= $3 ORDER BY seq`,
    [worldId, ROLLBACK_KIND, upTo],
  );
  const undone = (seq: number) => rollbacks.some((r) => seq > r.to_seq && seq < r.seq);
  // Newest first, one at a time: each one looked at is a whole state to read, and the first on the
  // live timeline is the one.
  let from: { seq: number } | undefined;
  for (let below = upTo; !from; ) {
    const [s] = await db.sql<{ seq: number }>(
      `SELECT seq FROM world_snapshots
        WHERE world_id = $1 AND seq <= $2 AND (seq = 0 OR turn < $3)
        ORDER BY seq DESC LIMIT 1`,
      [worldId, below, turn],
    );
    if (!s) break;
    if (!undone(s.seq)) from = s;
    below = s.seq - 1;
  }
  if (!from) return null;
  let state = await snapshotState(db, worldId, from.seq);
  if (state.turn === turn) return { turn, seq: from.seq, state };
  if (state.turn > turn) return null;
  for (let after = from.seq; after < upTo; ) {
    const rows = await db.sql<{ seq: number; actor: string; kind: string; order: unknown; events: unknown }>(
      `SELECT seq, actor, kind, "order", events FROM world_orders
        WHERE world_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
      [worldId, after, upTo, REPLAY_PAGE],
    );
    if (rows.length === 0) break;
    after = rows.at(-1)!.seq;
    for (const r of rows) {
      if (undone(r.seq)) continue;
      if (r.kind === ROLLBACK_KIND) {
        state = await restoredState(db, worldId, r.seq);
        // A restored turn at or past the wanted one: its start lies before the snapshot we chose,
        // which cannot be on a live timeline; say no rather than guess.
        if (state.turn >= turn) return null;
        continue;
      }
      // The order that begins the wanted turn, snapshotted: its state is read, not played.
      const began = startedTurn(r.events);
      if (began === turn) {
        const [snap] = await db.sql<{ state: unknown }>(
          'SELECT state FROM world_snapshots WHERE world_id = $1 AND seq = $2',
          [worldId, r.seq],
        );
        if (snap) return { turn, seq: r.seq, state: upgradeState(snap.state) };
      }
      const res = engine.applyOrder(state, r.actor as PlayerId | 'system', r.order);
      if (!res.ok) throw new Error(`world ${worldId}: logged order ${r.seq} no longer applies`);
      const before = state.turn;
      state = res.value.state;
      if (state.turn !== before && state.turn === turn) return { turn, seq: r.seq, state };
      if (state.turn > turn) return null;
    }
  }
  return null;
}

/** Orders read per page while replaying towards a turn start. */
const REPLAY_PAGE = 200;

/** The turn an order's events began last (the turn its state is at), or null if none. */
function startedTurn(events: unknown): number | null {
  let out: number | null = null;
  if (Array.isArray(events))
    for (const e of events as { type?: string; turn?: unknown }[])
      if (e?.type === 'turnStarted' && typeof e.turn === 'number') out = e.turn;
  return out;
}

async function snapshotState(db: Database, worldId: string, seq: number): Promise<GameState> {
  const [snap] = await db.sql<{ state: unknown }>(
    'SELECT state FROM world_snapshots WHERE world_id = $1 AND seq = $2',
    [worldId, seq],
  );
  if (!snap) throw new Error(`world ${worldId}: no snapshot ${seq}`);
  return upgradeState(snap.state);
}

/**
 * The turns a world can go back to: the start of every game turn on the live timeline, with the
 * order after which it began (0: the created game). Read from the log, not replayed: the created
 * game's turn from snapshot 0, then the log's turn starts (`world_turn_starts`, kept by the database
 * for every order whose events begin a turn; an order that began several gives the last, the turn
 * its state is at), leaving out the orders an earlier rollback undid. A few rows per turn, so the
 * list does not slow down as the log grows. No state hash per turn: none was shown, and it needed the state at every turn
 * start, that is a replay of the whole timeline on the server's one event loop; the rollback
 * itself reports the hash of the state it restored (in its result and audit entry), which is what
 * confirms it. Read outside the world's queue, as the log stands committed (it is only appended to).
 */
export async function listTurnStarts(
  ctx: ModContext,
  worldId: string,
): Promise<ModResult<{ turns: { turn: number; seq: number; unseats: string[] }[] }>> {
  const [world] = await ctx.db.sql<{ turn: number | null }>(
    `SELECT s.turn
       FROM worlds w LEFT JOIN world_snapshots s ON s.world_id = w.id AND s.seq = 0
      WHERE w.id = $1`,
    [worldId],
  );
  if (!world) return refuse('world/not_found');
  const began = await ctx.db.sql<{ seq: number; turn: number }>(
    `WITH undone AS (
       SELECT ("order"->>'toSeq')::int AS from_seq, seq AS to_seq FROM world_orders
        WHERE world_id = $1 AND kind = $2)
     SELECT t.seq, t.turn FROM world_turn_starts t
      WHERE t.world_id = $1
        AND NOT EXISTS (SELECT 1 FROM undone u WHERE t.seq > u.from_seq AND t.seq < u.to_seq)
      ORDER BY t.seq`,
    [worldId, ROLLBACK_KIND],
  );
  const starts: { turn: number; seq: number }[] = [];
  if (world.turn !== null) starts.push({ turn: world.turn, seq: 0 });
  // Along the live timeline the turn only goes up; a turn met again would be a second start of it,
  // which the rollback (turnStartFromSnapshot) does not take either.
  for (const b of began) if (b.turn > (starts.at(-1)?.turn ?? -1)) starts.push({ turn: b.turn, seq: b.seq });
  // The seats each rollback would free, for the moderator's confirmation to name.
  const seats = await seatsJoinedAt(ctx.db, worldId);
  const turns = starts.map((t) => ({
    ...t,
    unseats: seats.filter((s) => s.joinedSeq > t.seq).map((s) => s.playerId),
  }));
  return { ok: true, turns };
}

export function rollbackWorld(
  ctx: ModContext,
  worldId: string,
  turn: number,
  actorId: string,
  now = new Date(),
  /** The moderator's reason, told to each player whose seat the rollback takes. */
  reason = '',
) {
  return inWorld<{ params: Record<string, unknown> }>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    // The projections of every order so far are written (after their commits, off the queue) before
    // the rollback takes back those of the undone ones. In a transaction the caller waited before
    // it began (http/moderation.ts): the embedded database would hold those writes until it ends.
    if (!isTransaction(ctx.db)) await rt.persisted();
    const start = await turnStartFromSnapshot(ctx.db, rt.id, turn, rt.version);
    if (!start || start.seq >= rt.version) return refuse('moderation/no_such_turn', { turn });
    const undoneRows = await ctx.db.prisma.worldOrder.findMany({
      where: { worldId: rt.id, seq: { gt: start.seq, lte: rt.version } },
      orderBy: { seq: 'asc' },
      select: { seq: true, actor: true, kind: true, order: true },
    });
    const restored = start.state;
    const seq = rt.version + 1;
    const view = ctx.hub.engine.view(restored, null);
    const waiting = ctx.hub.engine.waitingFor(restored);
    const stepKey = stepKeyOf(restored, waiting);
    const paused = rt.settings.status === 'paused';
    const head: WorldHead = {
      version: seq,
      stepKey,
      deadlineAt: paused || stepKey === '' ? null : new Date(now.getTime() + rt.settings.phaseSeconds * 1000),
      status: rt.settings.status,
    };
    const events: WorldEvent[] = [{ type: 'worldRolledBack', turn, toSeq: start.seq }];
    const row: LogRow = {
      seq,
      actor: 'system',
      userId: actorId,
      kind: ROLLBACK_KIND,
      order: { type: 'rollback', turn, toSeq: start.seq },
      events: events as unknown as LogRow['events'],
      patch: diffViews(rt.publicView, view),
    };
    const hash = ctx.hub.engine.hash(restored);
    const written = await appendRollback(ctx.db, rt.id, rt.version, head, row, {
      state: restored,
      hash,
      pausedRemainingMs: paused ? rt.settings.phaseSeconds * 1000 : null,
    });
    if (!written) {
      if (!isTransaction(ctx.db)) await rt.catchUp();
      return refuse('sync/stale', { version: rt.version });
    }
    onRollback(ctx.db, rt.checkpoint());
    rt.viewers.push(seq, restored, row.events, row.patch);
    rt.state = restored;
    rt.publicView = view;
    rt.head = head;
    const unseated = await reseat(ctx, rt, restored, now);
    await reprojectAfterRollback(ctx.db, rt.id, start.seq, restored);
    const worldName = unseated.some((u) => u.userId)
      ? ((await ctx.db.prisma.world.findUnique({ where: { id: rt.id }, select: { name: true } }))?.name ??
        null)
      : null;
    afterCommit(ctx.db, () => {
      ctx.hub.events.emit('patches', rt, seq - 1, true);
      ctx.hub.publish(rt.id);
      ctx.hub.events.emit('committed', rt, seq - 1);
      // Each player whose seat went with the undone turns is told in words first, then their page
      // is moved off the seat, to the world as it now stands (as a removal does, seats.ts).
      for (const u of unseated) {
        const told = u.userId
          ? ctx.notify.personal(u.userId, {
              worldId: rt.id,
              worldName,
              action: 'world.rollback',
              reason,
              turn,
              unseated: true,
            })
          : Promise.resolve();
        void told.then(() => ctx.notify.endSeatSockets(rt.id, u.playerId));
      }
    });
    return {
      ok: true,
      params: {
        turn,
        toSeq: start.seq,
        atSeq: seq,
        hash,
        unseated,
        undone: undoneRows.map((r) => ({
          seq: r.seq,
          actor: r.actor,
          kind: r.kind,
          type: (r.order as { type?: string }).type ?? '?',
        })),
      },
    };
  });
}

/**
 * Appends the rollback row and the snapshot it restores in ONE statement (with the compare-and-set
 * of the server's order append: the log's primary key, and nothing after `fromVersion` yet), so no
 * crash can leave a rollback row without its snapshot. The world's row is locked first (in the
 * action's transaction), so the statement sees every order committed before it. A paused world
 * stays paused, its deadline untouched; the time it will get back on resume becomes one full step.
 */
async function appendRollback(
  db: Database,
  worldId: string,
  fromVersion: number,
  head: WorldHead,
  row: LogRow,
  snap: { state: GameState; hash: string; pausedRemainingMs: number | null },
): Promise<boolean> {
  if (isTransaction(db)) await lockWorld(db, worldId);
  let out: { seq: number }[];
  try {
    out = await db.sql<{ seq: number }>(
      `WITH w AS (
       UPDATE worlds SET step_key = $3,
              deadline_at = CASE WHEN status = 'paused' THEN deadline_at ELSE $4 END,
              paused_remaining_ms = CASE WHEN status = 'paused' THEN $11 ELSE paused_remaining_ms END,
              deadline_claimed_until = NULL, updated_at = now()
        WHERE id = $1::uuid AND status IN ('open', 'running', 'paused')
          AND NOT EXISTS (SELECT 1 FROM world_orders o WHERE o.world_id = $1::uuid AND o.seq > $5)
       RETURNING id),
     o AS (
       INSERT INTO world_orders (world_id, seq, actor, user_id, kind, "order", events, patch)
       SELECT w.id, $2::int, 'system', $6::uuid, $7, $8::jsonb, $9::jsonb, $10::jsonb FROM w
       RETURNING seq)
     INSERT INTO world_snapshots (world_id, seq, state, hash)
     SELECT w.id, o.seq, $12::jsonb, $13 FROM w, o
     RETURNING seq`,
      [
        worldId,
        head.version,
        head.stepKey,
        head.deadlineAt,
        fromVersion,
        row.userId,
        row.kind,
        JSON.stringify(row.order),
        JSON.stringify(row.events),
        JSON.stringify(row.patch),
        snap.pausedRemainingMs,
        JSON.stringify(snap.state),
        snap.hash,
      ],
    );
  } catch (e) {
    // Another process appended the same seq first.
    if (isUniqueViolation(e)) return false;
    throw e;
  }
  return out.length === 1;
}
