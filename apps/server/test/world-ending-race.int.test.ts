/**
 * The end of a world is rated once when two server copies of it (two WorldHubs on one database, as
 * two processes hold a world) both reach its last turn at the same moment: each commits the order
 * that finishes the last turn at once; one lands, the other is refused on the log's next sequence
 * number, and the world ends, closes and changes ratings once (worlds/world-ending.ts).
 */
import { createBot, type Order, type PlayerId } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let hubA: WorldHub;
let hubB: WorldHub;
let worldId = '';
const LAST_TURN = 2;
const policy = createBot('easy', 'world-ending-race');
const users: string[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  hubA = new WorldHub(t.db);
  hubB = new WorldHub(t.db);
  for (const name of ['racer1', 'racer2']) {
    const u = await createUser(t.db, name, 'password123');
    if (!u) throw new Error('account not created');
    users.push(u.id);
  }
  const created = await hubA.createWorld(users[0] as string, {
    name: 'Photo finish',
    seed: 'world-ending-race',
    join: true,
    ending: { until: 'turn', turn: LAST_TURN, rated: true },
  });
  if (!created.ok) throw new Error(JSON.stringify(created));
  worldId = created.worldId;
  if (!(await hubA.join(worldId, { id: users[0] as string, username: 'racer1' })).ok)
    throw new Error('not seated');
  if (!(await hubA.addBot(worldId, 'easy', users[0] as string)).ok) throw new Error('bot not seated');
});
afterAll(async () => {
  await t?.dispose();
});

describe('two copies of a world reaching its last turn together', () => {
  it('end it, close it and rate it once', async () => {
    const rtA = await hubA.get(worldId);
    if (!rtA) throw new Error('no world');
    // Play until the next order would finish the last turn; keep that order.
    let last: { p: PlayerId; order: Order } | null = null;
    for (let i = 0; i < 3000 && !last; i++) {
      last = await rtA.run(async () => {
        const p = rtA.waitingFor()[0] as PlayerId | undefined;
        if (!p) throw new Error(`nobody waited for at turn ${rtA.state.turn}`);
        const order = (policy.choose(hubA.engine, rtA.state, p) ??
          hubA.engine.timeoutOrders(rtA.state, p)[0]) as Order;
        const next = hubA.engine.applyOrder(rtA.state, p, order);
        if (next.ok && next.value.state.turn > LAST_TURN) return { p, order };
        const c = await rtA.commit([{ actor: p, userId: null, kind: 'bot', order }]);
        if (!c.ok) throw new Error(JSON.stringify(c.error));
        return null;
      });
    }
    if (!last) throw new Error('the last turn was never about to end');
    await rtA.settled();
    const { p, order } = last;
    // The second copy is loaded now: it stands where the first does, one order from the end.
    const rtB = await hubB.get(worldId);
    if (!rtB) throw new Error('no world');
    expect(rtB.version).toBe(rtA.version);

    const both = await Promise.all(
      [rtA, rtB].map((rt) => rt.run(() => rt.commit([{ actor: p, userId: null, kind: 'bot', order }]))),
    );
    await Promise.all([rtA.settled(), rtB.settled()]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);

    const world = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(world.status).toBe('closed');
    const orders = await t.db.prisma.worldOrder.findMany({ where: { worldId } });
    expect(orders.filter((o) => (o.order as { type?: string }).type === 'endWorld')).toHaveLength(1);
    expect((await t.db.prisma.ratedResult.findMany({ where: { worldId } })).map((r) => r.resultKey)).toEqual([
      'final',
    ]);
    // One person and one bot at the table: the person's two pools (all, basic) change once each.
    expect(await t.db.prisma.ratingChange.count({ where: { worldId } })).toBe(2);
    const ratings = await t.db.prisma.playerRating.findMany({ where: { userId: users[0] } });
    expect(ratings.map((r) => r.results)).toEqual([1, 1]);
  });
});
