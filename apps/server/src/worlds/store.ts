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

/** At most `limit` orders after seq `after`, in order (the log read a page at a time). */
export async function readOrderPage(db: Database, worldId: string, after: number, limit: number) {
  const rows = await db.prisma.worldOrder.findMany({
    where: { worldId, seq: { gt: after } },
    orderBy: { seq: 'asc' },
    take: limit,
    select: { seq: true, actor: true, kind: true, order: true, events: true, patch: true },
  });
  return rows as StoredOrder[];
}

/**
 * The world's last `limit` events up to `upTo` that a viewer may see: `seen` gives the part of one
 * order's events the viewer receives (the engine's `eventsFor`), and `index` is the place among
 * those, as in that viewer's patches. Turns are counted back from `turn`, the turn at `upTo`: events
 * before a `turnStarted` belong to the turn before it. The walk stops at a rollback row, whose
 * restored turn is known but not the turn of what it undid.
 */
export async function recentEvents(
  db: Database,
  worldId: string,
  upTo: number,
  turn: number,
  limit: number,
  seen: (events: readonly GameEvent[]) => readonly GameEvent[],
): Promise<RecentEvent[]> {
  const rows = await db.sql<{ seq: number; kind: string; events: unknown }>(
    `SELECT seq, kind, events FROM world_orders
      WHERE world_id = $1 AND seq <= $2 AND jsonb_array_length(events) > 0
      ORDER BY seq DESC LIMIT $3`,
    [worldId, upTo, limit],
  );
  const out: RecentEvent[] = [];
  let current = turn;
  for (const row of rows) {
    const events = Array.isArray(row.events)
      ? (seen(row.events as GameEvent[]) as unknown as RecentEvent['event'][])
      : [];
    for (let i = events.length - 1; i >= 0 && out.length < limit; i--) {
      const event = events[i];
      if (!event || typeof event.type !== 'string') continue;
      out.push({ seq: row.seq, index: i, turn: current, event });
      if (event.type === 'turnStarted' && typeof event.turn === 'number') current = event.turn - 1;
    }
    if (row.kind === 'rollback' || out.length >= limit) break;
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
      const snap = await db.prisma.worldSnapshot.findUnique({
        where: { worldId_seq: { worldId, seq: r.seq } },
      });
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
