/**
 * A world's game record (docs/game-records.md), read from its order log: the complete record of a
 * finished world, or one viewer's record of a world still in play. The complete record carries
 * the seed and every order of the play as it now stands, and the hash of the state the world holds
 * (which a replay of the record must reproduce). A viewer's record is built by a whitelist: an
 * order's body only when it is the viewer's own or the server's seat change, and of every order
 * only the events the engine lets that viewer see (`eventsFor`) — never the seed nor a hash.
 */
import {
  type CompleteRecord,
  type Engine,
  type GameEvent,
  type GameState,
  gameSetupSchema,
  type PlayerId,
  RECORD_FORMAT,
  RECORD_VERSION,
  type ViewerRecord,
} from '@bke/engine';
import type { Database } from '../db/database.ts';
import type { SeatSpan } from './replay.ts';

/** Orders read per page. */
const PAGE = 500;

/** The server's orders that change seats or end the world: their bodies (names, seats, colours, why it ended) are public. */
const PUBLIC_SYSTEM_ORDERS = new Set(['join', 'leave', 'forceAbandon', 'endWorld']);

/** The world as it stands: its state and the version (last seq) that state is after. */
export interface WorldAt {
  readonly state: GameState;
  readonly version: number;
}

export interface LogRow {
  seq: number;
  actor: string;
  kind: string;
  order: unknown;
  events?: unknown;
  created_at: Date;
}

/**
 * The orders up to `version` on the play as it now stands: a rollback row at `at` that went back to
 * `toSeq` cuts out the orders after `toSeq` up to and including itself (the state it restored is
 * the one its undone orders started from, moderation/rollback.ts). `from`: only the orders after it.
 */
export async function* timeline(
  db: Database,
  worldId: string,
  version: number,
  withEvents: boolean,
  from = 0,
) {
  const cuts = await db.sql<{ at: number; to: number }>(
    `SELECT seq AS at, ("order"->>'toSeq')::int AS "to" FROM world_orders
      WHERE world_id = $1 AND kind = 'rollback' AND seq <= $2`,
    [worldId, version],
  );
  const undone = (seq: number) => cuts.some((c) => seq > c.to && seq <= c.at);
  let after = from;
  for (;;) {
    const rows = await db.sql<LogRow>(
      `SELECT seq, actor, kind, "order", ${withEvents ? 'events,' : ''} created_at FROM world_orders
        WHERE world_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
      [worldId, after, version, PAGE],
    );
    if (rows.length === 0) return;
    after = rows.at(-1)?.seq ?? after;
    for (const r of rows) if (!undone(r.seq)) yield r;
  }
}

async function worldRow(db: Database, worldId: string) {
  const w = await db.prisma.world.findUnique({
    where: { id: worldId },
    select: { id: true, name: true, status: true, setup: true, rulesVersion: true },
  });
  if (!w) return null;
  const setup = gameSetupSchema.parse(w.setup);
  return { ...w, setup };
}

const iso = (d: Date) => new Date(d).toISOString();

/** The complete record of a world (the caller decides who may have it: docs/game-records.md). */
export async function completeRecord(
  db: Database,
  engine: Engine,
  worldId: string,
  at: WorldAt,
): Promise<CompleteRecord | null> {
  const w = await worldRow(db, worldId);
  if (!w) return null;
  const orders: CompleteRecord['orders'] = [];
  for await (const r of timeline(db, worldId, at.version, true)) {
    orders.push({
      seq: r.seq,
      actor: r.actor as CompleteRecord['orders'][number]['actor'],
      kind: r.kind as CompleteRecord['orders'][number]['kind'],
      at: iso(r.created_at),
      order: r.order as CompleteRecord['orders'][number]['order'],
      // Every event, each player's private dealings included: the world is over (docs/game-records.md).
      events: (Array.isArray(r.events) ? r.events : []) as NonNullable<
        CompleteRecord['orders'][number]['events']
      >,
    });
  }
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    kind: 'complete',
    rulesVersion: w.rulesVersion,
    mapVersion: at.state.mapVersion,
    world: { id: w.id, name: w.name, status: w.status, takenAt: new Date().toISOString() },
    setup: { seed: w.setup.seed, options: w.setup.options, players: w.setup.players },
    orders,
    final: { turn: at.state.turn, hash: engine.hash(at.state) },
  };
}

/** The seat an account held when an order was committed (as the replay of a past turn decides it). */
const seatAt = (seats: readonly SeatSpan[], when: Date): PlayerId | null => {
  const t = when.getTime();
  const s = seats.find((x) => x.joinedAt.getTime() <= t && (x.leftAt === null || x.leftAt.getTime() >= t));
  return s ? (s.playerId as PlayerId) : null;
};

/** One viewer's record of a world (an account holding `seats`; none: a spectator). */
export async function viewerRecord(
  db: Database,
  engine: Engine,
  worldId: string,
  at: WorldAt,
  seats: readonly SeatSpan[],
): Promise<ViewerRecord | null> {
  const w = await worldRow(db, worldId);
  if (!w) return null;
  const orders: ViewerRecord['orders'] = [];
  for await (const r of timeline(db, worldId, at.version, true)) {
    const when = new Date(r.created_at);
    const viewer = seatAt(seats, when);
    const events = Array.isArray(r.events) ? (r.events as GameEvent[]) : [];
    const type = (r.order as { type?: unknown } | null)?.type;
    const shown =
      (viewer !== null && r.actor === viewer) ||
      (r.actor === 'system' &&
        r.kind === 'system' &&
        typeof type === 'string' &&
        PUBLIC_SYSTEM_ORDERS.has(type));
    orders.push({
      seq: r.seq,
      at: iso(when),
      ...(shown
        ? {
            actor: r.actor as ViewerRecord['orders'][number]['actor'] & string,
            kind: r.kind as NonNullable<ViewerRecord['orders'][number]['kind']>,
            order: r.order as NonNullable<ViewerRecord['orders'][number]['order']>,
          }
        : {}),
      events: engine.eventsFor(events, viewer) as unknown as ViewerRecord['orders'][number]['events'],
    });
  }
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    kind: 'viewer',
    rulesVersion: w.rulesVersion,
    mapVersion: at.state.mapVersion,
    world: { id: w.id, name: w.name, status: w.status, takenAt: new Date().toISOString() },
    viewer: { seats: [...new Set(seats.map((s) => s.playerId as PlayerId))] },
    setup: { options: w.setup.options, players: w.setup.players },
    orders,
    final: { turn: at.state.turn },
  };
}
