/**
 * Who may join a world, over HTTP and real sockets against the real database: an invitation link
 * admits whoever opens it and nobody else, and stops working once revoked or replaced; a world
 * that is not public is absent from every list, profile, record, replay, socket answer and metric
 * an outsider can read — its id and its name appear nowhere in what they are sent — while its
 * members see it; the seats held for the invited in a public world are theirs; a world without
 * spectators lets only its players watch.
 */
import { worldListResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const clients: TestClient[] = [];
let host: string;
let friend: string;
let stranger: string;
let admin: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 30, perMinute: 0.6 } } }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io),
  ));
  host = await signup(base, 'hostess');
  friend = await signup(base, 'friend');
  stranger = await signup(base, 'stranger');
  admin = await signup(base, 'warden');
  await t.db.prisma.user.update({ where: { username: 'warden' }, data: { role: 'admin' } });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const code = (a: { body: Record<string, unknown> }) => (a.body.error as { code?: string } | undefined)?.code;

async function create(cookie: string, body: Record<string, unknown>) {
  const r = await api(base, cookie, 'POST', '/api/worlds', body);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return { id: (r.body.world as { id: string }).id, token: r.body.inviteToken as string | undefined };
}

describe('an invitation link', () => {
  it('admits whoever opens it, refuses others, and stops working once revoked or replaced', async () => {
    const w = await create(host, { name: 'Linked Hall', join: true, access: { who: 'invitation' } });
    expect(w.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only its hash is stored.
    const row = await t.db.prisma.world.findUniqueOrThrow({ where: { id: w.id } });
    expect(row.inviteTokenHash).not.toBeNull();
    expect(row.inviteTokenHash).not.toContain(String(w.token));

    // A stranger without the link finds no world to join.
    const refused = await api(base, stranger, 'POST', `/api/worlds/${w.id}/join`, {});
    expect(refused.status).toBe(404);
    expect(code(refused)).toBe('world/not_found');
    // A made-up token opens nothing.
    const forged = await api(base, stranger, 'POST', `/api/invites/${'A'.repeat(43)}`, {});
    expect(code(forged)).toBe('world/invite_invalid');

    // The friend opens the link, sees the world and takes a seat.
    const opened = await api(base, friend, 'POST', `/api/invites/${w.token}`, {});
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ worldId: w.id, name: 'Linked Hall' });
    const joined = await api(base, friend, 'POST', `/api/worlds/${w.id}/join`, {});
    expect(joined.status).toBe(200);

    // Revoked: the same link lets nobody else in; the friend stays.
    const revoked = await api(base, host, 'POST', `/api/worlds/${w.id}/invite-link/revoke`, {});
    expect(revoked.status).toBe(200);
    const late = await api(base, stranger, 'POST', `/api/invites/${w.token}`, {});
    expect(late.status).toBe(404);
    expect(code(late)).toBe('world/invite_invalid');
    expect(code(await api(base, stranger, 'POST', `/api/worlds/${w.id}/join`, {}))).toBe('world/not_found');

    // A new link works; the one before it does not.
    const fresh = await api(base, host, 'POST', `/api/worlds/${w.id}/invite-link`, {});
    const token = fresh.body.token as string;
    expect(token).not.toBe(w.token);
    expect(code(await api(base, stranger, 'POST', `/api/invites/${w.token}`, {}))).toBe(
      'world/invite_invalid',
    );
    const access = await api(base, host, 'GET', `/api/worlds/${w.id}/access`);
    expect(access.body).toMatchObject({
      who: 'invitation',
      link: true,
      invited: [{ username: 'friend', via: 'link' }],
    });

    // Only the creator (or a moderator) manages the link.
    const byFriend = await api(base, friend, 'POST', `/api/worlds/${w.id}/invite-link`, {});
    expect(byFriend.status).toBe(403);
    expect(code(byFriend)).toBe('world/not_creator');
    const byStranger = await api(base, stranger, 'POST', `/api/worlds/${w.id}/invite-link`, {});
    expect(code(byStranger)).toBe('world/not_found');
  });
});

