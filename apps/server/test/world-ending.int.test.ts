/**
 * A world played until a game turn (14.3.1 game length; docs/rules-decisions.md, "A world's end")
 * reaches its end through the turn machine: the order that finishes the last turn is followed by
 * the engine's `endWorld`, the world closes, its final table is recorded and the person's ratings
 * change once. A second server's copy of the world (another WorldHub on the same database, as
 * another process holds it) cannot add an order after the end, nor end or rate it again.
 */
import { createBot, type PlayerId } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { serveApp } from './helpers/app.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let hubA: WorldHub;
let hubB: WorldHub;
let worldId = '';
let userId = '';
const LAST_TURN = 2;
const policy = createBot('easy', 'world-ending');

beforeAll(async () => {
  t = await openTestDatabase();
  hubA = new WorldHub(t.db);
  hubB = new WorldHub(t.db);
  const user = await createUser(t.db, 'finisher', 'password123');
  if (!user) throw new Error('account not created');
  userId = user.id;
  const created = await hubA.createWorld(userId, {
    name: 'Two turns',
    seed: 'world-ending',
    join: true,
    ending: { until: 'turn', turn: LAST_TURN, rated: true },
  });
  if (!created.ok) throw new Error(JSON.stringify(created));
  worldId = created.worldId;
  if (!(await hubA.join(worldId, { id: userId, username: 'finisher' })).ok) throw new Error('not seated');
  for (const level of ['easy', 'normal'] as const)
    if (!(await hubA.addBot(worldId, level, userId)).ok) throw new Error('bot not seated');
});
afterAll(async () => {
  await t?.dispose();
});

describe('a world played until turn 2', () => {
  it('refuses an ending without its turn, or with a date already past', async () => {
    const noTurn = await hubA.createWorld(userId, { name: 'x', ending: { until: 'turn' } }).catch((e) => e);
    expect(noTurn).toBeInstanceOf(Error);
    const past = await hubA.createWorld(userId, {
      name: 'x',
      ending: { until: 'date', at: '2001-01-01T00:00:00Z' },
    });
    expect(past).toMatchObject({ ok: false, error: { code: 'setup/invalid' } });
  });

  it('ends through the turn machine, closes, records its final table and rates once', async () => {
    const rtA = await hubA.get(worldId);
    const rtB = await hubB.get(worldId);
    if (!rtA || !rtB) throw new Error('no world');
    for (let i = 0; i < 3000; i++) {
      const r = await rtA.run(async () => {
        if (rtA.settings.status === 'closed') return 'closed' as const;
        const p = rtA.waitingFor()[0] as PlayerId | undefined;
        if (!p) throw new Error(`nobody waited for at turn ${rtA.state.turn}`);
        const order = policy.choose(hubA.engine, rtA.state, p) ?? hubA.engine.timeoutOrders(rtA.state, p)[0];
        const c = await rtA.commit([{ actor: p, userId: null, kind: 'bot', order }]);
        if (!c.ok) throw new Error(JSON.stringify(c.error));
        return 'played' as const;
      });
      if (r === 'closed') break;
    }
    await rtA.settled();
    expect(rtA.settings.status).toBe('closed');

    const world = await t.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
    expect(world.status).toBe('closed');
    const orders = await t.db.prisma.worldOrder.findMany({ where: { worldId }, orderBy: { seq: 'asc' } });
    const ends = orders.filter((o) => (o.order as { type?: string }).type === 'endWorld');
    expect(ends).toHaveLength(1);
    // The end is the last order, right after the one whose events finished turn 2.
    expect(orders.at(-1)?.seq).toBe(ends[0]?.seq);
    const before = orders.at(-2)?.events as { type: string; turn?: number }[];
    expect(before.some((e) => e.type === 'turnEnded' && e.turn === LAST_TURN)).toBe(true);
    const ended = ((ends[0]?.events ?? []) as { type: string; reason?: string }[])[0];
    expect(ended).toMatchObject({ type: 'worldEnded', reason: 'turnLimit' });

    const final = await t.db.prisma.ratedResult.findMany({ where: { worldId } });
    expect(final.map((r) => r.resultKey)).toEqual(['final']);
    const table = final[0]?.table as { userId: string | null; bot: string | null; rank: number }[];
    expect(table).toHaveLength(3);
    expect(table.filter((e) => e.userId === userId)).toHaveLength(1);
    expect(
      table
        .filter((e) => e.userId === null)
        .map((e) => e.bot)
        .sort(),
    ).toEqual(['easy', 'normal']);
    const ratings = await t.db.prisma.playerRating.findMany({ where: { userId }, orderBy: { pool: 'asc' } });
    expect(ratings.map((r) => [r.pool, r.results])).toEqual([
      ['all', 1],
      ['basic', 1],
    ]);

    // The other server's copy is behind: its order is refused once it catches up, and nothing is rated again.
    const p = rtB.waitingFor()[0] as PlayerId | undefined;
    if (!p) throw new Error('the second copy waits for nobody');
    const order = hubB.engine.timeoutOrders(rtB.state, p)[0];
    const late = await rtB.run(() => rtB.commit([{ actor: p, userId: null, kind: 'bot', order }]));
    expect(late).toMatchObject({ ok: false, error: { code: 'world/closed' } });
    await rtB.settled();
    expect(await t.db.prisma.worldOrder.count({ where: { worldId } })).toBe(orders.length);
    expect(await t.db.prisma.ratingChange.count({ where: { worldId } })).toBe(2);
  });

  it('serves the final table, the profile with its rating history, and a leaderboard without provisional ratings', async () => {
    const { app, base } = await serveApp(t.db);
    try {
      const get = async (path: string) => {
        const r = await fetch(`${base}${path}`);
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      const final = await get(`/api/worlds/${worldId}/final-table`);
      expect(final.status).toBe(200);
      const rows = final.body.rows as {
        username: string | null;
        rank: number;
        ratingBefore: number | null;
        provisional: boolean | null;
      }[];
      expect(rows.map((r) => r.rank)).toEqual([...rows.map((r) => r.rank)].sort((a, b) => a - b));
      const mine = rows.find((r) => r.username === 'finisher');
      expect(mine?.ratingBefore).toBe(1500);
      // One result taken in: the rating after it is still provisional; a bot's seat has none.
      expect(mine?.provisional).toBe(true);
      expect(rows.filter((r) => r.username === null).map((r) => r.provisional)).toEqual([null, null]);
      const profile = await get('/api/players/finisher');
      expect(profile.body.ratings).toMatchObject({ all: { provisional: true, results: 1 } });
      expect(profile.body.ratingHistory).toEqual([expect.objectContaining({ worldId, before: 1500 })]);
      // The final table is on the profile as a result: the place among the three seats, and the bots met.
      expect(profile.body.results).toEqual([
        expect.objectContaining({ worldId, worldName: 'Two turns', rank: mine?.rank, of: 3, rated: true }),
      ]);
      expect(profile.body.botsFaced).toEqual(['easy', 'normal']);
      // One result is not enough to leave the provisional list.
      expect((await get('/api/leaderboard')).body).toEqual({ pool: 'all', rows: [], provisional: 1 });
      expect((await get('/api/leaderboard?pool=sideways')).status).toBe(400);
      expect((await get(`/api/worlds/00000000-0000-4000-8000-000000000000/final-table`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
