/**
 * A graceful stop of the compiled server, as an orchestrator stops it behind a load balancer
 * (main.ts `shutdown`): on SIGTERM readiness answers 503 at once, while for SHUTDOWN_NOTICE_SECONDS
 * every other request, socket and order is served as before; then the server drains — its sockets
 * are disconnected, the orders it acknowledged are in the database — and exits 0. A second signal
 * cuts the wait short, and the wait is never shorter than it was told.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const cleanups: (() => Promise<void>)[] = [];
const clients: TestClient[] = [];
const procs: ServerProcess[] = [];

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  for (const c of cleanups) await c();
});

/** A fresh database for one process: a scratch database on DATABASE_URL's server, else a data folder. */
async function freshDatabase(): Promise<Record<string, string>> {
  if (process.env.DATABASE_URL) {
    const s = await createScratchDatabase(process.env.DATABASE_URL);
    cleanups.push(s.drop);
    return { DATABASE_URL: s.url };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'bke-stop-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

async function start(noticeSeconds: number, db: Record<string, string>): Promise<ServerProcess> {
  const proc = startServerProcess({
    ...db,
    LOG_LEVEL: 'info',
    DEADLINE_POLL_MS: '0',
    SHUTDOWN_NOTICE_SECONDS: String(noticeSeconds),
  });
  procs.push(proc);
  await proc.ready(120_000);
  return proc;
}

/** The server's JSON log lines, parsed (the banner and blank lines are not JSON). */
function logLines(proc: ServerProcess): { msg: string; time: number }[] {
  return proc.output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; time: number });
}

/** Waits until the server logs a line starting with `msg` (an event, however long it takes). */
async function logged(proc: ServerProcess, msg: string, ms = 60_000): Promise<{ time: number }> {
  const end = Date.now() + ms;
  for (;;) {
    const line = logLines(proc).find((l) => l.msg.startsWith(msg));
    if (line) return line;
    if (Date.now() > end) throw new Error(`no "${msg}" in the log:\n${proc.output.join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a graceful stop on SIGTERM', () => {
  it('drops readiness first, serves everything else until told to drain, then disconnects and exits 0', async () => {
    const db = await freshDatabase();
    // A notice longer than the test: the second SIGTERM ends it, once everything was checked.
    const proc = await start(600, db);
    const base = proc.base;
    const alice = await signup(base, 'alice');
    const bob = await signup(base, 'bob');
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Graceful stop',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    });
    const worldId = (created.body.world as { id: string }).id;
    const byPlayer = new Map<string, TestClient>();
    for (const who of [alice, bob]) {
      await api(base, who, 'POST', `/api/worlds/${worldId}/join`, {});
      const c = new TestClient(base, who, worldId);
      clients.push(c);
      const r = await c.subscribe();
      if (!r.ok || !r.playerId) throw new Error('not seated');
      byPlayer.set(r.playerId, c);
    }
    const disconnects = [...byPlayer.values()].map(
      (c) => new Promise<string>((resolve) => c.socket.once('disconnect', (reason) => resolve(reason))),
    );

    proc.child.kill('SIGTERM');
    await logged(proc, 'shutting down');
    const ready = await fetch(`${base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe('stopping');
    // Everything else is served while the balancer has yet to notice.
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    const world = (await api(base, alice, 'GET', `/api/worlds/${worldId}`)).body.world as {
      version: number;
      waitingFor: string[];
    };
    const player = byPlayer.get(world.waitingFor[0] ?? '');
    if (!player) throw new Error('nobody to play for');
    expect(player.socket.connected).toBe(true);
    const ack = await player.order(pickOrder(player.legal, { done: false }));
    expect(ack).toMatchObject({ ok: true, version: world.version + 1 });
    expect(logLines(proc).some((l) => l.msg.startsWith('draining'))).toBe(false);

    proc.child.kill('SIGTERM');
    expect(await Promise.all(disconnects)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await new Promise((r) => proc.child.once('exit', r))).toBe(0);
    await logged(proc, 'stopped');

    // The order acknowledged during the notice is in the order log.
    const reopened = await openDatabase(
      db.DATABASE_URL
        ? { kind: 'postgres', url: db.DATABASE_URL }
        : { kind: 'embedded', dataDir: db.DATA_DIR as string },
    );
    try {
      const rows = await reopened.sql<{ version: number }>(
        'SELECT coalesce(max(seq), 0)::int AS version FROM world_orders WHERE world_id = $1::uuid',
        [worldId],
      );
      expect(rows[0]?.version).toBe(world.version + 1);
    } finally {
      await reopened.close();
    }
  }, 240_000);

  it('waits the whole notice before draining when nothing cuts it short', async () => {
    const proc = await start(1.5, await freshDatabase());
    proc.child.kill('SIGTERM');
    expect(await new Promise((r) => proc.child.once('exit', r))).toBe(0);
    const down = await logged(proc, 'shutting down');
    const draining = await logged(proc, 'draining');
    // Log times are whole milliseconds, and Node may fire a timer within its millisecond's rounding.
    expect(draining.time - down.time).toBeGreaterThanOrEqual(1499);
  }, 180_000);
});
