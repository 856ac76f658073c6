/**
 * The bot interface through the real server on a real database (docs/bot-interface.md): a person
 * makes a bot account and its token (shown once, only its hash kept); the token signs the program
 * in over HTTP and on the socket handshake as the bot account and nothing else — it cannot manage
 * bots, log in, read or order another seat, and its seat's view and legal orders are exactly the
 * engine's for that seat. Its orders take the hub's path (logged under the bot account, stale
 * versions refused). A revoked token is refused at its next request and its socket is closed.
 */
import { createHash } from 'node:crypto';
import type { PlayerId } from '@bke/engine';
import {
  HTTP_ROUTES,
  type IssuedTokenResponse,
  issuedTokenResponseSchema,
  seatViewResponseSchema,
} from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let owner: string;
let stranger: string;
let made: IssuedTokenResponse;
let worldId: string;
let otherWorldId: string;
const clients: TestClient[] = [];

/** A request as the program holding `token` sends it. */
async function asBot(token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-bke-csrf': '1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const seatPath = (id: string) => HTTP_ROUTES.seatView.path.replace(':id', id);
const ordersPath = (id: string) => HTTP_ROUTES.seatOrder.path.replace(':id', id);

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { bots: false }));
  owner = await signup(base, 'owner');
  stranger = await signup(base, 'stranger');
  const created = await api(base, owner, 'POST', '/api/worlds', { name: 'Bot table', join: true });
  worldId = (created.body.world as { id: string }).id;
  const other = await api(base, stranger, 'POST', '/api/worlds', { name: 'Not the bot’s', join: true });
  otherWorldId = (other.body.world as { id: string }).id;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

