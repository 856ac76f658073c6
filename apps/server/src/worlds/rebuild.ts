/**
 * Rebuilds a world from its setup and order log through the current engine (a replay in the manner of
 * Rally the Troops) and checks it: every snapshot's hash, every stored patch (applied in turn
 * to the public view, they must give the engine's view at the end), and that the log has no gap
 * (its last seq, the world's version, is its number of orders).
 * `repair` rewrites the cycle and VP-ledger projections from the replayed events of the live
 * timeline (the whole-world re-projection; a rollback rewrites only what it undid).
 */

import type { GameState } from '@bke/engine';
import type { PatchOp } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { getEngine } from './engine.ts';
import { ProjectionBatch } from './projections.ts';
import {
  applyPatchAcrossShapes,
  initialPublicView,
  publicViewHash,
  type RebuildReport,
  type StoredSnapshot,
  snapshotProblems,
  VIEW_PROBLEM,
} from './rebuild-checks.ts';
import { type ParallelRebuild, rebuildInRanges } from './rebuild-parallel.ts';
import { LOG_VERSION, type PagedOrder, readOrderPage, readOrders, replayRows } from './store.ts';
import { worldStart } from './world-start.ts';

export type { RebuildReport };

export interface RebuildOptions {
  /** Also rewrite the cycle and VP-ledger projections from the replayed events. */
  repair?: boolean;
  /**
   * Load the whole log and every snapshot before replaying (the former way, memory growing with
   * the world's age; kept to compare with the streaming rebuild).
   */
  allAtOnce?: boolean;
  /**
   * Replay the stretches of the log between snapshots side by side in worker threads
   * (rebuild-parallel.ts); a check only, so not with `repair` or `allAtOnce`.
   */
  parallel?: ParallelRebuild;
}

/** Orders read per page when streaming the log. */
const PAGE = 500;

/**
 * Replays a world and checks it. Streams by default: the log is read a page at a time and each
 * snapshot is read when the replay reaches its seq, so memory stays bounded by a page and a state
 * whatever the world's age.
 */
export async function rebuildWorld(
  db: Database,
  worldId: string,
  repairOrOptions: boolean | RebuildOptions = false,
): Promise<RebuildReport> {
  const opts = typeof repairOrOptions === 'boolean' ? { repair: repairOrOptions } : repairOrOptions;
  const repair = opts.repair ?? false;
  if (opts.parallel && opts.parallel.workers.length > 0 && !repair && !opts.allAtOnce) {
    // Any problem found side by side is looked at again in turn: the report is then the one
    // replaying the log in turn gives, word for word.
    const report = await rebuildInRanges(db, worldId, opts.parallel);
    if (report && report.problems.length === 0) return report;
  }
  const engine = getEngine();
  const problems: string[] = [];
  // Raw SQL throughout the streaming path: the ORM's query engine would take more memory than
  // the replay itself (about 65 MB).
  const [world] = await db.sql<{ setup: unknown; version: number }>(
    `SELECT w.setup, ${LOG_VERSION} AS version FROM worlds w WHERE w.id = $1::uuid`,
    [worldId],
  );
  if (!world) throw new Error(`world ${worldId} not found`);
  const created = worldStart(engine, world.setup);
  if (!created.ok) {
    return {
      worldId,
      orders: 0,
      snapshotsChecked: 0,
      finalHash: '',
      problems: [`setup: ${created.error.code}`],
    };
  }
  const snapshots = opts.allAtOnce
    ? new Map((await db.prisma.worldSnapshot.findMany({ where: { worldId } })).map((s) => [s.seq, s]))
    : null;
  const snapshotSeqs = new Set(
    snapshots
      ? snapshots.keys()
      : (await db.sql<{ seq: number }>('SELECT seq FROM world_snapshots WHERE world_id = $1', [worldId])).map(
          (s) => s.seq,
        ),
  );
  let state: GameState = created.value;
  let view = initialPublicView(engine, state);
  let checked = 0;
  const check = async (seq: number) => {
    if (!snapshotSeqs.has(seq)) return;
    const snap =
      snapshots?.get(seq) ??
      (
        await db.sql<StoredSnapshot>(
          'SELECT state, hash FROM world_snapshots WHERE world_id = $1 AND seq = $2',
          [worldId, seq],
        )
      )[0];
    if (!snap) return;
    checked++;
    problems.push(...snapshotProblems(engine, seq, state, snap));
  };
  await check(0);
  // The orders a rollback row undid stay in the log and are replayed (the rollback row restores its
  // own snapshot after them), but their events are off the live timeline: not projected.
  const rollbacks = repair
    ? await db.sql<{ seq: number; to_seq: number }>(
        `SELECT seq, ("order"->>'toSeq')::int AS to_seq FROM world_orders
          WHERE world_id = $1 AND kind = 'rollback'`,
        [worldId],
      )
    : [];
  const undone = (seq: number) => rollbacks.some((r) => seq > r.to_seq && seq < r.seq);
  if (repair) {
    await db.prisma.worldCycle.deleteMany({ where: { worldId } });
    await db.prisma.vpLedgerRow.deleteMany({ where: { worldId } });
  }
  let orders = 0;
  const replayPage = async (rows: PagedOrder[]) => {
    const batch = new ProjectionBatch();
    state = await replayRows(db, engine, worldId, state, rows, async (r, next, events) => {
      state = next;
      try {
        view = applyPatchAcrossShapes(view, r.patch as PatchOp[]);
      } catch (e) {
        problems.push(`order ${r.seq}: stored patch does not apply (${String(e)})`);
      }
      if (repair && !undone(r.seq)) batch.add(r.seq, next, events);
      await check(r.seq);
    });
    if (repair) await batch.write(db, worldId);
    orders += rows.length;
  };
  try {
    if (opts.allAtOnce) await replayPage(await readOrders(db, worldId, 0));
    // Streamed: the next page is read while this one replays, so the engine never waits on the database.
    else
      for (let next = readOrderPage(db, worldId, 0, PAGE); ; ) {
        const rows = await next;
        if (rows.length === 0) break;
        next = readOrderPage(db, worldId, rows.at(-1)!.seq, PAGE);
        // A page that failed is looked at only if it is awaited; a replay stopped short never is.
        next.catch(() => {});
        await replayPage(rows);
      }
  } catch (e) {
    problems.push(String(e instanceof Error ? e.message : e));
  }
  if (publicViewHash(view) !== publicViewHash(engine.view(state, null))) problems.push(VIEW_PROBLEM);
  if (orders !== world.version) problems.push(`log has ${orders} orders, its last seq is ${world.version}`);
  return { worldId, orders, snapshotsChecked: checked, finalHash: engine.hash(state), problems };
}
