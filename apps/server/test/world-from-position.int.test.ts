/**
 * An admin starts a new world from an analysis board's shared link (docs/world-from-position.md):
 * anyone else is refused and nothing is made; a link that cannot be read or seats that do not fit
 * the position are refused in words; a world that is made plays on from the position with the
 * named accounts in its seats, its audit row written with it, and its start rebuilt from the
 * stored setup alone.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type GameState, openPosition, sharePosition, simSetup, simulate } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { worldStart } from '../src/worlds/world-start.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let player: string;
let moderator: string;
let admin: string;
let link: string;

const PATH = '/api/moderation/worlds/from-position';

/** A two-player game's first movement phase with both hordes on the board, as a link's address. */
function positionLink(app: App): string {
  let found: GameState | null = null;
  try {
    simulate(app.hub.engine, simSetup('from-position', 2), 2, undefined, undefined, (s) => {
      if (s.step.kind === 'playerTurn' && s.players.every((p) => p.cycle)) {
        found = s;
        throw new Error('found');
      }
    });
  } catch (e) {
    if (!found) throw e;
  }
  if (!found) throw new Error('no position');
  const code = deflateRawSync(JSON.stringify(sharePosition(found))).toString('base64url');
  return `http://localhost/#/analysis/${code}`;
}

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {}, (a) => registerModeration(a.http, t.db, a.hub, a.io)));
  player = await signup(base, 'pupil');
  moderator = await signup(base, 'the_mod');
  admin = await signup(base, 'the_teacher');
  await t.db.prisma.user.update({ where: { username: 'the_mod' }, data: { role: 'moderator' } });
  await t.db.prisma.user.update({ where: { username: 'the_teacher' }, data: { role: 'admin' } });
  link = positionLink(app);
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const body = (over: Record<string, unknown> = {}) => ({
  reason: 'A lesson on the last horde',
  name: 'Lesson one',
  position: link,
  seats: [
    { playerId: 'p1', username: 'pupil' },
    { playerId: 'p2', bot: 'easy' },
  ],
  seed: 'lesson-seed',
  ...over,
});
const audited = () => t.db.prisma.moderationAction.count({ where: { action: 'world.fromPosition' } });

describe('a world started from a position', () => {
  it('is refused to a player and to a moderator, and nothing is made or audited', async () => {
    for (const cookie of [player, moderator]) {
      const r = await api(base, cookie, 'POST', PATH, body());
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: { code: 'auth/forbidden' } });
    }
    expect(await t.db.prisma.world.count()).toBe(0);
    expect(await audited()).toBe(0);
  });

  it('refuses a link it cannot read, and seats that do not fit the position, in typed codes', async () => {
    const cut = await api(base, admin, 'POST', PATH, body({ position: `${link.slice(0, -40)}` }));
    expect(cut.status).toBe(400);
    expect(cut.body).toMatchObject({
      error: { code: 'moderation/position_refused', position: { code: 'position/unreadable' } },
    });
    const short = await api(
      base,
      admin,
      'POST',
      PATH,
      body({ seats: [{ playerId: 'p1', username: 'pupil' }] }),
    );
    expect(short.body).toMatchObject({ error: { code: 'moderation/position_seats', missing: ['p2'] } });
    const stranger = await api(
      base,
      admin,
      'POST',
      PATH,
      body({
        seats: [
          { playerId: 'p1', username: 'nobody_here' },
          { playerId: 'p2', bot: 'easy' },
        ],
      }),
    );
    expect(stranger.body).toMatchObject({ error: { code: 'world/no_such_player', username: 'nobody_here' } });
    expect(await t.db.prisma.world.count()).toBe(0);
    expect(await audited()).toBe(0);
  });

  it('plays on from the position with the named account in its seat, audited in the same transaction', async () => {
    const r = await api(base, admin, 'POST', PATH, body());
    expect(r.status).toBe(200);
    const entry = r.body.action as { worldId: string; reason: string; params: Record<string, unknown> };
    expect(entry).toMatchObject({ action: 'world.fromPosition', reason: 'A lesson on the last horde' });
    expect(await audited()).toBe(1);
    const rt = await app.hub.get(entry.worldId);
    if (!rt) throw new Error('no world');
    expect(rt.settings.status).toBe('running');
    const seat = await app.hub.activeSeat(
      entry.worldId,
      (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'pupil' } })).id,
    );
    expect(seat).toMatchObject({ playerId: 'p1' });
    // The world's start: the position's board, its players called by who now plays them, the dice
    // from the world's seed (the bot may have played on since, so the start is read, not the head).
    const first = await t.db.prisma.worldSnapshot.findUniqueOrThrow({
      where: { worldId_seq: { worldId: entry.worldId, seq: 0 } },
    });
    const begun = first.state as unknown as GameState;
    expect(begun.players.map((p) => p.name)).toEqual(['pupil', 'Easy bot 1']);
    // Its count of orders is this world's: the version its pages and replay links read.
    expect(begun.version).toBe(0);
    const code = link.slice(link.indexOf('#/analysis/') + '#/analysis/'.length);
    const opened = openPosition(
      app.hub.engine,
      JSON.parse(inflateRawSync(Buffer.from(code, 'base64url')).toString()),
      'lesson-seed',
    );
    if (!opened.ok) throw new Error(opened.error.code);
    expect(begun.units).toEqual(opened.value.units);
    expect(begun.rng).toEqual(opened.value.rng);
    // The stored setup alone gives the same start (a rebuild checks such a world as any other).
    const w = await t.db.prisma.world.findUniqueOrThrow({ where: { id: entry.worldId } });
    const start = worldStart(app.hub.engine, w.setup);
    if (!start.ok) throw new Error(start.error.code);
    expect(app.hub.engine.hash(start.value)).toBe(first.hash);
    // The player finds it in the lobby's "my worlds" and may order in it.
    const view = await api(base, player, 'GET', `/api/worlds/${entry.worldId}`);
    expect(view.status).toBe(200);
  });
});
