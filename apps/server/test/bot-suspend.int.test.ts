/**
 * A moderator suspends a bot account with the ordinary account ban: the program's token is refused
 * at its very next request with the ban's own code (not "sign in first", so the program can say
 * why), its open socket is closed, a new socket with the token is nobody's, and lifting the ban
 * lets the same token play again.
 */
import { HTTP_ROUTES, type IssuedTokenResponse, issuedTokenResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let mod: string;
let bot: IssuedTokenResponse;
let worldId: string;
const clients: TestClient[] = [];

async function asBot(token: string, path: string) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const seatPath = () => HTTP_ROUTES.seatView.path.replace(':id', worldId);
const moderate = (action: 'ban' | 'unban', body: Record<string, unknown>) =>
  api(base, mod, 'POST', `/api/moderation/users/${bot.bot.id}/${action}`, body);

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { bots: false }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io),
  ));
  await createUser(t.db, 'mod1', 'password123', 'moderator');
  const login = await api(base, null, 'POST', '/api/auth/login', {
    username: 'mod1',
    password: 'password123',
  });
  if (!login.cookie) throw new Error('login failed');
  mod = login.cookie;
  const owner = await signup(base, 'owner');
  const made = await api(base, owner, 'POST', HTTP_ROUTES.createBot.path, { username: 'robo', label: 'lab' });
  bot = issuedTokenResponseSchema.parse(made.body);
  const created = await api(base, owner, 'POST', '/api/worlds', { name: 'Suspended bot table', join: true });
  worldId = (created.body.world as { id: string }).id;
  const res = await fetch(`${base}/api/worlds/${worldId}/join`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bot.token}`, 'x-bke-csrf': '1', 'content-type': 'application/json' },
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`join: ${res.status}`);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

describe('a moderator suspends a bot account', () => {
  it('its token is refused with the ban’s code at its next request, and its socket is closed', async () => {
    expect((await asBot(bot.token, seatPath())).status).toBe(200);
    const client = new TestClient(base, null, worldId, { authorization: `Bearer ${bot.token}` });
    clients.push(client);
    const sub = await client.subscribe();
    if (!sub.ok) throw new Error(JSON.stringify(sub.error));
    expect(sub.playerId).toBe('p2');

    const until = new Date(Date.now() + 86_400_000).toISOString();
    const banned = await moderate('ban', { reason: 'spamming the table', until });
    expect(banned.status, JSON.stringify(banned.body)).toBe(200);

    const refused = await asBot(bot.token, seatPath());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'auth/banned', until } });
    await waitFor('the bot’s socket to close', () => !client.socket.connected);
    // Reads anyone may make see no account behind the token while the ban lasts.
    expect((await asBot(bot.token, HTTP_ROUTES.me.path)).body).toEqual({ user: null });
    // A socket opened again with the token is nobody's: it holds no seat.
    const again = new TestClient(base, null, worldId, { authorization: `Bearer ${bot.token}` });
    clients.push(again);
    const sub2 = await again.subscribe();
    expect(sub2.ok && sub2.playerId).toBeFalsy();
  });

  it('lifting the ban lets the same token play again', async () => {
    expect((await moderate('unban', { reason: 'owner fixed it' })).status).toBe(200);
    const back = await asBot(bot.token, seatPath());
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ playerId: 'p2' });
  });
});
