/**
 * Snapshot retention: at each new game turn older snapshots are thinned, keeping what loading,
 * rollback and rebuild need (the created game, every rollback's restored state, the latest turns
 * whole, recent turn starts, and one turn start in KEEP_EVERY_TURNS further back).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { KEEP_EVERY_TURNS, thinSnapshots } from '../src/worlds/snapshots.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let worldId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  const user = await createUser(t.db, 'keeper', 'password123');
  const world = await t.db.prisma.world.create({
    data: { name: 'Retention', setup: {}, rulesVersion: 'test', createdById: user!.id },
  });
  worldId = world.id;
});
afterAll(async () => {
  await t?.dispose();
});

/** Snapshots as the runtime writes them: one at each turn start (seq 10·turn) and one mid-turn. */
async function seed(turns: number, rollbackAt: number) {
  const rows: { seq: number; turn: number }[] = [{ seq: 0, turn: 0 }];
  for (let turn = 1; turn <= turns; turn++) rows.push({ seq: turn * 10, turn }, { seq: turn * 10 + 5, turn });
  await t.db.sql(
    `INSERT INTO world_snapshots (world_id, seq, state, hash)
     SELECT $1, r.seq, jsonb_build_object('turn', r.turn), 'h' FROM jsonb_to_recordset($2::jsonb) AS r(seq int, turn int)`,
    [worldId, JSON.stringify(rows)],
  );
  await t.db.sql(
    `INSERT INTO world_orders (world_id, seq, actor, kind, "order", events, patch)
     VALUES ($1, $2, 'system', 'rollback', '{"type":"rollback"}', '[]', '[]')`,
    [worldId, rollbackAt],
  );
}

describe('snapshot retention', () => {
  it('keeps seq 0, rollback snapshots, the last two turns, 20 recent turn starts and every 10th turn start', async () => {
    await seed(100, 235); // a rollback row at seq 235 (turn 23, mid-turn)
    const deleted = await thinSnapshots(t.db, worldId, 100);
    const kept = (
      await t.db.prisma.worldSnapshot.findMany({
        where: { worldId },
        select: { seq: true },
        orderBy: { seq: 'asc' },
      })
    ).map((s) => s.seq);
    expect(kept).toContain(0);
    expect(kept).toContain(235);
    // The last two turns whole, mid-turn snapshots included.
    expect(kept).toEqual(expect.arrayContaining([990, 995, 1000, 1005]));
    expect(kept).not.toContain(985);
    // Turn starts of turns 81–100, and of every 10th turn before.
    for (let turn = 81; turn <= 100; turn++) expect(kept).toContain(turn * 10);
    for (let turn = 10; turn <= 80; turn += KEEP_EVERY_TURNS) expect(kept).toContain(turn * 10);
    expect(kept).not.toContain(790);
    expect(kept).not.toContain(15);
    expect(kept.length + deleted).toBe(201);
    // Storage grows by a turn start in ten, not a snapshot per turn and per fifty orders.
    expect(kept.length).toBe(1 + 1 + 2 + 20 + 8);
    // A second pass at the same turn deletes nothing more.
    expect(await thinSnapshots(t.db, worldId, 100)).toBe(0);
  });
});
