/**
 * A world recorded by an older engine (state schema 1: the whole record sheet and every finished
 * cycle inside the state) still loads, plays on, rebuilds and re-projects on today's server. The
 * fixture is stored the way the server stores a world: setup, log rows with events and patches,
 * snapshots with their hashes (packages/engine/test/fixtures).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { startRangeWorkers, stopRangeWorkers } from '../src/worlds/range-workers.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { rebuildInRanges } from '../src/worlds/rebuild-parallel.ts';
import { recorded, storeRecordedWorld } from './helpers/recorded-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

interface OldRow {
  player: string;
  cycle: number;
  turn: number;
  vp: number;
  treasury: number;
  adminResult: { roll: number } | null;
}

let t: TestDatabase;
let worldId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  const user = await createUser(t.db, 'recorder', 'password123');
  worldId = await storeRecordedWorld(t.db, user!.id);
});
afterAll(async () => {
  await t?.dispose();
});

describe('a world recorded with state schema 1', () => {
  it('rebuilds without a problem, checking every old snapshot, and re-projects the ledger and cycles', async () => {
    const report = await rebuildWorld(t.db, worldId, true);
    expect(report.problems).toEqual([]);
    expect(report.orders).toBe(recorded.version);
    expect(report.snapshotsChecked).toBe(recorded.snapshots.length);
    const rows = await t.db.prisma.vpLedgerRow.count({ where: { worldId, column: 'vpTotal' } });
    expect(rows).toBeGreaterThan(100);
    const ended = await t.db.prisma.worldCycle.findMany({ where: { worldId, endTurn: { not: null } } });
    expect(ended.length).toBe(6); // 1 + 1 + 2 + 2 finished cycles
    expect(ended.every((c) => c.endReason !== null)).toBe(true);
    // The re-projected VP ledger holds the very record sheet the old engine kept in its state.
    const old = (recorded.snapshots.at(-1)!.state as unknown as { realm: { ledger: OldRow[] } }).realm.ledger;
    const cells = await t.db.prisma.vpLedgerRow.findMany({ where: { worldId } });
    const cell = (r: OldRow, column: string) =>
      cells.find(
        (c) => c.playerId === r.player && c.cycle === r.cycle && c.turn === r.turn && c.column === column,
      );
    for (const r of old) {
      expect(cell(r, 'vpTotal')?.value).toBe(r.vp);
      expect(cell(r, 'treasury')?.value).toBe(r.treasury);
      if (r.adminResult) expect(cell(r, 'adminResult')?.value).toBe(r.adminResult.roll);
    }
  });

  it('the former rebuild, loading everything at once, reports the same', async () => {
    const streamed = await rebuildWorld(t.db, worldId);
    const loaded = await rebuildWorld(t.db, worldId, { allAtOnce: true });
    expect(loaded).toEqual(streamed);
  });

  it('replayed in stretches side by side in worker threads, it reports the same', async () => {
    const workers = startRangeWorkers(2, new URL('../src/cli/rebuild-worker.ts', import.meta.url));
    try {
      const inTurn = await rebuildWorld(t.db, worldId);
      // Cut at its old snapshots, each later stretch starting from a state of the old shape.
      const sideBySide = await rebuildInRanges(t.db, worldId, { workers });
      expect(sideBySide).toEqual(inTurn);
      expect(await rebuildWorld(t.db, worldId, { parallel: { workers } })).toEqual(inTurn);
    } finally {
      await stopRangeWorkers(workers);
    }
  });

  it('loads from its latest old snapshot in today’s shape, plays on, and still rebuilds', async () => {
    const hub = new WorldHub(t.db);
    const rt = await hub.get(worldId);
    expect(rt).not.toBeNull();
    if (!rt) return;
    expect(rt.version).toBe(recorded.version);
    expect(rt.state.schema).toBe(2);
    expect(rt.state.players.map((p) => p.finished.count)).toEqual([1, 1, 2, 2]);
    // Orders go on: every waiting player's default orders, a few times over.
    for (let i = 0; i < 20; i++) {
      const waiting = rt.waitingFor();
      const p = waiting[0];
      if (!p) break;
      const order = hub.engine.timeoutOrders(rt.state, p)[0];
      if (!order) break;
      const r = await rt.run(() => rt.commit([{ actor: p, userId: null, kind: 'timeout', order }]));
      expect(r.ok).toBe(true);
    }
    await rt.settled();
    expect(rt.version).toBeGreaterThan(recorded.version);
    const report = await rebuildWorld(t.db, worldId);
    expect(report.problems).toEqual([]);
    expect(report.finalHash).toBe(hub.engine.hash(rt.state));
  });
});