describe('bot accounts and their tokens', () => {
  it('a person makes a bot account; its token is shown once and only its hash is kept', async () => {
    const r = await api(base, owner, 'POST', HTTP_ROUTES.createBot.path, {
      username: 'robo',
      label: 'laptop',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    made = issuedTokenResponseSchema.parse(r.body);
    expect(made.token).toMatch(/^bke_bot_[A-Za-z0-9_-]{43}$/);
    const hash = createHash('sha256').update(made.token).digest('base64url');
    const rows = await t.db.sql<{ token_hash: string; bot: boolean; user_id: string }>(
      'SELECT token_hash, bot, user_id FROM sessions WHERE user_id = $1::uuid',
      [made.bot.id],
    );
    expect(rows).toEqual([{ token_hash: hash, bot: true, user_id: made.bot.id }]);
    // The list never holds the secret again.
    const list = await api(base, owner, 'GET', HTTP_ROUTES.listBots.path);
    expect(JSON.stringify(list.body)).not.toContain(made.token);
    expect(list.body.bots).toMatchObject([{ username: 'robo', tokens: [{ id: hash, label: 'laptop' }] }]);
    // Another person sees no bots of theirs, and cannot revoke this one's token.
    expect((await api(base, stranger, 'GET', HTTP_ROUTES.listBots.path)).body).toEqual({ bots: [] });
    const revoke = HTTP_ROUTES.revokeBotToken.path.replace(':botId', made.bot.id).replace(':tokenId', hash);
    expect((await api(base, stranger, 'POST', revoke, {})).body).toMatchObject({
      error: { code: 'bot/not_found' },
    });
  });

  it('the token signs in as the bot account only: it cannot log in, make bots or tokens', async () => {
    const me = await asBot(made.token, 'GET', HTTP_ROUTES.me.path);
    expect(me.body).toEqual({ user: { id: made.bot.id, username: 'robo', role: 'player', bot: true } });
    for (const password of ['password123', '!bot-account', '']) {
      const login = await api(base, null, 'POST', HTTP_ROUTES.login.path, { username: 'robo', password });
      expect(login.status).not.toBe(200);
    }
    const more = await asBot(made.token, 'POST', HTTP_ROUTES.createBot.path, {
      username: 'robo2',
      label: 'x',
    });
    expect(more.body).toMatchObject({ error: { code: 'bot/not_allowed' } });
    const token = await asBot(
      made.token,
      'POST',
      HTTP_ROUTES.createBotToken.path.replace(':botId', made.bot.id),
      { label: 'x' },
    );
    expect(token.body).toMatchObject({ error: { code: 'bot/not_allowed' } });
    const bad = await asBot('bke_bot_not-a-real-token-at-all-000000000000000', 'GET', HTTP_ROUTES.me.path);
    expect(bad.body).toEqual({ user: null });
  });

  it('the bot joins and reads exactly its own seat: the engine’s view and legal orders for it', async () => {
    const joined = await asBot(made.token, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    // Everyone reading the world sees the seat as a program's, with the person who runs it.
    const page = await api(base, stranger, 'GET', `/api/worlds/${worldId}`);
    const seatsSeen = (page.body.world as { seats: Record<string, unknown>[] }).seats;
    expect(seatsSeen.find((s) => s.username === 'robo')).toMatchObject({
      program: true,
      programOwner: 'owner',
    });
    expect(seatsSeen.find((s) => s.username === 'owner')).not.toHaveProperty('program');
    // Its profile names the person who runs it; a person's names nobody.
    expect((await api(base, stranger, 'GET', '/api/players/robo')).body).toMatchObject({
      username: 'robo',
      programOwner: 'owner',
    });
    expect((await api(base, stranger, 'GET', '/api/players/owner')).body).not.toHaveProperty('programOwner');
    const seats = await asBot(made.token, 'GET', HTTP_ROUTES.seatedWorlds.path);
    expect(seats.body.worlds).toMatchObject([{ worldId, name: 'Bot table', playerId: 'p2' }]);
    const r = await asBot(made.token, 'GET', seatPath(worldId));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const seat = seatViewResponseSchema.parse(r.body);
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    expect(seat.playerId).toBe('p2');
    expect(seat.version).toBe(rt.version);
    expect(JSON.parse(JSON.stringify(seat.view))).toEqual(
      JSON.parse(JSON.stringify(app.hub.engine.view(rt.state, 'p2' as PlayerId))),
    );
    expect(seat.view).not.toEqual(
      JSON.parse(JSON.stringify(app.hub.engine.view(rt.state, 'p1' as PlayerId))),
    );
    expect(seat.legal).toEqual(
      JSON.parse(JSON.stringify(app.hub.engine.legalOrders(rt.state, 'p2' as PlayerId))),
    );
    // A world where it holds no seat gives it no seat's view, and takes no order from it.
    const other = await asBot(made.token, 'GET', seatPath(otherWorldId));
    expect(other.body).toMatchObject({ error: { code: 'world/not_seated' } });
    const order = await asBot(made.token, 'POST', ordersPath(otherWorldId), {
      version: 0,
      order: { type: 'endPhase' },
    });
    expect(order.body).toMatchObject({ error: { code: 'world/not_seated' } });
  });

  it('its orders take the hub’s path for its own seat only, stored under the bot account', async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const split = { done: true };
    let botOrders = 0;
    let refusedForOther = 0;
    for (let i = 0; i < 200 && botOrders < 6; i++) {
      const waiting = rt.waitingFor();
      const seat = seatViewResponseSchema.parse((await asBot(made.token, 'GET', seatPath(worldId))).body);
      if (waiting.includes('p2' as PlayerId)) {
        const order = pickOrder(seat.legal as never, split);
        if (!order) throw new Error(`nothing to play: ${JSON.stringify(seat.legal)}`);
        const stale = await asBot(made.token, 'POST', ordersPath(worldId), {
          version: seat.version + 5,
          order,
        });
        expect(stale.body).toMatchObject({ error: { code: 'sync/stale', version: seat.version } });
        const r = await asBot(made.token, 'POST', ordersPath(worldId), { version: seat.version, order });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        botOrders++;
        continue;
      }
      // The world waits for the owner's seat: what that seat may order, the bot may not.
      const p1 = pickOrder(app.hub.engine.legalOrders(rt.state, 'p1' as PlayerId) as never, split);
      if (!p1) throw new Error('nothing for p1 to play');
      const before = rt.version;
      const theirs = await asBot(made.token, 'POST', ordersPath(worldId), { version: rt.version, order: p1 });
      expect(theirs.status).not.toBe(200);
      expect(rt.version).toBe(before);
      refusedForOther++;
      const owned = await app.hub.order(worldId, 'p1', (await ownerId()) ?? '', rt.version, p1);
      if (!owned.ok) throw new Error(JSON.stringify(owned.error));
    }
    expect(botOrders).toBe(6);
    expect(refusedForOther).toBeGreaterThan(0);
    const logged = await t.db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM world_orders WHERE world_id = $1::uuid AND actor = 'p2' AND user_id = $2::uuid AND kind = 'player'`,
      [worldId, made.bot.id],
    );
    expect(logged[0]?.n).toBeGreaterThanOrEqual(1);
  });

  it('a socket opened with the token is the bot account in its seat, and ends when the token is revoked', async () => {
    const client = new TestClient(base, null, worldId, { authorization: `Bearer ${made.token}` });
    clients.push(client);
    const sub = await client.subscribe();
    if (!sub.ok) throw new Error(JSON.stringify(sub.error));
    expect(sub.role).toBe('player');
    expect(sub.playerId).toBe('p2');
    const hash = createHash('sha256').update(made.token).digest('base64url');
    const revoked = await api(
      base,
      owner,
      'POST',
      HTTP_ROUTES.revokeBotToken.path.replace(':botId', made.bot.id).replace(':tokenId', hash),
      {},
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ bots: [{ username: 'robo', tokens: [] }] });
    await waitFor('the socket to close', () => !client.socket.connected);
    const after = await asBot(made.token, 'GET', seatPath(worldId));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'auth/required' } });
    // A new token plays on; the old one stays refused.
    const again = await api(
      base,
      owner,
      'POST',
      HTTP_ROUTES.createBotToken.path.replace(':botId', made.bot.id),
      {
        label: 'new',
      },
    );
    const fresh = issuedTokenResponseSchema.parse(again.body);
    expect((await asBot(fresh.token, 'GET', seatPath(worldId))).status).toBe(200);
    expect((await asBot(made.token, 'GET', seatPath(worldId))).status).toBe(401);
  });
});

async function ownerId() {
  return (await t.db.prisma.user.findUnique({ where: { usernameKey: 'owner' } }))?.id;
}
