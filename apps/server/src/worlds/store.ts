/**
 * The world's durable record: the append-only order log (raw SQL on the hot path, one statement
 * per commit), read back and replayed (snapshots: snapshots.ts; projections: projections.ts). The
 * log is also the world's version: its last seq. The `worlds` row holds the rest of the head (the
 * step, its deadline, the status) and is written only when one of those moves.
 */
import { type Engine, type GameEvent, type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { PatchOp, RecentEvent } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { SqlDatabase } from '../db/sql-pool.ts';
import { isTransaction } from '../db/transaction.ts';

/** Who gave an order: a person, the server, a missed deadline's default, a rollback, or a bot. */
export type OrderKind = 'player' | 'system' | 'timeout' | 'rollback' | 'bot';

export interface LogRow {
  seq: number;
  actor: string;
  userId: string | null;
  kind: OrderKind;
  /** The level of the bot that chose the order (kind `bot`). */
  bot?: string | null;
  order: unknown;
  events: GameEvent[];
  patch: PatchOp[];
}

/**
 * Who an order's sender must still be when it is appended: a live session of `userId`, not banned,
 * holding seat `playerId`. Checked inside the append statement, at no extra round trip.
 */
export interface SenderGuard {
  sessionId: string;
  userId: string;
  playerId: string;
}

export interface WorldHead {
  /** The seq of the last order in the log (the world's `version`; the log is its only record). */
  version: number;
  stepKey: string;
  deadlineAt: Date | null;
  status: 'open' | 'running' | 'paused' | 'closed';
}

/** Whether a write failed on a unique key (PostgreSQL 23505), through `pg`, PGlite or the ORM. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: unknown; meta?: unknown; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  if (err.code === '23505' || err.code === 'P2002') return true;
  // The ORM's raw queries wrap the driver's error (code P2010, the database's code in `meta`).
  const inner = JSON.stringify(err.meta ?? null);
  return (
    inner.includes('23505') || inner.includes('UniqueConstraintViolation') || isUniqueViolation(err.cause)
  );
}

/**
 * Locks the world's row against every other writer of the world until the transaction ends: an
 * order's append (FOR SHARE, below), a moderator's change of the head. A statement after it sees
 * every append committed before it (READ COMMITTED takes a snapshot per statement), and no append
 * can commit in between. Only useful inside a transaction (db/transaction.ts).
 */
export async function lockWorld(db: Database, worldId: string): Promise<void> {
  await db.sql('SELECT 1 FROM worlds WHERE id = $1::uuid FOR NO KEY UPDATE', [worldId]);
}

/**
 * A world's version in SQL, for a query over `worlds w`: the last seq of its log (an index-only
 * lookup on the log's primary key), 0 before any order.
 */
export const LOG_VERSION =
  'coalesce((SELECT max(o.seq) FROM world_orders o WHERE o.world_id = w.id), 0)::int';

/**
 * The world's head as stored: the step, its deadline and the status from the `worlds` row, and the
 * version from the log (the PK's last seq, an index-only lookup), read in ONE statement, so both
 * come from one snapshot: the head written with an order and the order itself commit together.
 */
export async function readHead(db: Database, worldId: string) {
  const [w] = await db.sql<{
    version: number;
    step_key: string;
    deadline_at: Date | null;
    status: WorldHead['status'];
    phase_seconds: number;
    early_resolution: boolean;
    pause_reason: string | null;
  }>(
    `SELECT w.step_key, w.deadline_at, w.status, w.phase_seconds, w.early_resolution, w.pause_reason,
            ${LOG_VERSION} AS version
       FROM worlds w WHERE w.id = $1::uuid`,
    [worldId],
    'bke_read_head',
  );
  if (!w) return null;
  return {
    head: {
      version: w.version,
      stepKey: w.step_key,
      deadlineAt: w.deadline_at,
      status: w.status,
    } as WorldHead,
    phaseSeconds: w.phase_seconds,
    earlyResolution: w.early_resolution,
    pauseReason: w.pause_reason,
  };
}

/**
 * The heads of many worlds in one statement (the lobby's list); a world that does not exist is
 * absent from the map. Each head is read as `readHead` reads one.
 */
export async function readHeads(db: Database, worldIds: readonly string[]): Promise<Map<string, WorldHead>> {
  if (worldIds.length === 0) return new Map();
  const rows = await db.sql<{
    id: string;
    version: number;
    step_key: string;
    deadline_at: Date | null;
    status: WorldHead['status'];
  }>(
    `SELECT w.id, w.step_key, w.deadline_at, w.status, ${LOG_VERSION} AS version
       FROM worlds w WHERE w.id = ANY($1::uuid[])`,
    [worldIds],
    'bke_read_heads',
  );
  return new Map(
    rows.map((w) => [
      w.id,
      { version: w.version, stepKey: w.step_key, deadlineAt: w.deadline_at, status: w.status },
    ]),
  );
}

// The conditions an append checks, on the world row `worlds` of id $1, from version $2: it takes
// orders (open or running; paused only for moderator actions, $4), nothing after $2 is in the log
// yet (a process that is behind never writes into a gap), and for a player's order the sender
// ($5 session, $6 account, $7 seat) still holds: a live session, not banned, in the seat.
const APPEND_GUARDS = `
       worlds.id = $1::uuid
   AND (worlds.status IN ('open', 'running') OR ($4::boolean AND worlds.status = 'paused'))
   AND NOT EXISTS (SELECT 1 FROM world_orders o WHERE o.world_id = $1::uuid AND o.seq > $2)
   AND ($5::text IS NULL OR (
         EXISTS (SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
                  WHERE s.token_hash = $5 AND s.user_id = $6::uuid AND s.expires_at > now()
                    AND (u.banned_until IS NULL OR u.banned_until <= now()))
     AND EXISTS (SELECT 1 FROM world_seats ws
                  WHERE ws.world_id = $1::uuid AND ws.player_id = $7 AND ws.user_id = $6::uuid
                    AND ws.left_at IS NULL)))`;

const INSERT_ROWS = `
INSERT INTO world_orders (world_id, seq, actor, user_id, kind, bot, "order", events, patch)
SELECT w.id, r.seq, r.actor, r.user_id, r.kind, r.bot, r.ord, r.events, r.patch
  FROM w, jsonb_to_recordset($3::jsonb)
    AS r(seq int, actor text, user_id uuid, kind text, bot text, ord jsonb, events jsonb, patch jsonb)
RETURNING seq`;

/**
 * An order that leaves the head as it was: the `worlds` row is only read, under FOR SHARE. That
 * lock conflicts with a moderator's UPDATE of the row (FOR KEY SHARE would not: it only guards the
 * key), so an order racing a pause either commits before the pause (which then waits for it) or
 * re-reads the paused row once the pause committed and is refused. It writes no new row version
 * (no dead tuple, no index entry); it marks the tuple as locked, which shared readers never wait for.
 */
const APPEND_LOG_ONLY = `WITH w AS (SELECT worlds.id FROM worlds WHERE ${APPEND_GUARDS} FOR SHARE)${INSERT_ROWS}`;

/**
 * An order that moves the head (a new step, its deadline, open → running): the row is updated
 * first, and that UPDATE's row lock is what orders it against the other writers. (Locking FOR
 * SHARE and updating the same row later in the statement could deadlock with a second append that
 * holds FOR SHARE and waits on our new seq.) A paused world keeps its deadline (`paused_remaining_ms`
 * holds the time left); a claim on the old deadline is released.
 */
const APPEND_MOVING_HEAD = `WITH w AS (
  UPDATE worlds SET step_key = $8,
         deadline_at = CASE WHEN status = 'paused' THEN deadline_at ELSE $9 END,
         status = CASE WHEN status = 'open' THEN $10::"WorldStatus" ELSE status END,
         deadline_claimed_until = NULL, updated_at = now()
   WHERE ${APPEND_GUARDS}
  RETURNING worlds.id)${INSERT_ROWS}`;

/**
 * Appends `rows` (seqs `fromVersion + 1` on) as ONE statement, all or nothing. The compare-and-set
 * is the log's primary key (world_id, seq): two processes appending the same seq conflict, and the
 * one that comes second fails on the unique key and writes nothing of its batch. The `worlds` row
 * is written only when `head` is given, i.e. when the step, its deadline or the status moves (most
 * orders leave them as they are). Returns false (nothing written) when the world had moved on, is
 * paused or closed, or the sender no longer holds its seat. Prepared once per connection: on the
 * order path, planning this statement cost about as much as running it (metric 1).
 */
export async function appendOrders(
  db: Database,
  worldId: string,
  fromVersion: number,
  /** The new head when it differs from the stored one; null when this batch leaves it as it is. */
  head: Omit<WorldHead, 'version'> | null,
  rows: LogRow[],
  /** Moderator actions (rollback, resolve now) may write while the world is paused. */
  allowPaused = false,
  /** A player's order: its sender's session and seat must still hold (null for system orders). */
  guard: SenderGuard | null = null,
): Promise<boolean> {
  const recs = rows.map((r) => ({
    seq: r.seq,
    actor: r.actor,
    user_id: r.userId,
    kind: r.kind,
    bot: r.bot ?? null,
    ord: r.order,
    events: r.events,
    patch: r.patch,
  }));
  const params: unknown[] = [
    worldId,
    fromVersion,
    JSON.stringify(recs),
    allowPaused,
    guard?.sessionId ?? null,
    guard?.userId ?? null,
    guard?.playerId ?? null,
  ];
  // In a transaction a unique violation would abort it, and the caller's refusal could not even be
  // recorded: the row lock first makes the append see every committed order, and keeps others out.
  if (isTransaction(db)) await lockWorld(db, worldId);
  try {
    const out = head
      ? await db.sql<{ seq: number }>(
          APPEND_MOVING_HEAD,
          [...params, head.stepKey, head.deadlineAt, head.status],
          'bke_append_orders_head',
        )
      : await db.sql<{ seq: number }>(APPEND_LOG_ONLY, params, 'bke_append_orders');
    return out.length === rows.length;
  } catch (e) {
    // Another process appended the same seq first (its commit came while this statement ran).
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

interface StoredOrder {
  seq: number;
  actor: string;
  kind: string;
  order: unknown;
  events: unknown;
  patch: unknown;
}

/** What replaying an order needs of its row: who gave which order, where in the log. */
export type ReplayedOrder = Pick<StoredOrder, 'seq' | 'actor' | 'kind' | 'order'>;

/** A row of the log as read a page at a time: its stored patch, not its events (a replay makes its own). */
export type PagedOrder = Omit<StoredOrder, 'events'>;

export async function readOrders(db: Database, worldId: string, after: number, upTo?: number) {
  const rows = await db.prisma.worldOrder.findMany({
    where: { worldId, seq: { gt: after, ...(upTo === undefined ? {} : { lte: upTo }) } },
    orderBy: { seq: 'asc' },
    select: { seq: true, actor: true, kind: true, order: true, events: true, patch: true },
  });
  return rows as StoredOrder[];
}

/**
 * At most `limit` orders after seq `after`, in order (the log read a page at a time). Raw SQL:
 * `rebuild` reads the whole log this way, and the ORM's query engine alone would double its memory.
 * The stored events are left out: nobody reading pages uses them, and they are a third of a row's
 * bytes to send and parse.
 */
export async function readOrderPage(db: Database, worldId: string, after: number, limit: number) {
  return db.sql<PagedOrder>(
    `SELECT seq, actor, kind, "order", patch FROM world_orders
      WHERE world_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [worldId, after, limit],
    'bke_read_order_page',
  );
}

/**
 * The stored patches of at most `limit` orders after seq `after`, in order: a rebuild that replays
 * stretches of the log in worker threads checks the patches apart from the replay.
 */
export async function readPatchPage(db: SqlDatabase, worldId: string, after: number, limit: number) {
  return db.sql<{ seq: number; patch: unknown }>(
    `SELECT seq, patch FROM world_orders WHERE world_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [worldId, after, limit],
    'bke_read_patch_page',
  );
}

/**
 * At most `limit` orders with seqs after `after` and up to `upTo` (null: to the log's end), in
 * order, with only what replaying them needs (a stretch of a rebuild replayed in a worker thread).
 */
export async function readReplayPage(
  db: SqlDatabase,
  worldId: string,
  after: number,
  upTo: number | null,
  limit: number,
) {
  return db.sql<ReplayedOrder>(
    `SELECT seq, actor, kind, "order" FROM world_orders
      WHERE world_id = $1 AND seq > $2 AND ($3::int IS NULL OR seq <= $3::int) ORDER BY seq LIMIT $4`,
    [worldId, after, upTo, limit],
    'bke_read_replay_page',
  );
}

/**
 * The world's last `limit` events up to `upTo` that a viewer may see, along the log as it now
 * stands: `seen` gives the part of one order's events the viewer receives (the engine's
 * `eventsFor`), and `index` is the place among those, as in that viewer's patches. Walking back from
 * `upTo`, a rollback row skips the orders it undid (back to its `toSeq`), and an `undo` row skips
 * the order it took back: the last earlier order of the same player not already taken back (the
 * engine's undo takes back that player's latest order of the open window, 4). Turns are counted
 * back from `turn`, the turn at `upTo`: events before a `turnStarted` belong to the turn before it.
 */
export async function recentEvents(
  db: Database,
  worldId: string,
  upTo: number,
  turn: number,
  limit: number,
  seen: (events: readonly GameEvent[]) => readonly GameEvent[],
): Promise<RecentEvent[]> {
  const out: RecentEvent[] = [];
  let current = turn;
  let below = upTo;
  const undos = new Map<string, number>();
  // Pages of rows, newest first; a page holds more rows than events are wanted when few rows have
  // events, so it is read again from where the walk stopped.
  for (let page = 0; page < 50 && out.length < limit && below > 0; page++) {
    const rows = await db.sql<{
      seq: number;
      kind: string;
      actor: string;
      type: string | null;
      events: unknown;
      to_seq: number | null;
    }>(
      `SELECT seq, kind, actor, "order"->>'type' AS type, events, ("order"->>'toSeq')::int AS to_seq
         FROM world_orders
        WHERE world_id = $1 AND seq <= $2
          AND (jsonb_array_length(events) > 0 OR kind = 'rollback' OR "order"->>'type' = 'undo')
        ORDER BY seq DESC LIMIT $3`,
      [worldId, below, limit * 2],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.seq > below) continue;
      below = row.seq - 1;
      if (row.type === 'undo' && row.kind !== 'rollback') {
        undos.set(row.actor, (undos.get(row.actor) ?? 0) + 1);
        continue;
      }
      const owed = undos.get(row.actor) ?? 0;
      if (owed > 0 && row.kind !== 'system' && row.kind !== 'rollback') {
        undos.set(row.actor, owed - 1);
        continue;
      }
      const all = Array.isArray(row.events) ? (row.events as GameEvent[]) : [];
      const events = seen(all) as unknown as RecentEvent['event'][];
      const restored =
        row.kind === 'rollback'
          ? (all as RecentEvent['event'][]).find((e) => e.type === 'worldRolledBack')
          : undefined;
      if (typeof restored?.turn === 'number') current = restored.turn;
      for (let i = events.length - 1; i >= 0 && out.length < limit; i--) {
        const event = events[i];
        if (!event || typeof event.type !== 'string') continue;
        out.push({ seq: row.seq, index: i, turn: current, event });
        if (event.type === 'turnStarted' && typeof event.turn === 'number') current = event.turn - 1;
      }
      // The orders a rollback undid are off the timeline: continue from the order it returned to,
      // whose state began the restored turn.
      if (row.kind === 'rollback' && row.to_seq !== null) {
        below = row.to_seq;
        break;
      }
      if (out.length >= limit) break;
    }
  }
  return out.reverse();
}

/**
 * A rollback row (written by the moderation tools): `order { type: 'rollback', toSeq, turn }`
 * at seq N+1, with the restored state stored as the snapshot at N+1. Nothing before it is rewritten.
 */
const isRollback = (r: Pick<StoredOrder, 'kind' | 'actor' | 'order'>): boolean =>
  r.kind === 'rollback' && r.actor === 'system' && (r.order as { type?: string }).type === 'rollback';

/** The state a rollback row restored: its own snapshot (undefined when there is none). */
export type RestoredState = (seq: number) => Promise<unknown> | unknown;

/**
 * Applies stored rows to `state` through the engine; a rollback row takes the restored state from
 * the snapshot written with it.
 */
export function replayRows<R extends ReplayedOrder>(
  db: Database,
  engine: Engine,
  worldId: string,
  state: GameState,
  rows: readonly R[],
  onApplied?: (row: R, state: GameState, events: GameEvent[]) => Promise<void> | void,
): Promise<GameState> {
  const restored: RestoredState = async (seq) =>
    (
      await db.sql<{ state: unknown }>('SELECT state FROM world_snapshots WHERE world_id = $1 AND seq = $2', [
        worldId,
        seq,
      ])
    )[0]?.state;
  return replayRowsWith(restored, engine, worldId, state, rows, onApplied);
}

/**
 * `replayRows` with the rollbacks' snapshots taken from `restored` rather than read from the
 * database (a rebuild's worker thread is handed them with its rows).
 */
export async function replayRowsWith<R extends ReplayedOrder>(
  restored: RestoredState,
  engine: Engine,
  worldId: string,
  state: GameState,
  rows: readonly R[],
  onApplied?: (row: R, state: GameState, events: GameEvent[]) => Promise<void> | void,
): Promise<GameState> {
  let s = state;
  for (const r of rows) {
    let events: GameEvent[] = [];
    if (isRollback(r)) {
      const snap = await restored(r.seq);
      if (snap === undefined) throw new Error(`world ${worldId}: rollback ${r.seq} has no snapshot`);
      s = upgradeState(snap);
    } else {
      const res = engine.applyOrder(s, r.actor as PlayerId | 'system', r.order);
      if (!res.ok)
        throw new Error(`world ${worldId}: logged order ${r.seq} no longer applies (${res.error.code})`);
      s = res.value.state;
      events = res.value.events;
    }
    await onApplied?.(r, s, events);
  }
  return s;
}
