/**
 * "Since you were last here" for one seat: the orders after the version the seat has seen, on the
 * play as it now stands (rollbacks cut out what they undid), each read through the engine's filter
 * for that seat (`eventsFor`), so nothing the seat may not see can reach a line; and the chat lines
 * addressed to that seat alone since it last looked. The seen version moves only forward
 * (docs/since-last.md says when the web moves it).
 */
import type { Engine, GameEvent, PlayerId } from '@bke/engine';
import type { SinceLast, SinceLastLine } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { timeline } from './game-record.ts';

/** Lines kept (the newest); older ones are only counted, so a year away stays one screen. */
const MAX_LINES = 300;

export interface SeenSeat {
  playerId: string;
  joinedAt: Date;
  seenVersion: number | null;
  seenAt: Date | null;
}

/** The caller's seat in the world (the one still held), with what it has seen; null: none. */
export async function seenSeat(db: Database, worldId: string, userId: string): Promise<SeenSeat | null> {
  const rows = await db.sql<{
    player_id: string;
    joined_at: Date;
    seen_version: number | null;
    seen_at: Date | null;
  }>(
    `SELECT player_id, joined_at, seen_version, seen_at FROM world_seats
      WHERE world_id = $1 AND user_id = $2 AND left_at IS NULL ORDER BY joined_at DESC LIMIT 1`,
    [worldId, userId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    playerId: r.player_id,
    joinedAt: new Date(r.joined_at),
    seenVersion: r.seen_version,
    seenAt: r.seen_at ? new Date(r.seen_at) : null,
  };
}

/** The game turn the world was at after order `seq` (0 before the first turn). */
async function turnAt(db: Database, worldId: string, seq: number): Promise<number> {
  const rows = await db.sql<{ turn: number | null }>(
    'SELECT max(turn) AS turn FROM world_turn_starts WHERE world_id = $1 AND seq <= $2',
    [worldId, seq],
  );
  return rows[0]?.turn ?? 0;
}

/** The lines one order's visible events give the seat `me`. */
function linesOf(events: readonly GameEvent[], me: PlayerId, turn: number, seq: number): SinceLastLine[] {
  const at = { turn, seq };
  const out: SinceLastLine[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'combatResolved':
        if (e.attacker === me || e.defender === me)
          out.push({
            kind: 'battle',
            ...at,
            role: e.attacker === me ? 'attacker' : 'defender',
            against: e.attacker === me ? e.defender : e.attacker,
            area: e.target,
            odds: e.odds,
            result: String(e.result),
          });
        break;
      case 'combatUnitsEliminated':
        if (e.player === me && e.units.length > 0)
          out.push({ kind: 'loss', ...at, units: e.units.length, area: e.area });
        break;
      case 'unitsRemoved':
      case 'realmUnitsRemoved':
        if (e.player === me && e.units.length > 0)
          out.push({ kind: 'loss', ...at, units: e.units.length, area: null });
        break;
      case 'cycleStarted':
        out.push({ kind: 'stage', ...at, player: e.player, stage: 'barbarian', reason: null });
        break;
      case 'becameKingdom':
        out.push({ kind: 'stage', ...at, player: e.player, stage: 'kingdom', reason: null });
        break;
      case 'becameEmpire':
        out.push({ kind: 'stage', ...at, player: e.player, stage: 'empire', reason: null });
        break;
      case 'cycleEnded':
        out.push({ kind: 'stage', ...at, player: e.player, stage: 'ended', reason: e.reason });
        break;
      case 'vpGained':
        if (e.player === me && e.vp !== 0) out.push({ kind: 'vp', ...at, vp: e.vp, total: e.total });
        break;
      case 'playerJoined':
        if (e.player !== me) out.push({ kind: 'joined', ...at, player: e.player });
        break;
      case 'playerLeft':
        if (e.player !== me) out.push({ kind: 'left', ...at, player: e.player });
        break;
      default:
        break;
    }
  }
  return out;
}

