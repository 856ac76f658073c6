/**
 * A player's public profile (worlds and cycles, best first) and the combat table the guide shows,
 * over HTTP against a real PostgreSQL.
 */
import { combatTableSchema, profileResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db));
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

describe('profile', () => {
  it("lists a player's worlds and their cycle once the horde has entered", async () => {
    const alice = await signup(base, 'Alaric_P');
    const created = await api(base, alice, 'POST', '/api/worlds', { name: 'Profile World' });
    const worldId = String((created.body.world as { id: string }).id);
    await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, {});
    // The name is found whatever its case.
    let profile = profileResponseSchema.parse((await api(base, null, 'GET', '/api/players/alaric_p')).body);
    expect(profile.username).toBe('Alaric_P');
    expect(profile.worlds).toMatchObject([{ id: worldId, name: 'Profile World', left: false }]);
    // Entering the game (choosing a start) opens the first cycle (14.3).
    const c = new TestClient(base, alice, worldId);
    await c.subscribe();
    await waitFor('a start to choose', () => c.legal.some((o) => o.type === 'chooseStart'));
    const start = c.legal.find((o) => o.type === 'chooseStart') as unknown as {
      position: string;
      areas: string[];
    };
    await c.order({ type: 'chooseStart', position: start.position, area: start.areas[0] });
    for (let i = 0; i < 50; i++) {
      profile = profileResponseSchema.parse((await api(base, null, 'GET', '/api/players/Alaric_P')).body);
      if (profile.cycles.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(profile.cycles).toMatchObject([
      { worldId, worldName: 'Profile World', number: 1, position: start.position, startTurn: 1, vp: 0 },
    ]);
    c.close();
  });

  it('an unknown player is a typed 404', async () => {
    const r = await api(base, null, 'GET', '/api/players/nobody_here');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'http/not_found' } });
  });
});

describe('combat table', () => {
  it("is the engine's table, with chances summing to one per column (7.1)", async () => {
    const r = await api(base, null, 'GET', '/api/rules/combat-table');
    const table = combatTableSchema.parse(r.body);
    expect(table.rows.map((x) => x.roll)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const col of table.columns) {
      const sum = (table.chances[col] ?? []).reduce((s, c) => s + c.chance, 0);
      expect(sum).toBeCloseTo(1, 12);
    }
    // 7.1 worked example: 3-2, a roll of 9, is DR1.
    const i = table.columns.indexOf('3-2');
    expect(table.rows.find((x) => x.roll === 9)?.results[i]).toBe('DR1');
  });
});
