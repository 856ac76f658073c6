/**
 * The lobby's lists of running and finished worlds read each world's game state from the runtime
 * this process holds or from the digest it kept when it let the world go, and load only a world
 * that neither describes: listing the worlds never keeps them in memory, and costs the same few
 * statements whatever the number of worlds. What the lists show is the same either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { nextOrder } from './helpers/next-order.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let alice: string;
let bob: string;
let mod: string;

beforeAll(async () => {
  t = await openTestDatabase();
  // The mail outbox polls the database on a timer: not while statements are counted here.
  ({ app, base } = await serveApp(t.db, { mail: { pollMs: 0 }, limits: { worldsPerDay: 100 } }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io),
  ));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  await createUser(t.db, 'mod1', 'password123', 'moderator');
  const login = await api(base, null, 'POST', '/api/auth/login', {
    username: 'mod1',
    password: 'password123',
  });
  if (!login.cookie) throw new Error('login failed');
  mod = login.cookie;
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

type Listed = { id: string; version: number; turn: number; waitingFor: string[]; deadlineAt: string | null };
type Finished = Listed & { standings: { name: string; playerId: string }[] };

const running = async () => (await api(base, null, 'GET', '/api/worlds')).body.worlds as Listed[];
const finished = async () => (await api(base, null, 'GET', '/api/worlds/finished')).body.worlds as Finished[];
const loadedIds = () =>
  app.hub
    .loaded()
    .map((rt) => rt.id)
    .sort();

/** Lets every world go (none is watched here); waits for a bot's queued work to end first. */
async function unloadAll(): Promise<void> {
  await waitFor('every world unloaded', () => {
    app.hub.unloadIdle(0);
    return app.hub.loaded().length === 0;
  });
}

async function create(body: object): Promise<string> {
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Listed',
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    earlyResolution: true,
    ...body,
  });
  expect(created.status).toBe(200);
  return (created.body.world as { id: string }).id;
}

