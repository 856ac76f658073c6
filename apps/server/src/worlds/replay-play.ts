/**
 * A past game turn replayed through the engine from what the database gave for it (replay.ts reads
 * it): the starting snapshot's state, the orders of the play as it stands after it, and the seats
 * the viewer held. Pure: no database, so it runs on a replay thread (replay-pool.ts) as well as in
 * place. Each view is the engine's `view(state, viewer)` and each order's events pass
 * `eventsFor(events, viewer)`, exactly what the viewer received when the order was made: an
 * account sees an order as the seat it held at that moment; before it sat (or after it left) it
 * sees what spectators saw.
 */
import { type Engine, type GameEvent, type GameState, type PlayerId, upgradeState } from '@bke/engine';
import type { PatchOp, WorldEvent } from '@bke/protocol';
import { diffViews } from './diff.ts';
import { type ReplayedOrder, replayRowsWith } from './store.ts';

/** One seat an account held: its player, and when it sat and left (ms since the epoch). */
interface ReplaySeat {
  readonly playerId: string;
  readonly joinedAt: number;
  readonly leftAt: number | null;
}

/** An order of the play as it stands, with when it was given (ms since the epoch). */
export interface ReplayRow extends ReplayedOrder {
  readonly at: number;
}

/** Everything a replay needs, plain data (it crosses to a worker thread). */
export interface ReplayInput {
  readonly worldId: string;
  readonly turn: number;
  /** The stored state the replay starts from (taken before the turn began). */
  readonly state: unknown;
  /** The orders after that snapshot, none a rollback undid and no rollback row, in seq order. */
  readonly rows: readonly ReplayRow[];
  readonly seats: readonly ReplaySeat[];
}

export interface TurnReplay {
  readonly turn: number;
  readonly start: { readonly seq: number; readonly view: unknown };
  readonly steps: { seq: number; ops: PatchOp[]; events: WorldEvent[] }[];
}

/** Replays the turn; null when the rows never reach it. */
export async function playReplay(engine: Engine, input: ReplayInput): Promise<TurnReplay | null> {
  const { turn, seats } = input;
  const viewerAt = (s: GameState, at: number): PlayerId | null => {
    const seat = seats.find((x) => x.joinedAt <= at && (x.leftAt === null || x.leftAt >= at));
    return seat && s.players.some((p) => p.id === seat.playerId) ? (seat.playerId as PlayerId) : null;
  };
  let start: TurnReplay['start'] | null = null;
  let last: unknown = null;
  let before: GameState = upgradeState(input.state);
  let done = false;
  const steps: TurnReplay['steps'] = [];
  // The rows hold no rollback row (the reader leaves them out with the orders they undid), so no
  // restored state is ever asked for.
  const noRestore = (seq: number) => {
    throw new Error(`world ${input.worldId}: a replay was handed rollback row ${seq}`);
  };
  await replayRowsWith(
    noRestore,
    engine,
    input.worldId,
    before,
    input.rows,
    (r: ReplayRow, next, events: GameEvent[]) => {
      const prev = before;
      before = next;
      if (done) return;
      if (next.turn > turn && prev.turn <= turn) {
        done = start !== null;
        if (done) return;
      }
      if (next.turn !== turn) return;
      const viewer = viewerAt(next, r.at);
      if (start === null) {
        last = engine.view(prev, viewerAt(prev, r.at));
        start = { seq: r.seq - 1, view: last };
      }
      const v = engine.view(next, viewer);
      steps.push({
        seq: r.seq,
        ops: diffViews(last, v),
        events: engine.eventsFor(events, viewer) as unknown as WorldEvent[],
      });
      last = v;
    },
  );
  return start ? { turn, start, steps } : null;
}
