/**
 * Chat blocks (docs/notes-and-blocks.md), over real sockets: what the blocker receives. Lines of an
 * account it blocks reach neither its live chat nor its chat history nor its "since you were last
 * here"; everyone else still reads them; unblocking lets new lines and the history through again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
let carol: string;
let worldId: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { authPerAddress: { burst: 100, perMinute: 600 }, worldsPerAddressPerDay: 100 },
  }));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Quiet please',
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    maxPlayers: 4,
    join: true,
  });
  worldId = (created.body.world as { id: string }).id;
  for (const c of [bob, carol])
    expect((await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const connect = async (cookie: string) => {
  const c = new TestClient(base, cookie, worldId);
  clients.push(c);
  const r = await c.subscribe();
  if (!r.ok) throw new Error('subscribe failed');
  return c;
};
const block = (cookie: string, username: string, blocked = true) =>
  api(base, cookie, 'POST', '/api/account/blocks', { username, blocked });
const say = (c: TestClient, body: string, to?: string) =>
  c.emit('chat/send', { worldId, body, ...(to ? { to } : {}) });
/** Waits until `c` has received the line `body` (sent after the lines a test expects it not to get). */
const heard = async (c: TestClient, body: string) => {
  for (let i = 0; i < 200 && !c.chat.some((m) => m.body === body); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(c.chat.map((m) => m.body)).toContain(body);
};
const bodies = (c: TestClient) => c.chat.map((m) => m.body);

describe('blocking another player’s chat', () => {
  it('is refused for oneself and for nobody, and lists the accounts blocked', async () => {
    expect((await block(alice, 'alice')).body).toMatchObject({ error: { code: 'block/self' } });
    expect((await block(alice, 'nobody')).body).toMatchObject({ error: { code: 'block/not_found' } });
    const r = await block(alice, 'BOB');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      blocked: [{ userId: expect.any(String), username: 'bob', since: expect.any(String) }],
    });
    expect((await api(base, alice, 'GET', '/api/account/blocks')).body).toEqual(r.body);
    // Bob is not told, and his own list is empty.
    expect((await api(base, bob, 'GET', '/api/account/blocks')).body).toEqual({ blocked: [] });
    expect((await api(base, alice, 'GET', '/api/account/export')).body.blocked).toEqual([
      { username: 'bob', since: expect.any(String) },
    ]);
  });

  it('keeps the blocked account’s lines, world-wide and private, from the blocker’s live chat alone', async () => {
    const [a, b, c] = [await connect(alice), await connect(bob), await connect(carol)];
    const alicePlayer = a.playerId ?? '';
    expect((await say(b, 'Bob to everyone')).ok).toBe(true);
    expect((await say(b, 'Bob to Alice alone', alicePlayer)).ok).toBe(true);
    expect((await say(c, 'Carol to Alice alone', alicePlayer)).ok).toBe(true);
    expect((await say(c, 'Carol to everyone')).ok).toBe(true);
    await heard(a, 'Carol to everyone');
    expect(bodies(a)).toEqual(['Carol to Alice alone', 'Carol to everyone']);
    await heard(c, 'Carol to everyone');
    expect(bodies(c)).toEqual(['Bob to everyone', 'Carol to Alice alone', 'Carol to everyone']);
    // The sender sees his lines as sent.
    await heard(b, 'Carol to everyone');
    expect(bodies(b)).toEqual(['Bob to everyone', 'Bob to Alice alone', 'Carol to everyone']);
  });

  it('keeps them from the blocker’s chat history and "since you were last here", on any device', async () => {
    const again = await connect(alice);
    expect(bodies(again)).toEqual(['Carol to Alice alone', 'Carol to everyone']);
    const since = await api(base, alice, 'GET', `/api/worlds/${worldId}/since-last`);
    expect(since.status).toBe(200);
    expect(JSON.stringify(since.body)).toContain('Carol to Alice alone');
    expect(JSON.stringify(since.body)).not.toContain('Bob to');
    expect(bodies(await connect(carol))).toEqual([
      'Bob to everyone',
      'Carol to Alice alone',
      'Carol to everyone',
    ]);
  });

  it('once lifted, lets new lines and the history through again', async () => {
    expect((await block(alice, 'bob', false)).body).toEqual({ blocked: [] });
    const a = await connect(alice);
    expect(bodies(a)).toEqual([
      'Bob to everyone',
      'Bob to Alice alone',
      'Carol to Alice alone',
      'Carol to everyone',
    ]);
    const b = clients.find((x) => x.cookie === bob) as TestClient;
    expect((await say(b, 'Bob again')).ok).toBe(true);
    await heard(a, 'Bob again');
  });
});
