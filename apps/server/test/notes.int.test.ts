/**
 * A person's notes on a world (docs/notes-and-blocks.md): the author reads their own back; another
 * player, an admin and a stranger get nothing of them — not through the notes route, not in the
 * world's record, the moderators' screens or the author's profile; the author's data export carries
 * them. Saves are limited in size and counted per account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

const SECRET = 'Bob will turn on Carol next spring — keep the fleet at Rhodes';

let t: TestDatabase;
let app: App;
let base: string;
let admin: string;
let alice: string;
let bob: string;
let carol: string;
let worldId: string;
let hiddenId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(
    t.db,
    {
      limits: {
        authPerAddress: { burst: 100, perMinute: 600 },
        worldsPerAddressPerDay: 100,
        privateWrites: { burst: 6, perMinute: 1 },
      },
    },
    (a) => registerModeration(a.http, t.db, a.hub, a.io),
  ));
  await createUser(t.db, 'root', 'password123', 'admin');
  const login = await api(base, null, 'POST', '/api/auth/login', {
    username: 'root',
    password: 'password123',
  });
  if (!login.cookie) throw new Error('no admin session');
  admin = login.cookie;
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
  const create = (cookie: string, name: string, access: unknown) =>
    api(base, cookie, 'POST', '/api/worlds', {
      name,
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      maxPlayers: 4,
      join: true,
      access,
    });
  worldId = ((await create(alice, 'Notebook', { who: 'public' })).body.world as { id: string }).id;
  expect((await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
  hiddenId = (
    (await create(bob, 'Bob alone', { who: 'private', reservedSeats: 0, spectators: false, invite: [] })).body
      .world as { id: string }
  ).id;
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const note = (cookie: string | null, id = worldId) => api(base, cookie, 'GET', `/api/worlds/${id}/note`);
const save = (cookie: string, body: string, id = worldId) =>
  api(base, cookie, 'POST', `/api/worlds/${id}/note`, { body });

describe('notes on a world', () => {
  it('are empty until written, then read back by their author as saved', async () => {
    expect((await note(alice)).body).toEqual({ body: '', updatedAt: null });
    const saved = await save(alice, SECRET);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ body: SECRET, updatedAt: expect.any(String) });
    expect(saved.headers.get('ratelimit-remaining')).toBe('5');
    expect((await note(alice)).body).toMatchObject({ body: SECRET });
  });

  it('give another player, an admin and a stranger nothing of the author’s', async () => {
    for (const other of [bob, admin, carol]) {
      const r = await note(other);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ body: '', updatedAt: null });
    }
    expect((await note(null)).status).toBe(401);
    // Bob's own note on the same world is his, and leaves Alice's as it was.
    expect((await save(bob, 'mine')).status).toBe(200);
    expect((await note(alice)).body).toMatchObject({ body: SECRET });
    expect((await note(bob)).body).toMatchObject({ body: 'mine' });
  });

  it('appear nowhere else: the world, its record, the moderators’ screens, the author’s profile', async () => {
    const reads = [
      await api(base, admin, 'GET', `/api/worlds/${worldId}`),
      await api(base, admin, 'GET', `/api/worlds/${worldId}/record`),
      await api(base, admin, 'GET', `/api/moderation/worlds/${worldId}/seats`),
      await api(base, admin, 'GET', `/api/moderation/worlds/${worldId}/chat`),
      await api(base, admin, 'GET', '/api/moderation/users?q=alice'),
      await api(base, admin, 'GET', '/api/players/alice'),
      await api(base, bob, 'GET', `/api/worlds/${worldId}/history?before=1000`),
    ];
    for (const r of reads) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toContain('fleet at Rhodes');
    }
  });

  it('are kept only on worlds the person may see, and only up to the size limit', async () => {
    expect((await save(carol, 'peeking', hiddenId)).status).toBe(404);
    expect((await note(carol, hiddenId)).body).toMatchObject({ error: { code: 'world/not_found' } });
    const long = await save(alice, 'x'.repeat(10_001));
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { code: 'http/invalid' } });
    expect((await note(alice)).body).toMatchObject({ body: SECRET });
  });

  it('go out in the author’s data export, and in nobody else’s', async () => {
    const mine = await api(base, alice, 'GET', '/api/account/export');
    expect(mine.status).toBe(200);
    expect(mine.body.account).toMatchObject({ username: 'alice' });
    expect(mine.body.notes).toEqual([
      { worldId, worldName: 'Notebook', body: SECRET, updatedAt: expect.any(String) },
    ]);
    expect(mine.body.worlds).toEqual([expect.objectContaining({ worldId, name: 'Notebook' })]);
    for (const other of [bob, admin]) {
      const theirs = await api(base, other, 'GET', '/api/account/export');
      expect(JSON.stringify(theirs.body)).not.toContain('fleet at Rhodes');
    }
    expect((await api(base, null, 'GET', '/api/account/export')).status).toBe(401);
  });

  it('emptied, are deleted; saves beyond the account’s limit are refused in words', async () => {
    expect((await save(bob, '   ')).body).toEqual({ body: '', updatedAt: null });
    expect(await t.db.prisma.worldNote.count({ where: { worldId } })).toBe(1);
    // Alice has saved once of her six (the refusals above were not counted: they came before the save).
    let last = await save(alice, SECRET);
    while (last.status === 200) last = await save(alice, SECRET);
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ error: { code: 'http/rate_limited', limit: 'private-writes' } });
    expect((await note(alice)).body).toMatchObject({ body: SECRET });
  });
});
