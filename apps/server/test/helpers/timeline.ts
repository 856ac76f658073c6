/**
 * The reference the rollback's bounded reads are compared with: the whole log replayed through the
 * engine from the created game (snapshot 0) along the live timeline, as the server once did for
 * every rollback and every list of turns.
 */
import { type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { Database } from '../../src/db/database.ts';
import { ROLLBACK_KIND, restoredState, type TurnStart } from '../../src/moderation/rollback.ts';
import { getEngine } from '../../src/worlds/engine.ts';

/**
 * Replays the log up to `upTo` and returns where each game turn began on the live timeline (an
 * earlier rollback row cuts off the orders it undid) and the final state. Throws when a logged
 * order no longer applies.
 */
export async function replayTimeline(db: Database, worldId: string, upTo: number) {
  const engine = getEngine();
  const first = await db.prisma.worldSnapshot.findUnique({ where: { worldId_seq: { worldId, seq: 0 } } });
  if (!first) throw new Error(`world ${worldId} has no snapshot 0`);
  let state: GameState = upgradeState(first.state);
  const starts = new Map<number, TurnStart>([[state.turn, { turn: state.turn, seq: 0, state }]]);
  const rows = await db.prisma.worldOrder.findMany({
    where: { worldId, seq: { gt: 0, lte: upTo } },
    orderBy: { seq: 'asc' },
    select: { seq: true, actor: true, kind: true, order: true },
  });
  for (const r of rows) {
    if (r.kind === ROLLBACK_KIND) {
      const toSeq = (r.order as { toSeq: number }).toSeq;
      for (const [t, s] of starts) if (s.seq > toSeq) starts.delete(t);
      state = await restoredState(db, worldId, r.seq);
      continue;
    }
    const res = engine.applyOrder(state, r.actor as PlayerId | 'system', r.order);
    if (!res.ok) throw new Error(`world ${worldId}: logged order ${r.seq} no longer applies`);
    const before = state.turn;
    state = res.value.state;
    if (state.turn !== before && !starts.has(state.turn))
      starts.set(state.turn, { turn: state.turn, seq: r.seq, state });
  }
  return { starts, state };
}
