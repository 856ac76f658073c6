/**
 * The world's durable record: the append-only order log (raw SQL on the hot path, one statement
 * per commit), read back and replayed (snapshots: snapshots.ts; projections: projections.ts).
 */
import { type Engine, type GameEvent, type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { PatchOp, RecentEvent } from '@bke/protocol';
import type { Database } from '../db/database.ts';

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
  version: number;
  stepKey: string;
  deadlineAt: Date | null;
  status: 'open' | 'running' | 'paused' | 'closed';
}

/**
 * Appends `rows` and moves the world's head from `fromVersion`, in one statement: the UPDATE's
 * version guard makes it a compare-and-set, so two processes can never both append the same seq.
 * Returns false (nothing written) when the world had moved on. Prepared once per connection: on
 * the order path, planning this statement cost about as much as running it (metric 1).
 */
export async function appendOrders(
  db: Database,
  worldId: string,
  fromVersion: number,
  head: WorldHead,
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
  const out = await db.sql<{ seq: number }>(
    `WITH w AS (
       UPDATE worlds SET version = $2, step_key = $3,
              deadline_at = CASE WHEN status = 'paused' THEN deadline_at ELSE $4 END,
              status = CASE WHEN status = 'open' THEN $5::"WorldStatus" ELSE status END,
              deadline_claimed_until = NULL, updated_at = now()
        WHERE id = $1 AND version = $6
          AND (status IN ('open', 'running') OR ($8::boolean AND status = 'paused'))
          AND ($9::text IS NULL OR (
                EXISTS (SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
                         WHERE s.token_hash = $9 AND s.user_id = $10::uuid AND s.expires_at > now()
                           AND (u.banned_until IS NULL OR u.banned_until <= now()))
            AND EXISTS (SELECT 1 FROM world_seats ws
                         WHERE ws.world_id = $1 AND ws.player_id = $11 AND ws.user_id = $10::uuid
                           AND ws.left_at IS NULL)))
       RETURNING id)
     INSERT INTO world_orders (world_id, seq, actor, user_id, kind, bot, "order", events, patch)
     SELECT w.id, r.seq, r.actor, r.user_id, r.kind, r.bot, r.ord, r.events, r.patch
       FROM w, jsonb_to_recordset($7::jsonb)
         AS r(seq int, actor text, user_id uuid, kind text, bot text, ord jsonb, events jsonb, patch jsonb)
     RETURNING seq`,
    [
      worldId,
      head.version,
      head.stepKey,
      head.deadlineAt,
      head.status,
      fromVersion,
      JSON.stringify(recs),
      allowPaused,
      guard?.sessionId ?? null,
      guard?.userId ?? null,
      guard?.playerId ?? null,
    ],
    'bke_append_orders',
  );
  return out.length === rows.length;
}

export interface StoredOrder {
  seq: number;
  actor: string;
  kind: string;
  order: unknown;
  events: unknown;
  patch: unknown;
}

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
 */
export async function readOrderPage(db: Database, worldId: string, after: number, limit: number) {
  return db.sql<StoredOrder>(
    `SELECT seq, actor, kind, "order", events, patch FROM world_orders
      WHERE world_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [worldId, after, limit],
    'bke_read_order_page',
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
export const isRollback = (r: StoredOrder): boolean =>
  r.kind === 'rollback' && r.actor === 'system' && (r.order as { type?: string }).type === 'rollback';

/**
 * Applies stored rows to `state` through the engine; a rollback row takes the restored state from
 * the snapshot written with it.
 */
export async function replayRows(
  db: Database,
  engine: Engine,
  worldId: string,
  state: GameState,
  rows: StoredOrder[],
  onApplied?: (row: StoredOrder, state: GameState, events: GameEvent[]) => Promise<void> | void,
): Promise<GameState> {
  let s = state;
  for (const r of rows) {
    let events: GameEvent[] = [];
    if (isRollback(r)) {
      const [snap] = await db.sql<{ state: unknown }>(
        'SELECT state FROM world_snapshots WHERE world_id = $1 AND seq = $2',
        [worldId, r.seq],
      );
      if (!snap) throw new Error(`world ${worldId}: rollback ${r.seq} has no snapshot`);
      s = upgradeState(snap.state);
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
