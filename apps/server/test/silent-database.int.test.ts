/**
 * A network to the database that goes silent (packets dropped: no refusal, no reset) must not hang
 * readiness: connections and waits for one are bounded (DATABASE_CONNECT_TIMEOUT_MS) and so is
 * the ping, so readiness answers 503 and a load balancer takes the process out; once the network
 * is back, readiness answers 200 again. The silence is a TCP relay in this process between the
 * server's pools and the real PostgreSQL server that stops passing bytes on and leaves every
 * connection open. PostgreSQL only: the embedded database has no network.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { serveApp } from './helpers/app.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

/** A relay to `target` that can go silent, and come back with its old connections reset. */
function relay(target: URL) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('data', (b) => {
      if (!silent) upstream.write(b);
    });
    upstream.on('data', (b) => {
      if (!silent) client.write(b);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    server,
    silence() {
      silent = true;
    },
    /** The network is back; what was under way during the silence is lost (its connections reset). */
    restore() {
      silent = false;
      for (const s of sockets) s.destroy();
    },
  };
}

const serverUrl = process.env.DATABASE_URL;
let drop: (() => Promise<void>) | null = null;
let db: Database | null = null;
let app: App | null = null;
let base = '';
let net0: ReturnType<typeof relay>;

beforeAll(async () => {
  if (!serverUrl) return;
  const scratch = await createScratchDatabase(serverUrl);
  drop = scratch.drop;
  const direct = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 });
  await migrateDatabase(direct);
  await direct.close();
  const target = new URL(scratch.url);
  net0 = relay(target);
  await new Promise<void>((r) => net0.server.listen(0, '127.0.0.1', r));
  const via = new URL(scratch.url);
  via.hostname = '127.0.0.1';
  via.port = String((net0.server.address() as net.AddressInfo).port);
  db = await openDatabase({ kind: 'postgres', url: via.toString(), poolSize: 3, connectTimeoutMs: 1000 });
  ({ app, base } = await serveApp(db));
}, 120_000);
afterAll(async () => {
  net0?.restore();
  await app?.close();
  await db?.close();
  net0?.server.close();
  await drop?.();
});

const ready = async () => {
  const r = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(30_000) });
  return { status: r.status, body: (await r.json()) as { database?: { up: boolean } } };
};

describe.runIf(serverUrl)('readiness on a database network gone silent', () => {
  it('answers 503 instead of hanging, and 200 again once the network is back', async () => {
    expect((await ready()).status).toBe(200);
    net0.silence();
    // Twice: the first ping waits on a pooled connection that went silent, the second on a new one.
    for (let i = 0; i < 2; i++) {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.database?.up).toBe(false);
    }
    net0.restore();
    const end = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < end && status !== 200) {
      status = (await ready()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  }, 120_000);
});
