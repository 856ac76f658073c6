/**
 * The server (a child process) is killed with SIGKILL in the middle of a turn
 * and started again. No acknowledged order is lost, the stored deadline still fires, and clients
 * resync from their last version.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { api, pickOrder, shared, signup, TestClient } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

/**
 * Two cold starts of a real server process (a fresh embedded database's first start creates and
 * migrates it) and a deadline take more than the 60 s given to a test that starts nothing.
 */
const TWO_COLD_STARTS_MS = 240_000;

let env: Record<string, string>;
let cleanup: () => Promise<void> = async () => {};
let server: ServerProcess | null = null;
const clients: TestClient[] = [];

beforeAll(async () => {
  const base: Record<string, string> = {
    HOME: process.env.HOME ?? '/tmp',
    WEB_DIST: '/nonexistent',
    DEADLINE_POLL_MS: '200',
  };
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL);
    env = { ...base, DATABASE_URL: scratch.url };
    cleanup = scratch.drop;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'bke-restart-'));
    env = { ...base, DATA_DIR: dir };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server?.stop('SIGKILL');
  await cleanup();
});

/**
 * Starts the compiled server, as `npm start` runs it, in a process of its own; resolves with its
 * base URL once it answers ready.
 */
async function startServer(): Promise<string> {
  server = startServerProcess(env);
  await server.ready(120_000);
  return server.base;
}

async function kill9(): Promise<void> {
  await server?.stop('SIGKILL');
}

async function logged(worldId: string) {
  const db = await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'embedded', dataDir: env.DATA_DIR as string },
  );
  try {
    return await db.prisma.worldOrder.findMany({ where: { worldId }, orderBy: { seq: 'asc' } });
  } finally {
    await db.close();
  }
}

describe('SIGKILL in the middle of a turn', () => {
  it(
    'loses no acknowledged order, fires the stored deadline after restart, resyncs clients',
    async () => {
      let base = await startServer();
      const alice = await signup(base, 'alice');
      const bob = await signup(base, 'bob');
      const created = await api(base, alice, 'POST', '/api/worlds', {
        name: 'Crash',
        deadline: { mode: 'live', minutesPerPhase: 0.1 }, // 6 s per phase
      });
      const worldId = (created.body.world as { id: string }).id;
      await api(base, alice, 'POST', `/api/worlds/${worldId}/join`, {});
      await api(base, bob, 'POST', `/api/worlds/${worldId}/join`, {});
      const a = new TestClient(base, alice, worldId);
      const b = new TestClient(base, bob, worldId);
      clients.push(a, b);
      await a.subscribe();
      await b.subscribe();

      // Play until some orders were acknowledged, then kill the server right after an ack.
      const acked: { seq: number; order: unknown }[] = [];
      const policy = { done: false };
      for (let i = 0; i < 30 && acked.length < 4; i++) {
        const waiting = a.status?.waitingFor ?? [];
        const c = waiting.includes('p1') ? a : waiting.includes('p2') ? b : null;
        if (!c) break;
        await c.until(Math.max(a.version, b.version));
        const order = pickOrder(c.legal, policy);
        if (!order) break;
        const r = await c.order(order);
        if (r.ok) acked.push({ seq: r.version, order });
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(acked.length).toBeGreaterThan(0);
      await kill9();
      const last = acked[acked.length - 1] as { seq: number; order: unknown };

      const rows = await logged(worldId);
      for (const x of acked) expect(rows.find((r) => r.seq === x.seq)?.order).toEqual(x.order);
      const versionAtCrash = rows.length;

      base = await startServer();
      const a2 = new TestClient(base, alice, worldId);
      const b2 = new TestClient(base, bob, worldId);
      clients.push(a2, b2);
      a2.view = a.view;
      a2.version = a.version;
      b2.view = b.view;
      b2.version = b.version;
      const ra = await a2.subscribe(a.version);
      expect(ra.ok && ra.sync.kind).toBe('patches');
      await b2.subscribe(b.version);
      expect(a2.version).toBeGreaterThanOrEqual(last.seq);

      // Nobody acts: the deadline stored before the crash fires in the new process (6 s phases).
      await a2.until(versionAtCrash + 1, 20_000);
      await b2.until(a2.version, 5_000);
      expect(a2.gaps + b2.gaps).toBe(0);
      const fresh = new TestClient(base, null, worldId);
      clients.push(fresh);
      await fresh.subscribe();
      // The next 6 s deadline may fire meanwhile and reach one page before the other: the two are
      // compared once both hold the same version.
      while (a2.version !== fresh.version) {
        const at = Math.max(a2.version, fresh.version);
        await a2.until(at, 5_000);
        await fresh.until(at, 5_000);
      }
      expect(a2.version).toBeGreaterThan(versionAtCrash);
      expect(shared(a2.view)).toEqual(shared(fresh.view));
      const timeouts = (await api(base, null, 'GET', `/api/worlds/${worldId}`)).body.world as {
        seats: { missedTurns: number }[];
      };
      expect(timeouts.seats.reduce((n, s) => n + s.missedTurns, 0)).toBeGreaterThan(0);
      await kill9();
    },
    TWO_COLD_STARTS_MS,
  );
});
