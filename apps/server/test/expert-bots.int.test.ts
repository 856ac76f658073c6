/**
 * Expert bots through the real server on a real database: a world of two Experts and a Strong bot
 * plays on by itself; each Expert's movement phase is searched on a worker thread (the driver's
 * search pool), within the world's budget, and its orders go through the same commit path as
 * everyone's, logged as the Expert's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { bots: { aloneMs: 0, expertMinMs: 20, expertMaxMs: 40 } }));
  alice = await signup(base, 'alice');
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

describe('expert bots', () => {
  it('search on a worker thread and play their turns through the commit path', async () => {
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Experts',
      deadline: { mode: 'live', minutesPerPhase: 1 },
      join: false,
      bots: ['expert', 'expert', 'strong'],
    });
    expect(created.status).toBe(200);
    const worldId = (created.body.world as { id: string }).id;
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    // 60 s phases: a three-hundredth is 200 ms, held to the bounds given.
    expect(app.bots?.expertBudgetMs(rt)).toBe(40);
    await waitFor('three game turns', () => rt.state.turn >= 4, 240_000);
    expect(app.bots?.searchTimes.length).toBeGreaterThan(0);
    const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId, bot: 'expert' } });
    expect(seats.length).toBe(2);
    const moves = await t.db.prisma.worldOrder.count({
      where: { worldId, kind: 'bot', bot: 'expert', actor: { in: seats.map((s) => s.playerId) } },
    });
    expect(moves).toBeGreaterThan(10);
    expect(await t.db.prisma.worldOrder.count({ where: { worldId, kind: 'timeout' } })).toBe(0);
  }, 300_000);
});