/** The summary for `seat` from what it has seen up to the world's `version`. */
export async function sinceLast(
  db: Database,
  engine: Engine,
  worldId: string,
  version: number,
  seat: SeenSeat,
): Promise<SinceLast> {
  const me = seat.playerId as PlayerId;
  const from = seat.seenVersion === null ? 0 : Math.min(seat.seenVersion, version);
  const fromTurn = await turnAt(db, worldId, from);
  let turn = fromTurn;
  let turnsPassed = 0;
  const lines: SinceLastLine[] = [];
  /** Each order's time, seq and turn after it: where a chat line falls. */
  const moments: { at: number; seq: number; turn: number }[] = [];
  for await (const r of timeline(db, worldId, version, true, from)) {
    const when = new Date(r.created_at).getTime();
    const raw = Array.isArray(r.events) ? (r.events as GameEvent[]) : [];
    // Never seen: the summary starts at the seat's joining (what came before is not "while away").
    const mine = when >= seat.joinedAt.getTime();
    // The seat's own view of the order's events, by the engine's rule for that seat.
    const visible = engine.eventsFor(raw, me);
    for (const e of visible) {
      if (e.type === 'turnStarted') {
        turn = e.turn;
        if (mine) turnsPassed += 1;
      }
    }
    if (mine) lines.push(...linesOf(visible, me, turn, r.seq));
    moments.push({ at: when, seq: r.seq, turn });
  }
  const since = seat.seenAt ?? seat.joinedAt;
  const chats = await db.sql<{ from_player_id: string | null; body: string; created_at: Date }>(
    `SELECT from_player_id, body, created_at FROM chat_messages
      WHERE world_id = $1 AND to_player_id = $2 AND deleted_at IS NULL AND created_at > $3
        AND (from_player_id IS NULL OR from_player_id <> $2)
        AND (system OR NOT EXISTS (SELECT 1 FROM chat_blocks b JOIN world_seats s ON s.user_id = b.user_id
                                    WHERE s.world_id = $1 AND s.player_id = $2
                                      AND b.blocked_user_id = chat_messages.from_user_id))
      ORDER BY id DESC LIMIT $4`,
    [worldId, me, since, MAX_LINES],
  );
  for (const c of chats.reverse()) {
    const t = new Date(c.created_at).getTime();
    const before = moments.filter((m) => m.at <= t).at(-1);
    lines.push({
      kind: 'chat',
      turn: before?.turn ?? fromTurn,
      seq: before?.seq ?? from,
      from: c.from_player_id,
      body: c.body.slice(0, 2000),
    });
  }
  lines.sort((a, b) => a.seq - b.seq);
  const vp = lines.filter((l) => l.kind === 'vp').map((l) => l.vp);
  const kept = lines.slice(-MAX_LINES);
  return {
    player: me,
    fromVersion: seat.seenVersion,
    toVersion: version,
    fromTurn,
    toTurn: turn,
    turnsPassed,
    vpWon: vp.filter((v) => v > 0).reduce((a, b) => a + b, 0),
    vpLost: -vp.filter((v) => v < 0).reduce((a, b) => a + b, 0),
    lines: kept,
    more: lines.length - kept.length,
  };
}

/**
 * Marks the seat seen up to `version` (never backwards, never beyond the world's last order);
 * returns the seen version, or null when the caller holds no seat.
 */
export async function markSeen(
  db: Database,
  worldId: string,
  userId: string,
  version: number,
): Promise<number | null> {
  const rows = await db.sql<{ seen_version: number }>(
    `UPDATE world_seats SET
        seen_version = GREATEST(COALESCE(seen_version, 0),
          LEAST($3::int, (SELECT COALESCE(max(seq), 0) FROM world_orders WHERE world_id = $1))),
        seen_at = now()
      WHERE world_id = $1 AND user_id = $2 AND left_at IS NULL
      RETURNING seen_version`,
    [worldId, userId, version],
  );
  return rows[0]?.seen_version ?? null;
}
