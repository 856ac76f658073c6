/**
 * A game record opened from a file (docs/game-records.md): read and checked with the protocol's
 * schema in the page, each refusal a typed code the words module puts in a sentence; then told as
 * a story turn by turn from the events it holds.
 */
import { type GameRecord, parseRecord, type RecordResult, routeUrl, type WorldEvent } from '@bke/protocol';
import type { LoggedEvent } from './link.ts';

/** Where a world's record is downloaded (the record the caller may see). */
export const recordHref = (worldId: string): string => routeUrl('worldRecord', { params: { id: worldId } });

/** A record file's text, parsed and checked; the largest file the page reads, in bytes. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export function readRecordText(text: string): RecordResult<GameRecord> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: 'record/invalid', message: 'the file is not JSON' } };
  }
  return parseRecord(raw);
}

/**
 * The events a record holds (a viewer's record: those it was sent; a finished world's: all of
 * them), each with the game turn it happened in: a `turnStarted` event begins its turn (events
 * before the first belong to turn 0, the set-up).
 */
export function recordLog(record: GameRecord): LoggedEvent[] {
  const out: LoggedEvent[] = [];
  let turn = 0;
  for (const o of record.orders)
    for (const e of o.events ?? []) {
      const event = e as unknown as WorldEvent;
      if (event.type === 'turnStarted' && typeof (event as { turn?: unknown }).turn === 'number')
        turn = (event as { turn: number }).turn;
      out.push({ seq: o.seq, turn, event });
    }
  return out;
}

/** The players' names as the record's `join` orders and set-up give them, by player id. */
export function recordPlayerNames(record: GameRecord): Map<string, string> {
  const names = new Map<string, string>(record.setup.players.map((p) => [p.id, p.name]));
  for (const o of record.orders) if (o.order?.type === 'join') names.set(o.order.player, o.order.name);
  return names;
}

/** A line saying what the record is, for the top of the page. */
export function recordTitle(record: GameRecord): string {
  const where = record.world ? `“${record.world.name}”` : 'A simulated game';
  const what =
    record.kind === 'complete'
      ? `complete record: ${record.orders.length} orders to game turn ${record.final.turn}, final state ${record.final.hash}`
      : `record as seen by ${record.viewer.seats.length ? `seat ${record.viewer.seats.join(', ')}` : 'a spectator'}: ${record.orders.length} orders to game turn ${record.final.turn}`;
  return `${where} — ${what}.`;
}
