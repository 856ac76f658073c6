/**
 * "Your move" for players who are away: a player sets a webhook (checked, tested from the account
 * settings); when a world starts waiting for that player while no socket of theirs is open on it,
 * the webhook gets one line with the world, the turn, the step, the deadline and a link — once per
 * step, however many orders follow.
 */
import { orderSchema } from '@bke/engine/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';

let t: TestDatabase;
let app: App;
let base: string;
let receiver: WebhookReceiver<{ content: string; bke: Record<string, unknown> }>;
let hook: string;
let received: { content: string; bke: Record<string, unknown> }[] = [];
let alice: string;
let bob: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { authPerAddress: { burst: 30, perMinute: 60 } },
    notifications: { publicUrl: 'https://bke.example.org/', allowPrivate: true },
  }));
  receiver = await startWebhookReceiver();
  hook = receiver.url;
  received = receiver.received;
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  receiver?.close();
  await t?.dispose();
});

describe('account notification settings', () => {
  it('are private to the account and checked', async () => {
    expect((await api(base, null, 'GET', '/api/account/notifications')).status).toBe(401);
    expect((await api(base, bob, 'GET', '/api/account/notifications')).body).toEqual({ webhookUrl: null });
    for (const bad of ['ftp://example.org/x', 'not an address', `https://x.org/${'a'.repeat(600)}`]) {
      const r = await api(base, bob, 'POST', '/api/account/notifications', { webhookUrl: bad });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: { code: 'http/invalid' } });
    }
    const extra = await api(base, bob, 'POST', '/api/account/notifications', { webhookUrl: null, more: 1 });
    expect(extra.status).toBe(400);
  });

  it('a test message needs a webhook, then reaches it', async () => {
    const none = await api(base, bob, 'POST', '/api/account/notifications/test', {});
    expect(none).toMatchObject({ status: 409, body: { error: { code: 'notify/no_webhook' } } });
    const set = await api(base, bob, 'POST', '/api/account/notifications', { webhookUrl: hook });
    expect(set.body).toEqual({ webhookUrl: hook });
    const test = await api(base, bob, 'POST', '/api/account/notifications/test', {});
    expect(test.body).toEqual({ delivered: true, status: 204 });
    expect(received.at(-1)?.content).toContain('bob');
    expect(received.at(-1)?.bke).toMatchObject({ test: true });
    received.length = 0;
  });
});

/** A correspondence world named `name` with alice and bob seated: its id, its seats, and Bob's. */
async function worldOfTwo(name: string) {
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name,
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
  });
  const worldId = (created.body.world as { id: string }).id;
  for (const c of [alice, bob]) await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {});
  const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId } });
  const bobId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'bob' } })).id;
  return { worldId, seats, bobId, bobPlayer: seats.find((s) => s.userId === bobId)?.playerId ?? '' };
}

