/**
 * The leaderboard lists settled ratings only (docs/ratings.md: provisional until 5 results and
 * σ ≤ 7), decided in the query so provisional ratings above them cannot crowd them off the page;
 * it leaves off accounts banned now (not those whose ban ran out) and accounts that hide their
 * profile, whose profile is answered to them alone.
 */
import { leaderboardResponseSchema, profileResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const DAY = 86_400_000;

async function rated(name: string, mu: number, sigma: number, results: number, extra: object = {}) {
  const u = await t.db.prisma.user.create({
    data: { username: name, usernameKey: name.toLowerCase(), passwordHash: 'x', ...extra },
  });
  for (const pool of ['all', 'basic'])
    await t.db.prisma.playerRating.create({ data: { userId: u.id, pool, mu, sigma, results } });
  return u.id;
}

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db));
  // 150 provisional ratings above every settled one: a page read in order and filtered afterwards
  // (the first hundred, say) would show none of the settled.
  for (let i = 0; i < 150; i++) await rated(`prov${i}`, 40 + i / 100, 8, 3);
  await rated('settled_a', 30, 5, 12);
  await rated('settled_b', 28, 6.5, 6);
  await rated('wide_sigma', 29, 7.5, 20);
  await rated('banned_now', 35, 4, 30, { bannedUntil: new Date(Date.now() + DAY) });
  await rated('ban_over', 27, 4, 30, { bannedUntil: new Date(Date.now() - DAY) });
  await rated('hidden_one', 33, 4, 30, { profileHidden: true });
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const board = async (query = '') =>
  leaderboardResponseSchema.parse((await api(base, null, 'GET', `/api/leaderboard${query}`)).body);

describe('leaderboard', () => {
  it('lists the settled ratings best first, whatever number of provisional ones rank above them', async () => {
    const b = await board();
    expect(b.rows.map((r) => r.username)).toEqual(['settled_a', 'settled_b', 'ban_over']);
    expect(b.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
    // 150 newcomers and the wide σ are provisional; the banned and the hidden are not counted at all.
    expect(b.provisional).toBe(151);
    const first = b.rows[0];
    expect(first?.rating).toBeGreaterThan(1500);
    // σ 5 is about 147 points on the shown scale (ratings/scale.ts).
    expect(first?.uncertainty).toBeGreaterThan(140);
    expect(first?.uncertainty).toBeLessThan(155);
    expect(first?.results).toBe(12);
  });

  it('has a board per pool, and refuses an unknown pool with a typed error', async () => {
    expect((await board('?pool=basic')).rows).toHaveLength(3);
    expect((await board('?pool=advanced')).rows).toEqual([]);
    const r = await api(base, null, 'GET', '/api/leaderboard?pool=sideways');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'http/invalid' } });
  });

  it('hiding a profile takes the account off the board and answers its profile to it alone', async () => {
    const cookie = await signup(base, 'Shy_Player');
    const shy = await t.db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'shy_player' } });
    await t.db.prisma.playerRating.create({
      data: { userId: shy.id, pool: 'all', mu: 50, sigma: 3, results: 40 },
    });
    expect((await board()).rows[0]?.username).toBe('Shy_Player');
    expect((await api(base, cookie, 'GET', '/api/account/profile')).body).toEqual({ hidden: false });

    const set = await api(base, cookie, 'POST', '/api/account/profile', { hidden: true });
    expect(set.body).toEqual({ hidden: true });
    expect((await board()).rows.map((r) => r.username)).not.toContain('Shy_Player');
    const stranger = await signup(base, 'Nosy_Parker');
    for (const who of [null, stranger]) {
      const r = await api(base, who, 'GET', '/api/players/shy_player');
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: { code: 'profile/hidden' } });
      expect(JSON.stringify(r.body)).not.toContain('ratings');
    }
    const own = profileResponseSchema.parse((await api(base, cookie, 'GET', '/api/players/shy_player')).body);
    expect(own.ratings.all?.results).toBe(40);

    await api(base, cookie, 'POST', '/api/account/profile', { hidden: false });
    expect((await board()).rows[0]?.username).toBe('Shy_Player');
    expect((await api(base, null, 'GET', '/api/players/shy_player')).status).toBe(200);
  });

  it('the privacy setting needs an account and a boolean', async () => {
    expect((await api(base, null, 'GET', '/api/account/profile')).status).toBe(401);
    const cookie = await signup(base, 'Odd_Input');
    const r = await api(base, cookie, 'POST', '/api/account/profile', { hidden: 'yes' });
    expect(r.status).toBe(400);
    const extra = await api(base, cookie, 'POST', '/api/account/profile', { hidden: true, more: 1 });
    expect(extra.status).toBe(400);
  });
});
