/**
 * Rollback replays from the nearest kept snapshot, not from the created game: the start of a turn
 * found that way is the one the whole-log replay finds (same seq, same engine state hash), on a
 * timeline that an earlier rollback cut, and orders logged before that snapshot are never read
 * again (an order there that no longer applies does not stop a rollback to a later turn).
 */
import { simplePolicy } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollbackWorld, turnStartFromSnapshot } from '../src/moderation/rollback.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { playBots, quietModContext, worldOfBots } from './helpers/bot-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { replayTimeline } from './helpers/timeline.ts';

let t: TestDatabase;
let hub: WorldHub;
let worldId: string;
let userId: string;
const policy = simplePolicy('rollback-from-snapshot');

beforeAll(async () => {
  t = await openTestDatabase();
  hub = new WorldHub(t.db);
  ({ worldId, userId } = await worldOfBots(t.db, hub, {
    account: 'roller',
    name: 'Rolled',
    seed: 'rollback-from-snapshot',
    victory: 'basic',
    level: 'easy',
  }));
});
afterAll(async () => {
  await t?.dispose();
});

/** Plays the simulator's orders through the world's commit until game turn `turn` has begun. */
const playUntilTurn = (turn: number) => playBots(hub, worldId, policy, (now) => now >= turn);

const ctx = () => quietModContext(t.db, hub);

describe('rollback from the nearest snapshot', () => {
  it('finds every turn start the whole-log replay finds, across an earlier rollback', async () => {
    await playUntilTurn(6);
    const back = await rollbackWorld(ctx(), worldId, 4, userId);
    expect(back.ok).toBe(true);
    await playUntilTurn(7);
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('no world');
    const { starts } = await replayTimeline(t.db, worldId, rt.version);
    for (let turn = 1; turn <= 7; turn++) {
      const whole = starts.get(turn);
      const near = await turnStartFromSnapshot(t.db, worldId, turn, rt.version);
      expect(near && { seq: near.seq, hash: hub.engine.hash(near.state) }, `turn ${turn}`).toEqual(
        whole && { seq: whole.seq, hash: hub.engine.hash(whole.state) },
      );
    }
    expect(await turnStartFromSnapshot(t.db, worldId, 9, rt.version)).toBeNull();
  });

  it('does not read the orders before the snapshot it starts from', async () => {
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('no world');
    const start = await turnStartFromSnapshot(t.db, worldId, 6, rt.version);
    if (!start) throw new Error('no start of turn 6');
    // An early order that no longer applies: the whole-log replay stops on it, this one does not.
    const [early] = await t.db.sql<{ seq: number; order: unknown }>(
      `SELECT seq, "order" FROM world_orders WHERE world_id = $1 AND kind = 'bot' ORDER BY seq LIMIT 1`,
      [worldId],
    );
    if (!early) throw new Error('no early order');
    await t.db.sql(
      `UPDATE world_orders SET "order" = '{"type":"noSuchOrder"}' WHERE world_id = $1 AND seq = $2`,
      [worldId, early.seq],
    );
    try {
      await expect(replayTimeline(t.db, worldId, rt.version)).rejects.toThrow(/no longer applies/);
      const again = await turnStartFromSnapshot(t.db, worldId, 6, rt.version);
      expect(again && { seq: again.seq, hash: hub.engine.hash(again.state) }).toEqual({
        seq: start.seq,
        hash: hub.engine.hash(start.state),
      });
    } finally {
      await t.db.sql(`UPDATE world_orders SET "order" = $3::jsonb WHERE world_id = $1 AND seq = $2`, [
        worldId,
        early.seq,
        JSON.stringify(early.order),
      ]);
    }
  });

  it('replays the orders of the turn before when the order that began the turn has no snapshot', async () => {
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('no world');
    const { starts } = await replayTimeline(t.db, worldId, rt.version);
    const whole = starts.get(6);
    if (!whole) throw new Error('no start of turn 6');
    const [kept] = await t.db.sql<{ state: unknown; hash: string }>(
      'SELECT state, hash FROM world_snapshots WHERE world_id = $1 AND seq = $2',
      [worldId, whole.seq],
    );
    if (!kept) throw new Error('the start of turn 6 has no snapshot to take away');
    await t.db.sql('DELETE FROM world_snapshots WHERE world_id = $1 AND seq = $2', [worldId, whole.seq]);
    try {
      const near = await turnStartFromSnapshot(t.db, worldId, 6, rt.version);
      expect(near && { seq: near.seq, hash: hub.engine.hash(near.state) }).toEqual({
        seq: whole.seq,
        hash: hub.engine.hash(whole.state),
      });
    } finally {
      await t.db.sql(
        'INSERT INTO world_snapshots (world_id, seq, state, hash) VALUES ($1, $2, $3::jsonb, $4)',
        [worldId, whole.seq, JSON.stringify(kept.state), kept.hash],
      );
    }
  });
});