describe('your move, while away', () => {
  it('tells an away player once per step, and not while its page is open', async () => {
    const { worldId, seats: users, bobPlayer } = await worldOfTwo('Long Winter');
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const seatOf = (p: string) => users.find((u) => u.playerId === p);

    // Plays whatever the world waits for; counts the steps at which Bob newly became waited for.
    const policy = { done: false };
    let becameMine = 0;
    let wasMine = rt.waitingFor().includes(bobPlayer as never);
    if (wasMine) becameMine++;
    const play = async (orders: number) => {
      for (let i = 0; i < orders; i++) {
        await rt.settled();
        const p = rt.waitingFor()[0];
        const seat = p && seatOf(p);
        if (!seat) throw new Error('nobody waited for');
        const order = pickOrder(app.hub.engine.legalOrders(rt.state, p), policy);
        if (!order) throw new Error(`stuck: ${p}`);
        const r = await app.hub.order(worldId, p, seat.userId!, rt.version, order);
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        const mine = rt.waitingFor().includes(bobPlayer as never);
        if (mine && !wasMine) becameMine++;
        wasMine = mine;
      }
    };
    await play(40);
    expect(becameMine).toBeGreaterThan(0);
    await waitFor('the notifications', () => received.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    const mine = received.filter((m) => m.content.startsWith('Your move in Long Winter'));
    expect(mine.length).toBe(received.length);
    // Once per step: never more lines than times Bob became waited for, never twice for one step.
    expect(mine.length).toBeLessThanOrEqual(becameMine);
    const steps = await t.db.prisma.worldSeat.findFirstOrThrow({ where: { worldId, playerId: bobPlayer } });
    expect(steps.notifiedKey).not.toBeNull();
    expect(mine[0]?.bke).toMatchObject({ worldId, world: 'Long Winter' });
    expect(mine[0]?.content).toContain(`https://bke.example.org/#/world/${worldId}`);
    expect(mine[0]?.content).toMatch(/turn \d+, .+\. Deadline \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);

    // With Bob's page open on the world, the page tells him; the webhook stays quiet.
    const page = new TestClient(base, bob, worldId);
    clients.push(page);
    expect((await page.subscribe()).ok).toBe(true);
    const before = received.length;
    const seen = becameMine;
    await play(40);
    expect(becameMine).toBeGreaterThan(seen);
    await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBe(before);

    // Bob closes the page. Once a fifth of a step's time is left, a reminder goes to him alone,
    // once for that step however often the reminders are looked for.
    page.close();
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 80 && !rt.waitingFor().includes(bobPlayer as never); i++) await play(1);
    expect(rt.waitingFor()).toContain(bobPlayer);
    const due = rt.head.deadlineAt?.getTime() ?? 0;
    const phase = 24 * 3600 * 1000;
    // (Bob, away again, was also told it is his move: let that land first.)
    await new Promise((r) => setTimeout(r, 300));
    received.length = 0;
    expect(await app.turns.remind(new Date(due - phase * 0.5))).toBe(0);
    expect(await app.turns.remind(new Date(due - phase * 0.1))).toBe(1);
    expect(await app.turns.remind(new Date(due - phase * 0.05))).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]?.content).toMatch(/^Reminder, 2 h 24 min left\. Your move in Long Winter: turn \d+/);
    expect(received[0]?.bke).toMatchObject({ reminder: true, worldId });
  });

  it('forgets a world it let go of, and tells nobody twice about a step once it is loaded again', async () => {
    const { worldId, seats, bobId, bobPlayer } = await worldOfTwo('Short Summer');
    const policy = { done: false };
    const play = async (p: string) => {
      const rt = await app.hub.get(worldId);
      if (!rt) throw new Error('no world');
      await rt.settled();
      const order = pickOrder(app.hub.engine.legalOrders(rt.state, p as never), policy);
      if (!order) throw new Error(`stuck: ${p}`);
      const user = seats.find((s) => s.playerId === p)?.userId ?? '';
      const r = await app.hub.order(worldId, p, user, rt.version, order);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    };
    // On to a step of Bob's in which he has an order that does not end it (a move, a split). He
    // was told when the world began to wait for him, maybe steps ago while others' orders went on.
    const world = async () => {
      const rt = await app.hub.get(worldId);
      if (!rt) throw new Error('no world');
      return rt;
    };
    const ownMove = async () => {
      const rt = await world();
      if (!rt.waitingFor().includes(bobPlayer as never)) return null;
      const legal = app.hub.engine.legalOrders(rt.state, bobPlayer as never) as Record<string, unknown>[];
      const split = legal.find((o) => o.type === 'split');
      if (split) return { type: 'split', tribe: split.tribe };
      const move = legal.find((o) => o.type === 'move');
      const to = (move?.destinations as { path: string[] }[] | undefined)?.[0];
      return move && to ? { type: 'move', unit: move.unit, path: to.path } : null;
    };
    for (let i = 0; i < 120 && !(await ownMove()); i++) await play((await world()).waitingFor()[0] ?? '');
    const own = await ownMove();
    if (!own) throw new Error('Bob never had an order that keeps his step');
    const order = orderSchema.parse(own);
    const step = (await world()).head.stepKey;
    const told = () => received.filter((m) => m.bke.worldId === worldId).length;
    await waitFor('Bob told about the world', () => told() > 0);
    await new Promise((r) => setTimeout(r, 200));
    const before = told();
    expect(app.turns.tracked()).toBeGreaterThan(0);

    // Nobody watches any world: the hub lets them all go, and the notifier keeps nothing of them.
    await (await world()).persisted();
    app.hub.unloadIdle(0);
    expect(app.hub.loaded()).toHaveLength(0);
    expect(app.turns.tracked()).toBe(0);

    // Loaded again, Bob's own order keeps his step: waited for all along, he is not told again.
    const rt = await world();
    const r = await app.hub.order(worldId, bobPlayer, bobId, rt.version, order);
    expect(r).toMatchObject({ ok: true });
    expect(rt.head.stepKey).toBe(step);
    expect(rt.waitingFor()).toContain(bobPlayer);
    await new Promise((r) => setTimeout(r, 300));
    expect(told()).toBe(before);
    expect(app.turns.tracked()).toBe(1);
  });
});