describe('a private world', () => {
  it('is absent from every list, profile, record, socket answer and metric an outsider can read', async () => {
    const name = 'Sealed Keep 4127';
    const live = await create(host, {
      name,
      join: true,
      bots: ['novice'],
      access: { who: 'private', invite: ['friend'] },
    });
    const gone = await create(host, { name, join: true, access: { who: 'private', invite: ['friend'] } });
    expect(live.token).toBeUndefined();
    // The invited friend takes a seat; its profile now holds the world too.
    expect((await api(base, friend, 'POST', `/api/worlds/${live.id}/join`, {})).status).toBe(200);
    const closed = await api(base, admin, 'POST', `/api/moderation/worlds/${gone.id}/close`, {
      reason: 'done',
    });
    expect(closed.body).toMatchObject({ ok: true });
    // A public world beside them, which everyone sees (the lists answer, and are not empty).
    const open = await create(host, { name: 'Open Field', join: true });

    const ids = [live.id, gone.id];
    const reads = (cookie: string | null) => [
      api(base, cookie, 'GET', '/api/worlds'),
      api(base, cookie, 'GET', '/api/worlds/finished'),
      api(base, cookie, 'GET', '/api/players/hostess'),
      api(base, cookie, 'GET', '/api/players/friend'),
      ...ids.flatMap((id) => [
        api(base, cookie, 'GET', `/api/worlds/${id}`),
        api(base, cookie, 'GET', `/api/worlds/${id}/record`),
        api(base, cookie, 'GET', `/api/worlds/${id}/replay/1`),
        api(base, cookie, 'GET', `/api/worlds/${id}/history?before=100`),
        api(base, cookie, 'GET', `/api/worlds/${id}/since-last`),
        api(base, cookie, 'GET', `/api/worlds/${id}/access`),
        api(base, cookie, 'POST', `/api/worlds/${id}/join`, {}),
      ]),
    ];
    for (const who of [stranger, null]) {
      const answers = await Promise.all(reads(who));
      for (const a of answers) {
        const text = JSON.stringify(a.body);
        for (const id of ids) expect(text).not.toContain(id);
        expect(text).not.toContain(name);
      }
      const listed = worldListResponseSchema.parse(answers[0]?.body);
      expect(listed.worlds.map((w) => w.id)).toContain(open.id);
      for (const a of answers.slice(4)) if (a.status !== 401) expect(code(a)).toBe('world/not_found');
      // Over a socket: no such world either.
      for (const id of ids) {
        const c = new TestClient(base, who, id);
        clients.push(c);
        const r = await c.subscribe();
        expect(r).toEqual({ ok: false, error: { code: 'world/not_found' } });
      }
    }

    // Its members see it: in the lobby, on the profile, on its page and over a socket.
    for (const member of [host, friend]) {
      const lobby = worldListResponseSchema.parse((await api(base, member, 'GET', '/api/worlds')).body);
      expect(lobby.worlds.find((w) => w.id === live.id)).toMatchObject({ name, access: 'private' });
      expect((await api(base, member, 'GET', `/api/worlds/${live.id}`)).status).toBe(200);
      const c = new TestClient(base, member, live.id);
      clients.push(c);
      expect((await c.subscribe()).ok).toBe(true);
    }
    const finished = (await api(base, host, 'GET', '/api/worlds/finished')).body as {
      worlds: { id: string }[];
    };
    expect(finished.worlds.map((w) => w.id)).toContain(gone.id);
    expect(JSON.stringify((await api(base, friend, 'GET', '/api/players/hostess')).body)).toContain(name);

    // The metrics name no hidden world (an admin reads them; a scraper may be anyone).
    const text = await (await fetch(`${base}/api/admin/metrics`, { headers: { cookie: admin } })).text();
    expect(text).toContain('bke_world_queue_depth');
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).toContain(open.id);
  });
});

describe('reserved seats and spectators', () => {
  it('holds seats of a public world for those invited by name', async () => {
    const w = await create(host, {
      name: 'Two Chairs',
      join: true,
      maxPlayers: 2,
      access: { who: 'public', reservedSeats: 1, invite: ['friend'] },
    });
    const taken = await api(base, stranger, 'POST', `/api/worlds/${w.id}/join`, {});
    expect(taken.status).toBe(409);
    expect(code(taken)).toBe('world/seats_reserved');
    expect((await api(base, friend, 'POST', `/api/worlds/${w.id}/join`, {})).status).toBe(200);
  });

  it('lets only its players watch a world without spectators', async () => {
    const w = await create(host, { name: 'Closed Doors', join: true, access: { spectators: false } });
    const watcher = new TestClient(base, stranger, w.id);
    const player = new TestClient(base, host, w.id);
    clients.push(watcher, player);
    expect(await watcher.subscribe()).toEqual({ ok: false, error: { code: 'world/no_spectators' } });
    expect((await player.subscribe()).ok).toBe(true);
  });

  it('refuses an invitation of an account that does not exist, with its name', async () => {
    const r = await api(base, host, 'POST', '/api/worlds', {
      name: 'Nobody',
      access: { invite: ['ghost_of_nobody'] },
    });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'world/no_such_player', username: 'ghost_of_nobody' });
  });
});