/** A running world of alice (p1) and bob (p2). */
async function twoPlayers(): Promise<string> {
  const worldId = await create({});
  expect((await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
  expect((await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
  return worldId;
}

/** Alice and an easy bot; returns once the bot has played and the world waits for alice. */
async function withBot(): Promise<string> {
  const worldId = await create({ join: true, bots: ['easy'] });
  const held = () => app.hub.loaded().find((rt) => rt.id === worldId);
  await waitFor('the world waiting for alice', () => held()?.waitingFor().join() === 'p1', 10_000);
  await held()?.settled();
  return worldId;
}

/** Plays one order for whoever `hub`'s copy of the world waits for; returns the new version. */
async function playOne(hub: WorldHub, worldId: string): Promise<number> {
  const { playerId, userId, order, version } = await nextOrder(hub, worldId);
  const r = await hub.order(worldId, playerId, userId, version, order);
  if (!r.ok) throw new Error(`order refused: ${JSON.stringify(r)}`);
  return r.version;
}

/** Runs `fn` and returns the statements the main pool was sent meanwhile. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const pool = t.db.pool;
  if (!pool) throw new Error('statements are counted on PostgreSQL only');
  const sent: string[] = [];
  const query = pool.query;
  pool.query = ((...args: Parameters<typeof query>) => {
    const q = args[0] as string | { text: string };
    sent.push(typeof q === 'string' ? q : q.text);
    return (query as (...a: unknown[]) => unknown).apply(pool, args);
  }) as typeof query;
  try {
    await fn();
  } finally {
    pool.query = query;
  }
  return sent;
}

describe('the lobby lists', () => {
  let worlds: string[] = [];

  it('list the same worlds before and after they are unloaded, and load none of them again', async () => {
    const played = await twoPlayers();
    await playOne(app.hub, played);
    await playOne(app.hub, played);
    worlds = [await create({}), played, await twoPlayers(), await withBot()];
    const before = await running();
    expect(before.map((w) => w.id).sort()).toEqual([...worlds].sort());
    expect(before.find((w) => w.id === played)?.version).toBeGreaterThan(0);
    await unloadAll();
    const after = await running();
    expect(after).toEqual(before);
    // Listing is no use of a world: none was loaded to be listed.
    expect(loadedIds()).toEqual([]);
    expect(await running()).toEqual(before);
    expect(loadedIds()).toEqual([]);
  });

  it('does not keep a held world in memory by listing it', async () => {
    const rt = await app.hub.get(worlds[1] ?? '');
    expect(rt).toBeTruthy();
    const usedAt = rt?.lastUsed ?? 0;
    await new Promise((r) => setTimeout(r, 20));
    const listed = await running();
    expect(listed.map((w) => w.id)).toContain(worlds[1]);
    expect(rt?.lastUsed).toBe(usedAt);
    // Unused since before the listing: a sweep for worlds idle since then lets it go.
    expect(app.hub.unloadIdle(0, usedAt + 1)).toBe(1);
    expect(loadedIds()).toEqual([]);
  });

  it('shows a world that moved while let go of as it is now, loading that world alone', async () => {
    const [, played, other] = worlds as [string, string, string, string];
    await unloadAll();
    const before = await running();
    // Another process plays in one world; nothing tells this one.
    const elsewhere = new WorldHub(t.db);
    const version = await playOne(elsewhere, played);
    const moved = await elsewhere.get(played);
    // A moderator of another process gives another world a new deadline (the head moves, the log does not).
    const deadline = new Date(Date.now() + 3 * 86_400_000);
    await t.db.sql('UPDATE worlds SET deadline_at = $2 WHERE id = $1::uuid', [other, deadline]);
    const after = await running();
    const now = after.find((w) => w.id === played);
    expect(now?.version).toBe(version);
    expect(now?.turn).toBe(moved?.state.turn);
    expect(now?.waitingFor).toEqual(moved?.waitingFor());
    expect(after.find((w) => w.id === other)?.deadlineAt).toBe(deadline.toISOString());
    // The rest is as it was.
    const rest = (ws: Listed[]) => ws.filter((w) => w.id !== played && w.id !== other);
    expect(rest(after)).toEqual(rest(before));
    // Only those two were loaded to be listed; after they go idle again, their new digests serve.
    expect(loadedIds()).toEqual([played, other].sort());
    await unloadAll();
    expect(await running()).toEqual(after);
    expect(loadedIds()).toEqual([]);
  });

  it('lists finished worlds with the same standings before and after they are unloaded', async () => {
    const [, played, , bot] = worlds as [string, string, string, string];
    for (const id of [played, bot]) {
      const closed = await api(base, mod, 'POST', `/api/moderation/worlds/${id}/close`, { reason: 'done' });
      expect(closed.status).toBe(200);
    }
    const before = await finished();
    expect(before.map((w) => w.id).sort()).toEqual([played, bot].sort());
    const names = (id: string) =>
      before
        .find((w) => w.id === id)
        ?.standings.map((s) => s.name)
        .sort();
    expect(names(played)).toEqual(['alice', 'bob']);
    expect(names(bot)).toEqual(['Easy bot 1', 'alice']);
    await unloadAll();
    expect(await finished()).toEqual(before);
    expect(loadedIds()).toEqual([]);
    expect(await finished()).toEqual(before);
    expect(loadedIds()).toEqual([]);
  });

  it('lists a world another process closed while it was let go of, with its standings', async () => {
    const worldId = await twoPlayers();
    await playOne(app.hub, worldId);
    await unloadAll();
    const listed = (await running()).find((w) => w.id === worldId);
    expect(listed).toBeTruthy();
    await t.db.sql(`UPDATE worlds SET status = 'closed', deadline_at = NULL WHERE id = $1::uuid`, [worldId]);
    const closed = (await finished()).find((w) => w.id === worldId);
    expect(closed?.standings.map((s) => s.name).sort()).toEqual(['alice', 'bob']);
    expect(closed).toMatchObject({ status: 'closed', deadlineAt: null, version: listed?.version });
    expect((await running()).map((w) => w.id)).not.toContain(worldId);
    // Loaded once to be listed; once let go of again, its digest has the standings.
    await unloadAll();
    expect((await finished()).find((w) => w.id === worldId)).toEqual(closed);
    expect(loadedIds()).toEqual([]);
  });

  it('list, in a process started afresh, what an earlier one let go of, loading none of those worlds', async () => {
    await unloadAll();
    const runningBefore = await running();
    const finishedBefore = await finished();
    const all = [...runningBefore, ...finishedBefore];
    // The digests are stored on the background connections as the worlds go.
    await app.hub.digestsStored();
    const rows = await t.db.sql<{ world_id: string; version: number }>(
      'SELECT world_id, version FROM world_digests',
    );
    const stored = new Map(rows.map((r) => [r.world_id, r.version]));
    expect(all.map((w) => stored.get(w.id))).toEqual(all.map((w) => w.version));
    // A restart: nothing in memory, neither worlds nor digests.
    app.hub.forget();
    expect(await running()).toEqual(runningBefore);
    expect(await finished()).toEqual(finishedBefore);
    expect(loadedIds()).toEqual([]);

    // A stored digest the world moved past (another process played), and one that does not read as
    // a digest, are not used: those two worlds alone are loaded to be listed, and shown as they are.
    const moved = runningBefore.find((w) => w.turn > 0)?.id ?? '';
    const damaged = runningBefore.find((w) => w.id !== moved)?.id ?? '';
    const version = await playOne(new WorldHub(t.db), moved);
    await t.db.sql(`UPDATE world_digests SET body = '{"turn":"three"}' WHERE world_id = $1::uuid`, [damaged]);
    app.hub.forget();
    const after = await running();
    expect(after.find((w) => w.id === moved)?.version).toBe(version);
    expect(after.filter((w) => w.id !== moved)).toEqual(runningBefore.filter((w) => w.id !== moved));
    expect(loadedIds()).toEqual([moved, damaged].sort());
  });

  it('list the worlds a process held when it stopped without loading them', async () => {
    // Another process, where alice creates a world and plays in it; it holds the world as it stops.
    const other = await serveApp(t.db, { mail: { pollMs: 0 } });
    const made = await api(other.base, alice, 'POST', '/api/worlds', {
      name: 'Held at the stop',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    });
    const worldId = (made.body.world as { id: string }).id;
    for (const c of [alice, bob]) await api(other.base, c, 'POST', `/api/worlds/${worldId}/join`, {});
    const version = await playOne(other.app.hub, worldId);
    const there = (await api(other.base, null, 'GET', '/api/worlds')).body.worlds as Listed[];
    expect(other.app.hub.loaded().map((rt) => rt.id)).toContain(worldId);
    await other.app.close();
    const [stored] = await t.db.sql<{ version: number }>(
      'SELECT version FROM world_digests WHERE world_id = $1::uuid',
      [worldId],
    );
    expect(stored?.version).toBe(version);
    // This process never held it: it lists it as the stopped one did, from the stored digest.
    await unloadAll();
    const here = (await running()).find((w) => w.id === worldId);
    expect(here).toEqual(there.find((w) => w.id === worldId));
    expect(loadedIds()).toEqual([]);
  });

  it.runIf(process.env.DATABASE_URL)(
    'answer in as many statements for many worlds as for a few, held or let go of',
    async () => {
      // At least one world in each list, whichever tests ran before.
      const close = async (id: string) =>
        expect(
          (await api(base, mod, 'POST', `/api/moderation/worlds/${id}/close`, { reason: 'done' })).status,
        ).toBe(200);
      await create({});
      await close(await twoPlayers());
      await unloadAll();
      await running();
      await finished();
      const count = async () => ({
        running: await statementsOf(running),
        finished: await statementsOf(finished),
      });
      const few = await count();
      for (let i = 0; i < 6; i++) await create({});
      await twoPlayers();
      await close(await twoPlayers());
      // Held: the new worlds were loaded by their creation.
      expect(loadedIds().length).toBeGreaterThan(0);
      const held = await count();
      await unloadAll();
      const letGo = await count();
      expect(loadedIds()).toEqual([]);
      for (const n of [held, letGo]) {
        expect(n.running, n.running.join('\n')).toHaveLength(few.running.length);
        expect(n.finished, n.finished.join('\n')).toHaveLength(few.finished.length);
      }
      // A handful whatever the number of worlds: the worlds, their creators' names, their heads, the
      // moderators' seat decisions, the seats with their accounts, and a bot account's owner's name
      // (Prisma reads a nested relation in a statement of its own).
      expect(few.running.length).toBeLessThanOrEqual(7);
      expect(few.finished.length).toBeLessThanOrEqual(7);
    },
  );
});
