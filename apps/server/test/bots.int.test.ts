/**
 * Bots as seats and as stand-ins, through the real server on a real database: a world created with
 * bots, bots seated and removed by the creator only; a player going away with a strong bot standing
 * in, the bot playing the realm for several game turns through the same commit path as people, the
 * player coming back and playing on; the order log saying who ordered what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
let mod: string;
let worldId: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  // Bots alone in a world wait a second between commits by default; here they go at once.
  ({ app, base } = await serveApp(
    t.db,
    { bots: { aloneMs: 0 }, limits: { authPerAddress: { burst: 30, perMinute: 0.6 } } },
    (a) => registerModeration(a.http, t.db, a.hub, a.io, { limits: { burst: 100, perSecond: 10 } }),
  ));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  await createUser(t.db, 'mod1', 'password123', 'moderator');
  const r = await api(base, null, 'POST', '/api/auth/login', { username: 'mod1', password: 'password123' });
  if (!r.cookie) throw new Error('login failed');
  mod = r.cookie;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const world = async () => {
  const rt = await app.hub.get(worldId);
  if (!rt) throw new Error('no world');
  return rt;
};

describe('bots', () => {
  it('a world is created with its creator seated first and two bots, shown as bots', async () => {
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'With bots',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      join: true,
      bots: ['strong', 'easy'],
    });
    expect(created.status).toBe(200);
    const w = created.body.world as { id: string; status: string; seats: Record<string, unknown>[] };
    worldId = w.id;
    expect(w.status).toBe('running');
    expect(w.seats.map((s) => [s.playerId, s.username, s.bot, s.userId === null])).toEqual([
      ['p1', 'alice', null, false],
      ['p2', 'Strong bot 1', 'strong', true],
      ['p3', 'Easy bot 2', 'easy', true],
    ]);
  });

  it('only the creator (or a moderator) seats and removes bots; they join and leave by the rules', async () => {
    const refused = await api(base, bob, 'POST', `/api/worlds/${worldId}/bots`, { level: 'strong' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'world/not_creator' } });
    const added = await api(base, alice, 'POST', `/api/worlds/${worldId}/bots`, { level: 'strong' });
    expect(added.body).toEqual({ playerId: 'p4' });
    // Moderators read the bot's name in the world, as players do, never a seat id.
    const seats = await api(base, mod, 'GET', `/api/moderation/worlds/${worldId}/seats`);
    const p4 = (seats.body.seats as { playerId: string; username: string }[]).find(
      (x) => x.playerId === 'p4',
    );
    expect(p4?.username).toMatch(/^Strong bot \d$/);
    const notBot = await api(base, alice, 'POST', `/api/worlds/${worldId}/bots/p1/leave`, {});
    expect(notBot.body).toMatchObject({ error: { code: 'world/not_a_bot' } });
    const gone = await api(base, alice, 'POST', `/api/worlds/${worldId}/bots/p4/leave`, {});
    expect(gone.status).toBe(200);
    const systemOrders = await t.db.prisma.worldOrder.findMany({
      where: { worldId, kind: 'system' },
      orderBy: { seq: 'asc' },
    });
    expect(systemOrders.map((o) => (o.order as { type: string; player: string }).type)).toEqual([
      'join',
      'join',
      'join',
      'join',
      'leave',
    ]);
  });

  it('a strong bot stands in for an away player for several turns, then the player takes over', async () => {
    const rt = await world();
    const away = await api(base, alice, 'POST', `/api/worlds/${worldId}/away`, {
      away: true,
      standIn: 'strong',
    });
    expect(away.body).toEqual({ away: true, standIn: 'strong' });
    const listed = await api(base, null, 'GET', `/api/worlds/${worldId}`);
    const seat = (
      listed.body.world as { seats: { playerId: string; standIn: string | null; away: boolean }[] }
    ).seats[0];
    expect(seat).toMatchObject({ playerId: 'p1', away: true, standIn: 'strong' });
    const startTurn = rt.state.turn;
    await waitFor('three game turns played by the bots', () => rt.state.turn >= startTurn + 3, 240_000);

    const mine = await t.db.prisma.worldOrder.findMany({
      where: { worldId, actor: 'p1' },
      orderBy: { seq: 'asc' },
    });
    expect(mine.length).toBeGreaterThan(3);
    expect(mine.every((o) => o.kind === 'bot' && o.bot === 'strong' && o.userId === null)).toBe(true);
    const botsOwn = await t.db.prisma.worldOrder.count({
      where: { worldId, actor: 'p2', kind: 'bot', bot: 'strong' },
    });
    expect(botsOwn).toBeGreaterThan(3);
    expect(await t.db.prisma.worldOrder.count({ where: { worldId, kind: 'timeout' } })).toBe(0);
    // What the bot did for her is hers to see.
    const seen = await api(base, alice, 'GET', `/api/worlds/${worldId}/bot-orders`);
    const orders = seen.body.orders as { bot: string; order: { type: string } }[];
    // The stand-in plays on meanwhile: she sees every order it gave for her up to her request, so
    // as many as the log held before it and no more than it holds after it.
    const after = await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p1' } });
    expect(orders.length).toBeGreaterThanOrEqual(mine.length);
    expect(orders.length).toBeLessThanOrEqual(after);
    expect(orders.every((o) => o.bot === 'strong')).toBe(true);
    expect(orders.some((o) => o.order.type === 'chooseStart')).toBe(true);
    // Each in the turn it was given in: from the turn she went away in (the bot may have played on
    // before it was read), never backwards, up to the world's turn; an order that began a turn was
    // given in the one before it.
    const turns = (seen.body.orders as { turn: number }[]).map((o) => o.turn);
    expect(turns[0]).toBeGreaterThanOrEqual(1);
    expect(turns[0]).toBeLessThanOrEqual(startTurn);
    expect(turns.every((t, i) => i === 0 || t >= (turns[i - 1] ?? 0))).toBe(true);
    expect(new Set(turns).size).toBeGreaterThanOrEqual(3);
    expect(turns.at(-1)).toBeLessThanOrEqual(rt.state.turn);
    const began = (seen.body.orders as { turn: number; events: { type: string; turn?: number }[] }[]).filter(
      (o) => o.events.some((e) => e.type === 'turnStarted'),
    );
    for (const o of began) expect(o.events.find((e) => e.type === 'turnStarted')?.turn).toBe(o.turn + 1);

    // Back: the bot gives no further order for her; the world waits for her and she plays on.
    await api(base, alice, 'POST', `/api/worlds/${worldId}/away`, { away: false });
    await rt.settled();
    const before = await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p1', kind: 'bot' } });
    await waitFor('the world to wait for alice', () => rt.waitingFor().includes('p1' as never), 120_000);
    await new Promise((r) => setTimeout(r, 300));
    await rt.settled();
    expect(rt.waitingFor()).toContain('p1');
    expect(await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p1', kind: 'bot' } })).toBe(before);
    const c = new TestClient(base, alice, worldId);
    clients.push(c);
    expect((await c.subscribe()).ok && c.playerId).toBe('p1');
    // The bots played her realm for turns, so it may be waited for in a step the simple policy has
    // no answer for (a kingdom's plan, a retreat): then she gives what the engine would give for her
    // at the deadline, an order legal in the step.
    const hers = () =>
      pickOrder(c.legal, { done: true }) ?? app.hub.engine.timeoutOrders(rt.state, 'p1' as never)[0];
    // The other bots may still be playing their part of a step she shares with them: an order of
    // theirs landing between her subscribe and her order makes hers stale; she catches up and gives
    // it again, as the client does, for as long as they keep moving (a busy machine slows her, not them).
    let r = await c.order(hers());
    const until = Date.now() + 60_000;
    while (!r.ok && r.error.code === 'sync/stale' && Date.now() < until) {
      await c.until(Number(r.error.version ?? c.version));
      r = await c.order(hers());
    }
    // The refusal, if any, is printed whole: its code says which of the above did not hold.
    expect(r.ok ? r : { ...r, step: rt.state.step, legal: c.legal.map((o) => o.type) }).toMatchObject({
      ok: true,
    });
    const last = await t.db.prisma.worldOrder.findFirst({
      where: { worldId, actor: 'p1' },
      orderBy: { seq: 'desc' },
    });
    const aliceId = (await t.db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'alice' } })).id;
    expect(last).toMatchObject({ kind: 'player', bot: null, userId: aliceId });
  }, 300_000);

  it("a moderator hands an absent seat to a bot, which plays it in the player's place", async () => {
    const rt = await world();
    const joined = await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {});
    const playerId = (joined.body.seat as { playerId: string }).playerId;
    const marked = await api(
      base,
      mod,
      'POST',
      `/api/moderation/worlds/${worldId}/seats/${playerId}/absent`,
      {
        reason: 'Gone for weeks; the realm is kept alive',
        absent: true,
        standIn: 'easy',
      },
    );
    expect(marked.status).toBe(200);
    const seats = await api(base, mod, 'GET', `/api/moderation/worlds/${worldId}/seats`);
    expect((seats.body.seats as { playerId: string }[]).find((x) => x.playerId === playerId)).toMatchObject({
      absent: true,
      standIn: 'easy',
      bot: null,
    });
    // Alice is away too, so the bots play on until the seat has played a whole turn.
    await api(base, alice, 'POST', `/api/worlds/${worldId}/away`, { away: true, standIn: 'strong' });
    const from = rt.state.turn;
    await waitFor('a turn with the handed seat in play', () => rt.state.turn >= from + 2, 240_000);
    const played = await t.db.prisma.worldOrder.findMany({ where: { worldId, actor: playerId } });
    expect(played.length).toBeGreaterThan(0);
    expect(played.every((o) => o.kind === 'bot' && o.bot === 'easy')).toBe(true);
    await api(base, alice, 'POST', `/api/worlds/${worldId}/away`, { away: false });
  }, 300_000);
});
