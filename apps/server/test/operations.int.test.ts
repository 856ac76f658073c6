/**
 * Running the server as an operator does: liveness and readiness, Prometheus metrics for admins or
 * on a port of their own, and the cross-site checks behind a reverse proxy that rewrites Host.
 */
import { healthSchema, livenessSchema } from '@bke/protocol';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { DEFAULT_LIMITS } from '../src/limits.ts';
import { enqueueMail } from '../src/mail/outbox.ts';
import { serveApp } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { authPerAddress: { burst: 30, perMinute: 60 } },
    metricsPort: { port: 0, host: '127.0.0.1' },
  }));
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

describe('health', () => {
  it('live answers without the database; ready and the old /api/health ask it', async () => {
    const live = await fetch(`${base}/api/health/live`);
    expect(live.status).toBe(200);
    expect(livenessSchema.parse(await live.json()).status).toBe('ok');
    for (const path of ['/api/health/ready', '/api/health']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(healthSchema.parse(await res.json())).toMatchObject({ status: 'ok', database: { up: true } });
    }
  });

  it('with the database gone: still live, not ready', async () => {
    const other = await openTestDatabase();
    const { app: down } = await serveApp(other.db);
    await other.db.close();
    expect((await down.http.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    const ready = await down.http.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(healthSchema.parse(ready.json())).toMatchObject({ status: 'degraded', database: { up: false } });
    await down.close();
    await other.dispose();
  });

  it('while shutting down: not ready any more', async () => {
    const other = await openTestDatabase();
    const { app: leaving } = await serveApp(other.db);
    const closing = leaving.close();
    const ready = await leaving.http.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    await closing;
    await other.dispose();
  });
});

describe('metrics', () => {
  let worldId = '';

  it('count orders with their time to acknowledgement, sockets, queues and the pool', async () => {
    const alice = await signup(base, 'alice');
    const created = await api(base, alice, 'POST', '/api/worlds', { name: 'Measured' });
    worldId = (created.body.world as { id: string }).id;
    expect((await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    const c = new TestClient(base, alice, worldId);
    clients.push(c);
    expect((await c.subscribe()).ok).toBe(true);
    let accepted = 0;
    for (let i = 0; i < 3; i++) {
      const order = pickOrder(c.legal, { done: false });
      const r = await c.order(order);
      expect(r.ok).toBe(true);
      if (r.ok) await c.until(r.version);
      await new Promise((r) => setTimeout(r, 50));
      accepted++;
    }
    const refused = await c.order({ type: 'endPhase' }, 0);
    expect(refused.ok).toBe(false);

    const text = await (await fetch(`http://127.0.0.1:${app.metricsPort}/metrics`)).text();
    expect(text).toMatch(new RegExp(`^bke_orders_total\\{outcome="accepted"\\} ${accepted}$`, 'm'));
    expect(text).toMatch(/^bke_orders_total\{outcome="refused"\} 1$/m);
    expect(text).toMatch(
      new RegExp(`^bke_order_ack_seconds_count\\{outcome="accepted"\\} ${accepted}$`, 'm'),
    );
    expect(text).toMatch(/^bke_sockets 1$/m);
    expect(text).toMatch(new RegExp(`^bke_world_queue_depth\\{world="${worldId}"\\} \\d+$`, 'm'));
    expect(text).toMatch(/^bke_deadlines_fired_total 0$/m);
    expect(text).toMatch(/^bke_cluster_processes 1$/m);
    if (t.db.kind === 'postgres') expect(text).toMatch(/^bke_db_pool_connections\{state="total"\} \d+$/m);
  });

  it('time HTTP requests by route pattern and status, and name the build and the pool', async () => {
    const alice = await api(base, null, 'POST', '/api/auth/login', {
      username: 'alice',
      password: 'password123',
    });
    expect(alice.status).toBe(200);
    expect((await api(base, alice.cookie, 'GET', `/api/worlds/${worldId}`)).status).toBe(200);
    expect(
      (await api(base, alice.cookie, 'GET', '/api/worlds/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
    expect((await fetch(`${base}/no/such/route.txt`)).status).toBe(404);
    const text = await app.metrics.text();
    // The pattern, never the id: one series per route.
    expect(text).toMatch(
      /^bke_http_request_duration_seconds_count\{method="GET",route="\/api\/worlds\/:id",status="200"\} [1-9]\d*$/m,
    );
    expect(text).toMatch(
      /^bke_http_request_duration_seconds_count\{method="GET",route="\/api\/worlds\/:id",status="404"\} 1$/m,
    );
    expect(text).toMatch(
      /^bke_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/login",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^bke_http_request_duration_seconds_count\{method="GET",route="\(none\)",status="404"\} 1$/m,
    );
    expect(text.split('\n').filter((l) => l.startsWith('bke_http') && l.includes(worldId))).toEqual([]);
    expect(text).toMatch(/^bke_build_info\{version="\d+\.\d+\.\d+",node="v\d+\.\d+\.\d+"\} 1$/m);
    if (t.db.kind === 'postgres') expect(text).toMatch(/^bke_db_pool_connections\{state="max"\} 5$/m);
  });

  it('count the outbox: queued, then sent by kind', async () => {
    const before = await app.metrics.text();
    expect(before).toMatch(/^bke_mail_queued 0$/m);
    await enqueueMail(
      t.db,
      {
        userId: null,
        kind: 'reset_password',
        to: 'someone@example.org',
        subject: 'Reset',
        text: 'Reset your password.',
        html: '<p>Reset your password.</p>',
      },
      DEFAULT_LIMITS.mail,
    );
    const queued = await app.metrics.text();
    expect(queued).toMatch(/^bke_mail_queued 1$/m);
    expect(queued).toMatch(/^bke_mail_oldest_queued_seconds \d/m);
    expect(await app.mail.runOnce()).toBe(1);
    const sent = await app.metrics.text();
    expect(sent).toMatch(/^bke_mail_queued 0$/m);
    expect(sent).toMatch(/^bke_mail_sent_total\{kind="reset_password"\} 1$/m);
  });

  it('count the outbox: a failed attempt, to be retried', async () => {
    const other = await openTestDatabase();
    // A mail server nobody listens on: every attempt fails at once.
    const { app: failing } = await serveApp(other.db, { mail: { smtpUrl: 'smtp://127.0.0.1:1' } });
    try {
      await enqueueMail(
        other.db,
        {
          userId: null,
          kind: 'verify_email',
          to: 'someone@example.org',
          subject: 'Verify',
          text: 'Verify your address.',
          html: '<p>Verify your address.</p>',
        },
        DEFAULT_LIMITS.mail,
      );
      expect(await failing.mail.runOnce()).toBe(0);
      const text = await failing.metrics.text();
      expect(text).toMatch(/^bke_mail_failed_total\{kind="verify_email",then="retry"\} 1$/m);
      expect(text).toMatch(/^bke_mail_queued 1$/m);
    } finally {
      await failing.close();
      await other.dispose();
    }
  });

  it('count the deadlines this process fires', async () => {
    await t.db.sql(`UPDATE worlds SET deadline_at = now() - interval '1 second' WHERE id = $1`, [worldId]);
    expect(await app.hub.pollDeadlines()).toBe(1);
    expect(await app.metrics.text()).toMatch(/^bke_deadlines_fired_total 1$/m);
  });

  it('are for admins only on the site itself; the metrics port answers nothing else', async () => {
    expect((await fetch(`${base}/api/admin/metrics`)).status).toBe(401);
    const player = await signup(base, 'bob');
    const forbidden = await api(base, player, 'GET', '/api/admin/metrics');
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'auth/forbidden' } } });
    await createUser(t.db, 'root', 'password123', 'admin');
    const admin = (
      await api(base, null, 'POST', '/api/auth/login', { username: 'root', password: 'password123' })
    ).cookie;
    const res = await fetch(`${base}/api/admin/metrics`, { headers: { cookie: admin ?? '' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^# TYPE bke_orders_total counter$/m);
    expect((await fetch(`http://127.0.0.1:${app.metricsPort}/api/health`)).status).toBe(404);
  });
});

describe('behind a reverse proxy that rewrites Host', () => {
  const proxied = {
    'x-bke-csrf': '1',
    'content-type': 'application/json',
    host: '10.0.0.5:3000',
    origin: 'https://bke.example.org',
    'x-forwarded-host': 'bke.example.org',
    'x-forwarded-proto': 'https',
  };
  const post = (a: App) =>
    a.http.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: proxied,
      payload: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
    });

  it('takes the browser’s site from the proxy it trusts, and refuses a downgrade', async () => {
    const { app: trusting } = await serveApp(t.db, { trustProxy: '127.0.0.1' });
    try {
      // Past the cross-site check: the login itself answers.
      expect((await post(trusting)).json()).toMatchObject({ error: { code: 'auth/bad_credentials' } });
      const res = await trusting.http.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { ...proxied, origin: 'http://bke.example.org' },
        payload: '{}',
      });
      expect(res.json()).toMatchObject({ error: { code: 'http/cross_site' } });
    } finally {
      await trusting.close();
    }
  });

  it('believes no forwarded header from a proxy it does not trust', async () => {
    const { app: wary } = await serveApp(t.db, { trustProxy: '10.9.9.9' });
    try {
      expect((await post(wary)).json()).toMatchObject({ error: { code: 'http/cross_site' } });
    } finally {
      await wary.close();
    }
  });

  it('lets a browser’s socket through the trusted proxy, and no other', async () => {
    const handshake = async (at: string) => {
      const socket = connect(at, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: { origin: proxied.origin, 'x-forwarded-host': proxied['x-forwarded-host'] },
      });
      try {
        return await new Promise<string>((resolve) => {
          socket.on('hello', () => resolve('hello'));
          socket.on('connect_error', () => resolve('refused'));
        });
      } finally {
        socket.close();
      }
    };
    const trusting = await serveApp(t.db, { trustProxy: 'loopback' });
    const wary = await serveApp(t.db, { trustProxy: false });
    try {
      expect(await handshake(trusting.base)).toBe('hello');
      expect(await handshake(wary.base)).toBe('refused');
    } finally {
      await trusting.app.close();
      await wary.app.close();
    }
  });
});
