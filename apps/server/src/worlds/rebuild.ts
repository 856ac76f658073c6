/**
 * Rebuilds a world from its setup and order log through the current engine (a replay in the manner of
 * Rally the Troops) and checks it: every snapshot's hash, every stored patch (applied in turn
 * to the public view, they must give the engine's view at the end), and the head version.
 * `repair` rewrites the cycle and VP-ledger projections from the replayed events.
 */
import { type GameState, hashState, upgradeState, upgradeView } from '@bke/engine';
import { applyPatch, type PatchOp } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { getEngine } from './engine.ts';
import { projectEvents, readOrders, replayRows } from './store.ts';

export interface RebuildReport {
  worldId: string;
  orders: number;
  snapshotsChecked: number;
  finalHash: string;
  problems: string[];
}

export async function rebuildWorld(db: Database, worldId: string, repair = false): Promise<RebuildReport> {
  const engine = getEngine();
  const problems: string[] = [];
  const world = await db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
  const snapshots = new Map(
    (await db.prisma.worldSnapshot.findMany({ where: { worldId } })).map((s) => [s.seq, s]),
  );
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
  let state: GameState = created.value;
  let view: unknown = engine.view(state, null);
  let checked = 0;
  const check = (seq: number) => {
    const snap = snapshots.get(seq);
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
  check(0);
  if (repair) {
    await db.prisma.worldCycle.deleteMany({ where: { worldId } });
    await db.prisma.vpLedgerRow.deleteMany({ where: { worldId } });
  }
  const rows = await readOrders(db, worldId, 0);
  try {
    state = await replayRows(db, engine, worldId, state, rows, async (r, next, events) => {
      state = next;
      try {
        view = applyPatchAcrossShapes(view, r.patch as PatchOp[]);
      } catch (e) {
        problems.push(`order ${r.seq}: stored patch does not apply (${String(e)})`);
      }
      if (repair) await projectEvents(db, worldId, r.seq, next, events);
      check(r.seq);
    });
  } catch (e) {
    problems.push(String(e instanceof Error ? e.message : e));
  }
  if (hashState(upgradeView(view)) !== hashState(engine.view(state, null)))
    problems.push('the stored patches do not rebuild the public view');
  if (rows.length !== world.version)
    problems.push(`log has ${rows.length} orders, head says ${world.version}`);
  return { worldId, orders: rows.length, snapshotsChecked: checked, finalHash: engine.hash(state), problems };
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
