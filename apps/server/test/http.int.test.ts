import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorBodySchema, healthSchema, helloSchema } from '@bke/protocol';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;

beforeAll(async () => {
  t = await openTestDatabase();
  const webDist = await mkdtemp(path.join(tmpdir(), 'bke-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>BKE Online</title>');
  app = await buildApp({ db: t.db, webDist });
  base = await app.http.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = errorBodySchema.parse(await res.json());
  expect(body.error.code).toBe(code);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
}

describe('HTTP', () => {
  it('reports health with the database up', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    const health = healthSchema.parse(await res.json());
    expect(health).toMatchObject({ status: 'ok', database: { up: true } });
  });

  it('reports the database down as degraded with 503', async () => {
    const other = await openTestDatabase();
    const degraded = await buildApp({ db: other.db, webDist: '/nonexistent' });
    await other.db.close();
    const res = await degraded.http.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(healthSchema.parse(res.json())).toMatchObject({ status: 'degraded', database: { up: false } });
    await degraded.close();
    await other.dispose();
  });

  it('serves the web app, and index.html for client routes', async () => {
    for (const route of ['/', '/worlds/123']) {
      const res = await fetch(`${base}${route}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('BKE Online');
    }
  });

  it('answers unknown API routes with a JSON error code', async () => {
    await expectError(await fetch(`${base}/api/nothing-here`), 404, 'http/not_found');
    await expectError(await fetch(`${base}/api/health`, { method: 'DELETE' }), 404, 'http/not_found');
  });

  it('answers malformed JSON with a JSON error code and keeps serving', async () => {
    const bad = await fetch(`${base}/api/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bke-csrf': '1' },
      body: '{"unterminated',
    });
    expect([400, 404]).toContain(bad.status);
    const body = errorBodySchema.parse(await bad.json());
    expect(['http/bad_json', 'http/not_found']).toContain(body.error.code);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('answers an oversized body with http/too_large', async () => {
    const echo = await buildApp({ db: t.db, webDist: '/nonexistent' });
    echo.http.post('/api/__echo', async (req) => req.body);
    const res = await echo.http.inject({
      method: 'POST',
      url: '/api/__echo',
      headers: { 'content-type': 'application/json', 'x-bke-csrf': '1' },
      payload: JSON.stringify({ blob: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(errorBodySchema.parse(res.json()).error.code).toBe('http/too_large');
    await echo.close();
  });
});

describe('Socket.IO', () => {
  it('greets a client on the same port', async () => {
    const socket = connect(base, { transports: ['websocket'], forceNew: true });
    try {
      const hello = await new Promise((resolve, reject) => {
        socket.on('hello', resolve);
        socket.on('connect_error', reject);
      });
      expect(helloSchema.parse(hello).serverVersion).toMatch(/^\d+\.\d+\.\d+$/);
    } finally {
      socket.close();
    }
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  /**
   * Two log-in attempts with a bad password, from two players behind the same proxy. Each call
   * has players of its own: the counts live in the database, shared by every app on it.
   */
  let call = 0;
  async function attempts(trustProxy: boolean | number) {
    call++;
    const a = await buildApp({
      db: t.db,
      webDist: '/nonexistent',
      deadlinePollMs: 0,
      limits: { authPerAddress: { burst: 1, perMinute: 0.006 } },
      trustProxy,
    });
    try {
      const statuses: number[] = [];
      for (const player of [`203.0.113.${call}`, `198.51.100.${call}`]) {
        const res = await a.http.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-bke-csrf': '1', 'x-forwarded-for': player, 'content-type': 'application/json' },
          payload: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
        });
        statuses.push(res.statusCode);
      }
      return statuses;
    } finally {
      await a.close();
    }
  }

  it('rate-limits each player by the address the proxy forwards when the proxy is trusted', async () => {
    expect(await attempts(true)).toEqual([401, 401]);
    expect(await attempts(1)).toEqual([401, 401]);
  });

  it('otherwise sees only the proxy: one bucket for everyone behind it', async () => {
    expect(await attempts(false)).toEqual([401, 429]);
  });
});
