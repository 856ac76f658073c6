/**
 * An admin may give a new world its dice's seed (reproducible worlds for tournament replays and
 * the e2e specs); anyone else is refused, and without a seed every world gets its own random one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let player: string;
let admin: string;

beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildApp({ db: t.db, webDist: '/nonexistent', deadlinePollMs: 0 });
  base = await app.http.listen({ port: 0, host: '127.0.0.1' });
  player = await signup(base, 'plain_player');
  admin = await signup(base, 'the_admin');
  await t.db.prisma.user.update({ where: { username: 'the_admin' }, data: { role: 'admin' } });
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

async function create(cookie: string, body: Record<string, unknown>) {
  return api(base, cookie, 'POST', '/api/worlds', { name: 'Seeded', ...body });
}

async function stateOf(res: { body: Record<string, unknown> }) {
  const id = (res.body.world as { id: string }).id;
  const rt = await app.hub.get(id);
  if (!rt) throw new Error('no world');
  return rt.state;
}

describe('world seed', () => {
  it('refuses a seed from a player who is not an admin', async () => {
    const r = await create(player, { seed: 'replay-1' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: { code: 'auth/forbidden' } });
    const { worlds } = (await api(base, player, 'GET', '/api/worlds')).body as { worlds: unknown[] };
    expect(worlds).toHaveLength(0);
  });

  it("gives an admin's worlds with the same seed the same dice, and others their own", async () => {
    const a = await create(admin, { seed: 'replay-1' });
    const b = await create(admin, { seed: 'replay-1' });
    const c = await create(admin, {});
    const d = await create(player, {});
    for (const r of [a, b, c, d]) expect(r.status).toBe(200);
    const [sa, sb, sc, sd] = await Promise.all([stateOf(a), stateOf(b), stateOf(c), stateOf(d)]);
    expect(sa.rng).toEqual(sb.rng);
    expect(app.hub.engine.hash(sa)).toBe(app.hub.engine.hash(sb));
    expect(sc.rng).not.toEqual(sa.rng);
    expect(sd.rng).not.toEqual(sc.rng);
  });
});
