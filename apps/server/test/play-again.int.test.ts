/**
 * Playing an ended world again (docs/world-access.md, "Playing again"): one of its players makes a
 * new world with the same settings and bots, is seated in it, and the other players are invited
 * by name, except one a moderator removed; it counts as a world created. A stranger is refused, and
 * so is a world not yet ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let mod: string;
let alice: string;
let bob: string;
let carol: string;
let oldId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(
    t.db,
    {
      limits: {
        authPerAddress: { burst: 100, perMinute: 600 },
        worldsPerDay: 2,
        worldsPerAddressPerDay: 100,
      },
    },
    (a) => registerModeration(a.http, t.db, a.hub, a.io),
  ));
  await createUser(t.db, 'mod1', 'password123', 'moderator');
  const login = await api(base, null, 'POST', '/api/auth/login', {
    username: 'mod1',
    password: 'password123',
  });
  if (!login.cookie) throw new Error('no moderator session');
  mod = login.cookie;
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  carol = await signup(base, 'carol');
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Among friends',
    options: { victory: 'advanced' },
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    earlyResolution: false,
    maxPlayers: 4,
    join: true,
    bots: ['easy', 'normal'],
    ending: { until: 'turn', turn: 5, rated: false },
    access: { who: 'private', reservedSeats: 0, spectators: false, invite: ['bob'] },
  });
  expect(created.status).toBe(200);
  oldId = (created.body.world as { id: string }).id;
  expect((await api(base, bob, 'POST', `/api/worlds/${oldId}/join`, {})).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const again = (cookie: string, body: unknown = {}) =>
  api(base, cookie, 'POST', `/api/worlds/${oldId}/play-again`, body);

describe('playing an ended world again', () => {
  it('refuses a world that has not ended yet', async () => {
    const r = await again(bob);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: { code: 'world/not_ended' } });
  });

  it('makes a new world with the same settings and bots, seats the caller and invites the other players', async () => {
    const closed = await api(base, mod, 'POST', `/api/moderation/worlds/${oldId}/close`, {
      reason: 'played out',
    });
    expect(closed.status).toBe(200);

    const r = await again(bob);
    expect(r.status).toBe(200);
    const world = r.body.world as {
      id: string;
      name: string;
      seats: { username: string; bot: string | null }[];
    };
    expect(world.id).not.toBe(oldId);
    expect(world.name).toBe('Among friends');
    expect(world.seats.map((s) => [s.bot ?? s.username])).toEqual([['bob'], ['easy'], ['normal']]);

    const before = await t.db.prisma.world.findUniqueOrThrow({ where: { id: oldId } });
    const after = await t.db.prisma.world.findUniqueOrThrow({ where: { id: world.id } });
    const settings = (w: typeof before) => ({
      deadlineMode: w.deadlineMode,
      phaseSeconds: w.phaseSeconds,
      earlyResolution: w.earlyResolution,
      maxPlayers: w.maxPlayers,
      rated: w.rated,
      endUntil: w.endUntil,
      endTurn: w.endTurn,
      access: w.access,
      reservedSeats: w.reservedSeats,
      spectators: w.spectators,
      options: (w.setup as { options: unknown }).options,
    });
    expect(settings(after)).toEqual(settings(before));
    expect(settings(after)).toMatchObject({
      deadlineMode: 'correspondence',
      endTurn: 5,
      access: 'private',
      rated: false,
    });
    expect(after.createdById).not.toBe(before.createdById);
    // A new game: its dice are drawn anew.
    expect((after.setup as { seed: string }).seed).not.toBe((before.setup as { seed: string }).seed);

    // Alice, who played, is invited: the private world is hers to see and join; a stranger sees nothing.
    const access = await api(base, bob, 'GET', `/api/worlds/${world.id}/access`);
    expect(access.body.invited).toEqual([expect.objectContaining({ username: 'alice' })]);
    expect((await api(base, alice, 'GET', `/api/worlds/${world.id}`)).status).toBe(200);
    expect((await api(base, alice, 'POST', `/api/worlds/${world.id}/join`, {})).status).toBe(200);
    expect((await api(base, carol, 'GET', `/api/worlds/${world.id}`)).status).toBe(404);
  });

  it('refuses a stranger: as no world where it is hidden from them, as not a player where it is not', async () => {
    const hidden = await again(carol);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: { code: 'world/not_found' } });
    // A moderator sees every world but did not play this one.
    const moderator = await again(mod);
    expect(moderator.status).toBe(403);
    expect(moderator.body).toMatchObject({ error: { code: 'world/not_a_player' } });
    expect(await t.db.prisma.world.count()).toBe(2);
  });

  it('counts against the daily world-creation limit like any creation', async () => {
    // Alice made the first world; playing again is her second of two.
    const second = await again(alice, { name: 'Among friends, again' });
    expect(second.status).toBe(200);
    expect((second.body.world as { name: string }).name).toBe('Among friends, again');
    const third = await again(alice);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: { code: 'world/create_limit', per: 'account', limit: 2 } });
    // A name with a control character is refused at the edge.
    expect((await again(bob, { name: 'a\u0007b' })).status).toBe(400);
  });

  it('does not invite a player a moderator removed from the ended world', async () => {
    const created = await api(base, carol, 'POST', '/api/worlds', {
      name: 'Three of us',
      maxPlayers: 3,
      join: true,
      access: { who: 'private', reservedSeats: 0, spectators: false, invite: ['alice', 'bob'] },
    });
    expect(created.status).toBe(200);
    const id = (created.body.world as { id: string }).id;
    for (const cookie of [alice, bob])
      expect((await api(base, cookie, 'POST', `/api/worlds/${id}/join`, {})).status).toBe(200);
    const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId: id }, include: { user: true } });
    const aliceSeat = seats.find((s) => s.user?.username === 'alice');
    const removed = await api(
      base,
      mod,
      'POST',
      `/api/moderation/worlds/${id}/seats/${aliceSeat?.playerId}/remove`,
      {
        reason: 'abusive chat',
      },
    );
    expect(removed.status).toBe(200);
    expect(
      (await api(base, mod, 'POST', `/api/moderation/worlds/${id}/close`, { reason: 'done' })).status,
    ).toBe(200);

    const r = await api(base, bob, 'POST', `/api/worlds/${id}/play-again`, {});
    expect(r.status).toBe(200);
    const newId = (r.body.world as { id: string }).id;
    const access = await api(base, bob, 'GET', `/api/worlds/${newId}/access`);
    expect((access.body.invited as { username: string }[]).map((i) => i.username)).toEqual(['carol']);
    expect((await api(base, alice, 'GET', `/api/worlds/${newId}`)).status).toBe(404);
  });
});
