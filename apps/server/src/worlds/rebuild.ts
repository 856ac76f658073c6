/**
 * Rebuilds a world from its setup and order log through the current engine (a replay in the manner of
 * Rally the Troops) and checks it: every snapshot's hash, every stored patch (applied in turn
 * to the public view, they must give the engine's view at the end), and that the log has no gap
 * (its last seq, the world's version, is its number of orders).
 * `repair` rewrites the cycle and VP-ledger projections from the replayed events of the live
 * timeline (the whole-world re-projection; a rollback rewrites only what it undid).
 */
import { type GameState, hashState, upgradeState, upgradeView } from '@bke/engine';
import { applyPatch, type PatchOp } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { getEngine } from './engine.ts';
import { ProjectionBatch } from './projections.ts';
import { LOG_VERSION, readOrderPage, readOrders, replayRows, type StoredOrder } from './store.ts';

export interface RebuildReport {
  worldId: string;
  orders: number;
  snapshotsChecked: number;
  finalHash: string;
  problems: string[];
}

export interface RebuildOptions {
  /** Also rewrite the cycle and VP-ledger projections from the replayed events. */
  repair?: boolean;
  /**
   * Load the whole log and every snapshot before replaying (the former way, memory growing with
   * the world's age; kept to compare with the streaming rebuild).
   */
  allAtOnce?: boolean;
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
  const engine = getEngine();
  const problems: string[] = [];
  // Raw SQL throughout the streaming path: the ORM's query engine would take more memory than
  // the replay itself (about 65 MB).
  const [world] = await db.sql<{ setup: unknown; version: number }>(
    `SELECT w.setup, ${LOG_VERSION} AS version FROM worlds w WHERE w.id = $1::uuid`,
    [worldId],
  );
  if (!world) throw new Error(`world ${worldId} not found`);
  const created = engine.createGame(world.setup);
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
  let view: unknown = engine.view(state, null);
  let checked = 0;
  const check = async (seq: number) => {
    if (!snapshotSeqs.has(seq)) return;
    const snap =
      snapshots?.get(seq) ??
      (
        await db.sql<{ state: unknown; hash: string }>(
          'SELECT state, hash FROM world_snapshots WHERE world_id = $1 AND seq = $2',
          [worldId, seq],
        )
      )[0];
    if (!snap) return;
    checked++;
    const h = engine.hash(state);
    // A snapshot written by an older engine is compared in the current shape; its stored hash
    // belongs to the state as stored.
    if (snap.hash !== hashState(snap.state))
      problems.push(`snapshot ${seq}: stored hash does not match its state`);
    if (hashState(upgradeState(snap.state)) !== h)
      problems.push(`snapshot ${seq}: stored state differs from the replay`);
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
  const replayPage = async (rows: StoredOrder[]) => {
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
    else
      for (let after = 0; ; ) {
        const rows = await readOrderPage(db, worldId, after, PAGE);
        if (rows.length === 0) break;
        await replayPage(rows);
        after = rows.at(-1)!.seq;
      }
  } catch (e) {
    problems.push(String(e instanceof Error ? e.message : e));
  }
  // Standings are derived from the players and options, which the comparison covers; patches
  // stored before views carried standings never updated them, so they are left out of it.
  const withoutStandings = (v: unknown) => ({ ...(v as object), standings: null }) as unknown as GameState;
  if (
    hashState(withoutStandings(upgradeView(view))) !== hashState(withoutStandings(engine.view(state, null)))
  )
    problems.push('the stored patches do not rebuild the public view');
  if (orders !== world.version) problems.push(`log has ${orders} orders, its last seq is ${world.version}`);
  return { worldId, orders, snapshotsChecked: checked, finalHash: engine.hash(state), problems };
}

/**
 * A stored patch applied to the view rebuilt so far. Patches written before an engine upgrade
 * describe views of the older shape; the first patch written after it may need the current shape,
 * so a patch that does not apply is tried again on the upgraded view.
 */
function applyPatchAcrossShapes(view: unknown, patch: PatchOp[]): unknown {
  try {
    return applyPatch(view, patch);
  } catch (e) {
    const upgraded = upgradeView(view);
    if (upgraded === view) throw e;
    return applyPatch(upgraded, patch);
  }
}
