/**
 * A bot token's seat reads and orders over HTTP keep the pace a person's sockets keep
 * (docs/limits.md: SOCKET_EVENTS_BURST and SOCKET_EVENTS_PER_SECOND, counted per bot account in the
 * shared counters): past the burst the program is answered `http/rate_limited` with the wait in
 * `Retry-After`, and another bot account of the same person keeps its own allowance.
 */
import { HTTP_ROUTES, issuedTokenResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

const BURST = 4;
let t: TestDatabase;
let app: App;
let base: string;
let owner: string;

async function makeBot(username: string): Promise<string> {
  const r = await api(base, owner, 'POST', HTTP_ROUTES.createBot.path, { username, label: 'test' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return issuedTokenResponseSchema.parse(r.body).token;
}

const seats = (token: string) =>
  fetch(`${base}${HTTP_ROUTES.seatedWorlds.path}`, { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await openTestDatabase();
  // A rate of one a minute: nothing comes back into the bucket while the test runs.
  ({ app, base } = await serveApp(t.db, {
    bots: false,
    limits: { socketEvents: { burst: BURST, perSecond: 1 / 60 } },
  }));
  owner = await signup(base, 'pacer');
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

describe('a bot token’s pace', () => {
  it('is refused past its burst with the wait, and each bot account counts apart', async () => {
    const first = await makeBot('pace_one');
    const second = await makeBot('pace_two');
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i++) statuses.push((await seats(first)).status);
    expect(statuses).toEqual(Array(BURST).fill(200));

    const refused = await seats(first);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; retryAfterSeconds?: number } };
    expect(body.error.code).toBe('http/rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await seats(second)).status).toBe(200);
  });
});
