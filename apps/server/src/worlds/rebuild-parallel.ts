/**
 * A rebuild's replay cut at snapshots into stretches that worker threads replay side by side
 * (rebuild-range.ts), while this thread reads the log and applies every stored patch to the
 * public view in turn. The engine's replay is nearly all of a rebuild's time, and a stretch can
 * start wherever a snapshot stores the state the log reached there.
 *
 * Why it checks what the replay in turn checks (rebuild.ts):
 * - The first stretch starts from the created game, as the replay in turn does. Every later one
 *   starts from the state stored in the snapshot at its first seq, and the stretch before it ends
 *   at that very seq and compares its replayed state with that snapshot, with the check the replay
 *   in turn makes there (the same hash of the same canonical JSON). So, stretch by stretch from
 *   the created game, each one starts from the state the replay in turn would have reached: every
 *   snapshot is compared with the replay from the setup, exactly once. A stretch's start snapshot
 *   is read once and handed to both stretches, so the one checked is the one started from.
 * - A stretch counts its rows: all of them, seq after seq, must be there up to its end (no gap), and
 *   the patches, read in one stream of their own, must count the same orders as the stretches and
 *   as the log's last seq.
 * - The stored patches are applied in turn to the public view from the created game's, and the
 *   result is compared with the view of the last stretch's final state.
 * - `rebuildWorld` uses this report only when nothing at all was found; any problem, a worker that
 *   failed, or a count that does not add up sends it back to the replay in turn, whose report is
 *   the one given. A world with a fault gets the same report, word for word, as before.
 *
 * Memory: each worker thread is a V8 heap of its own (the engine and the map loaded, one state and
 * one page of orders at a time), all in this one process, whose peak resident memory counts them.
 */

import type { GameState } from '@bke/engine';
import type { PatchOp } from '@bke/protocol';
import type { SqlDatabase } from '../db/sql-pool.ts';
import { getEngine } from './engine.ts';
import type { RangeWorker } from './range-workers.ts';
import {
  applyPatchAcrossShapes,
  initialPublicView,
  publicViewHash,
  type RebuildReport,
} from './rebuild-checks.ts';
import type { RangeAnswer, RangeMessage, RangeResult, SnapshotAt } from './rebuild-range.ts';
import { LOG_VERSION, readPatchPage, readReplayPage } from './store.ts';
import { worldStart } from './world-start.ts';

export interface ParallelRebuild {
  /** The worker threads replaying at once (range-workers.ts), each taking the next stretch in turn. */
  workers: readonly RangeWorker[];
}

/** Rows per page, read and handed to a worker at a time. */
const PAGE = 500;
/** The shortest stretch worth its start (a snapshot read and upgraded, a message each way). */
const SHORTEST = 400;

/** A stretch of the log: the orders after `from` up to `to` (null: to the log's end). */
export interface Stretch {
  from: number;
  to: number | null;
}

/**
 * Cuts the log (seqs 1..`version`) at `snapshots` strictly inside it into stretches for `workers`
 * workers that each take the next one when they are done: every stretch about a (2 × workers)th of
 * what is left after its start, so that they get shorter towards the end and no worker is left
 * replaying a long one while the others have nothing to do; none shorter than SHORTEST orders (a
 * quarter of a worker's share in a short log) but the last, which runs to the log's end.
 */
export function planStretches(snapshots: readonly number[], version: number, workers: number): Stretch[] {
  const inside = [...snapshots].filter((s) => s > 0 && s < version).sort((a, b) => a - b);
  const cuts: number[] = [];
  // A short log is still cut, in shorter stretches: what it costs is small there.
  const shortest = Math.min(SHORTEST, version / (4 * Math.max(1, workers)));
  for (let from = 0; ; ) {
    const left = version - from;
    const length = Math.max(shortest, left / (2 * Math.max(1, workers)));
    if (workers <= 1 || left - length < shortest) break;
    const ideal = from + length;
    let best: number | null = null;
    for (const s of inside)
      if (s > from && (best === null || Math.abs(s - ideal) < Math.abs(best - ideal))) best = s;
    if (best === null) break;
    cuts.push(best);
    from = best;
  }
  const bounds = [0, ...cuts];
  return bounds.map((from, i) => ({ from, to: bounds[i + 1] ?? null }));
}

/**
 * The world rebuilt in stretches; null when it cannot be (no such world, a setup that fails, or too
 * few snapshots to cut at): the replay in turn then reports what it finds.
 */
export async function rebuildInRanges(
  db: SqlDatabase,
  worldId: string,
  plan: ParallelRebuild,
): Promise<RebuildReport | null> {
  const engine = getEngine();
  const [world] = await db.sql<{ setup: unknown; version: number }>(
    `SELECT w.setup, ${LOG_VERSION} AS version FROM worlds w WHERE w.id = $1::uuid`,
    [worldId],
  );
  if (!world) return null;
  const created = worldStart(engine, world.setup);
  if (!created.ok) return null;
  const seqs = (
    await db.sql<{ seq: number }>('SELECT seq FROM world_snapshots WHERE world_id = $1 ORDER BY seq', [
      worldId,
    ])
  ).map((s) => s.seq);
  const stretches = planStretches(seqs, world.version, plan.workers.length);
  if (stretches.length < 2) return null;
  // The snapshots stretches start at, read once: the one a stretch starts from is the one the stretch
  // before it is checked against, even if a server thins snapshots meanwhile.
  const cuts = new Map(
    (
      await db.sql<SnapshotAt>(
        'SELECT seq, state, hash FROM world_snapshots WHERE world_id = $1 AND seq = ANY($2)',
        [worldId, stretches.slice(1).map((s) => s.from)],
      )
    ).map((s) => [s.seq, s]),
  );
  if (cuts.size !== stretches.length - 1) return null;

  const context: StretchContext = { db, worldId, seqs, cuts, created: created.value };
  const workers = plan.workers.slice(0, stretches.length);
  try {
    const [patches, results] = await Promise.all([
      applyPatches(db, worldId, initialPublicView(engine, created.value)),
      replayStretches(context, stretches, workers),
    ]);
    if (!results || patches.problem) return null;
    const last = results.at(-1);
    const orders = results.reduce((n, r) => n + r.orders, 0);
    const complete = stretches.every((s, i) => {
      const r = results[i];
      return (
        r &&
        r.problems.length === 0 &&
        r.orders === r.lastSeq - s.from &&
        (s.to === null || r.lastSeq === s.to)
      );
    });
    if (
      !complete ||
      !last ||
      orders !== patches.orders ||
      orders !== world.version ||
      last.viewHash !== publicViewHash(patches.view)
    )
      return null;
    return {
      worldId,
      orders,
      snapshotsChecked: results.reduce((n, r) => n + r.snapshotsChecked, 0),
      finalHash: last.finalHash,
      problems: [],
    };
  } catch {
    return null;
  }
}

