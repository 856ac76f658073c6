/**
 * A revoked bot token is refused at once on every process (docs/bot-interface.md): two server
 * processes share one PostgreSQL and its cluster adapter; the program holds a socket and makes
 * requests on the second while its owner revokes the token on the first. The socket is closed
 * through the adapter and the next request is refused `auth/required`. PostgreSQL only: the
 * embedded database serves one process.
 */
import { createHash } from 'node:crypto';
import { HTTP_ROUTES, issuedTokenResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let second: Database | null = null;
const apps: App[] = [];
const bases: string[] = [];
const clients: TestClient[] = [];

async function start(db: Database) {
  const { app, base } = await serveApp(db, {
    bots: false,
    cluster: { kind: 'postgres' },
    limits: { authPerAddress: { burst: 50, perMinute: 60 } },
  });
  apps.push(app);
  bases.push(base);
}

beforeAll(async () => {
  t = await openTestDatabase();
  if (!t.url) return;
  await start(t.db);
  second = await openDatabase({ kind: 'postgres', url: t.url, poolSize: 5 });
  await start(second);
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const n = await Promise.all(apps.map((a) => a.io.of('/').adapter.serverCount()));
    if (n.every((x) => x === 2)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const a of apps) await a.close();
  await second?.close();
  await t?.dispose();
});

describe.runIf(process.env.DATABASE_URL)('a bot token revoked on one process', () => {
  it('closes its socket on the other process and is refused there at its next request', async () => {
    const [one = '', two = ''] = bases;
    const owner = await signup(one, 'revoker');
    const created = await api(one, owner, 'POST', '/api/worlds', { name: 'Two rooms', join: true });
    const worldId = (created.body.world as { id: string }).id;
    const made = await api(one, owner, 'POST', HTTP_ROUTES.createBot.path, {
      username: 'roamer',
      label: 'far',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { token, bot } = issuedTokenResponseSchema.parse(made.body);
    const seats = () =>
      fetch(`${two}${HTTP_ROUTES.seatedWorlds.path}`, { headers: { authorization: `Bearer ${token}` } });

    // The program on the second process: a socket watching the world, and its requests answered.
    const socket = new TestClient(two, null, worldId, { authorization: `Bearer ${token}` });
    clients.push(socket);
    const sub = await socket.subscribe();
    expect(sub.ok, JSON.stringify(sub)).toBe(true);
    expect((await seats()).status).toBe(200);

    const hash = createHash('sha256').update(token).digest('base64url');
    const revoke = HTTP_ROUTES.revokeBotToken.path.replace(':botId', bot.id).replace(':tokenId', hash);
    expect((await api(one, owner, 'POST', revoke, {})).status).toBe(200);

    await waitFor('the socket on the other process to close', () => !socket.socket.connected, 10_000);
    const after = await seats();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('auth/required');
  });
});
