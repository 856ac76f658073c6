/**
 * After a moderator rolls a world back to the start of a turn and the turn is played again, the
 * replay of that turn shows it as it was played since: the order that began it, then the orders
 * given after the rollback, none of those it undid.
 */
import { simplePolicy } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollbackWorld } from '../src/moderation/rollback.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { replayTurn } from '../src/worlds/replay.ts';
import { playBots, quietModContext, worldOfBots } from './helpers/bot-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let hub: WorldHub;

beforeAll(async () => {
  t = await openTestDatabase();
  hub = new WorldHub(t.db);
});
afterAll(async () => {
  await t?.dispose();
});

describe('the replay of a turn rolled back to', () => {
  it('shows the turn as played after the rollback, not the undone play', async () => {
    const { worldId, userId } = await worldOfBots(t.db, hub, {
      account: 'replayer',
      name: 'Replayed',
      seed: 'replay-after-rollback',
      victory: 'basic',
      level: 'easy',
    });
    await playBots(hub, worldId, simplePolicy('first play'), (turn) => turn >= 4);
    const back = await rollbackWorld(quietModContext(t.db, hub), worldId, 3, userId);
    if (!back.ok) throw new Error('rollback refused');
    const rolledAt = back.params.atSeq as number;
    await playBots(hub, worldId, simplePolicy('second play'), (turn) => turn >= 4);

    const replay = await replayTurn(t.db, hub.engine, worldId, 3, []);
    if (!replay) throw new Error('no replay of turn 3');
    // The turn as it stands: every order given after the rollback until turn 4 began.
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('no world');
    const live = await t.db.prisma.worldOrder.findMany({
      where: { worldId, seq: { gt: rolledAt } },
      orderBy: { seq: 'asc' },
      select: { seq: true },
    });
    const turn4 = await t.db.sql<{ seq: number }>(
      `SELECT seq FROM world_snapshots WHERE world_id = $1 AND turn = 4 AND seq > $2 ORDER BY seq LIMIT 1`,
      [worldId, rolledAt],
    );
    const began4 = turn4[0]?.seq ?? rt.version;
    // The order that began turn 3 (kept: the rollback returned to the state right after it), then
    // every order given after the rollback until turn 4 began.
    const began3 = back.params.toSeq as number;
    expect(replay.steps.map((s) => s.seq)).toEqual([
      began3,
      ...live.filter((o) => o.seq < began4).map((o) => o.seq),
    ]);
  });
});