interface StretchContext {
  db: SqlDatabase;
  worldId: string;
  /** The world's snapshot seqs, in order. */
  seqs: readonly number[];
  /** The snapshots stretches start at, by seq. */
  cuts: ReadonlyMap<number, SnapshotAt>;
  created: GameState;
}

/** Each stretch's result, in order; null when any worker failed. */
async function replayStretches(
  context: StretchContext,
  stretches: readonly Stretch[],
  workers: readonly RangeWorker[],
): Promise<RangeResult[] | null> {
  const results: Promise<RangeResult>[] = [];
  let next = 0;
  let failed = false;
  await Promise.all(
    workers.map(async (worker) => {
      while (!failed && next < stretches.length) {
        const i = next++;
        try {
          const { result } = await handStretch(context, stretches[i]!, i === stretches.length - 1, worker);
          result.catch(() => {});
          results[i] = result;
        } catch {
          failed = true;
        }
      }
    }),
  );
  if (failed) return null;
  try {
    return await Promise.all(results);
  } catch {
    return null;
  }
}

/**
 * Hands one stretch to one worker, its rows a page at a time, the next pages read while one
 * replays; done once the last message is handed over, its result to come. At most two pages of a
 * stretch are handed and not yet replayed: the worker has the next one at hand when it finishes a
 * page (the next stretch's first pages too, at the end of one), and a stretch's rows are never all
 * in memory.
 */
async function handStretch(
  { db, worldId, seqs, cuts, created }: StretchContext,
  stretch: Stretch,
  last: boolean,
  worker: RangeWorker,
): Promise<{ result: Promise<RangeResult> }> {
  const start = stretch.from === 0 ? null : cuts.get(stretch.from);
  if (stretch.from !== 0 && !start) throw new Error(`no snapshot at ${stretch.from}`);
  const end = stretch.to === null ? undefined : cuts.get(stretch.to);
  // The created game is checked against the snapshot at 0, as the replay in turn checks it.
  const atZero = stretch.from === 0 ? await snapshotsBetween(db, worldId, seqs, -1, 0) : [];
  const handed: Promise<RangeAnswer>[] = [];
  const hand = (m: RangeMessage) => {
    const answer = worker.request(m);
    answer.catch(() => {});
    handed.push(answer);
  };
  hand({
    type: 'start',
    worldId,
    from: stretch.from,
    state: start ? start.state : created,
    snapshots: atZero,
  });
  const read = (after: number) => readReplayPage(db, worldId, after, stretch.to, PAGE);
  let after = stretch.from;
  for (let pending = read(after); ; ) {
    const rows = await pending;
    if (rows.length === 0) break;
    const lastSeq = rows.at(-1)!.seq;
    pending = stretch.to !== null && lastSeq >= stretch.to ? Promise.resolve([]) : read(lastSeq);
    pending.catch(() => {});
    const snapshots = await snapshotsBetween(db, worldId, seqs, after, lastSeq);
    if (end && lastSeq >= end.seq) snapshots.push(end);
    hand({ type: 'page', rows, snapshots });
    if (handed.length > 2) await handed.shift();
    after = lastSeq;
  }
  hand({ type: 'end', last });
  const result = Promise.all(handed).then((answers) => {
    const answer = answers.at(-1);
    if (answer?.type !== 'ended') throw new Error('a worker did not end its stretch');
    return answer.result;
  });
  return { result };
}

/** The snapshots with seqs after `after` up to `upTo`, read only when the world has any there. */
async function snapshotsBetween(
  db: SqlDatabase,
  worldId: string,
  seqs: readonly number[],
  after: number,
  upTo: number,
): Promise<SnapshotAt[]> {
  if (!seqs.some((s) => s > after && s <= upTo)) return [];
  return db.sql<SnapshotAt>(
    'SELECT seq, state, hash FROM world_snapshots WHERE world_id = $1 AND seq > $2 AND seq <= $3',
    [worldId, after, upTo],
  );
}

/** The stored patches applied in turn to the public view, counting the orders they belong to. */
async function applyPatches(db: SqlDatabase, worldId: string, initial: unknown) {
  let view = initial;
  let orders = 0;
  let problem = false;
  for (let pending = readPatchPage(db, worldId, 0, PAGE); ; ) {
    const rows = await pending;
    if (rows.length === 0) break;
    pending = readPatchPage(db, worldId, rows.at(-1)!.seq, PAGE);
    pending.catch(() => {});
    for (const r of rows) {
      try {
        view = applyPatchAcrossShapes(view, r.patch as PatchOp[]);
      } catch {
        problem = true;
      }
    }
    orders += rows.length;
  }
  return { view, orders, problem };
}
