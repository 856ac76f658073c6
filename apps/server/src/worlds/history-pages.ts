/**
 * The History further back than a page's first load: the events before a given order that a viewer
 * may see, on the log as it now stands. The walk starts from the world's head every time (store.ts
 * `recentEvents`), because an undo or a rollback after the asked-for order can take back orders
 * before it: only a walk from the head knows them. The walk is widened until it holds a page of
 * events before the order, or it reached the first order.
 */
import type { GameEvent } from '@bke/engine';
import type { HistoryPage } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { recentEvents } from './store.ts';

/** Events per page. */
const HISTORY_PAGE = 300;
/** The widest walk (events): beyond it, the page ends there and says there is more. */
const MAX_WALK = 400_000;

export async function historyBefore(
  db: Database,
  worldId: string,
  head: { version: number; turn: number },
  before: number,
  seen: (events: readonly GameEvent[]) => readonly GameEvent[],
): Promise<HistoryPage> {
  for (let limit = HISTORY_PAGE * 4; ; limit *= 4) {
    const walked = await recentEvents(db, worldId, head.version, head.turn, limit, seen);
    const older = walked.filter((e) => e.seq < before);
    const reachedStart = walked.length < limit;
    if (older.length >= HISTORY_PAGE || reachedStart || limit >= MAX_WALK) {
      return {
        events: older.slice(-HISTORY_PAGE),
        more: older.length > HISTORY_PAGE || !reachedStart,
      };
    }
  }
}
