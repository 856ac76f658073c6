/**
 * The database goes away under two real server processes (the compiled server, as `npm start`
 * runs it) on a PostgreSQL database of their own, with players on real Socket.IO clients:
 *
 * - every backend of that database is terminated (what a restart or a failover does to the
 *   connections): both processes live on, listen again, and play goes on across them; a chat
 *   line sent on one while the other was not listening reaches the other's sockets afterwards;
 * - the database refuses connections for longer than the adapter waits before it tries again
 *   (`ALLOW_CONNECTIONS false`, every backend terminated), then takes them again: meanwhile both
 *   processes live on, answer "not ready", and tell their sockets; afterwards they are ready, tell
 *   the sockets again, and play and chat go on across them.
 *
 * Every acknowledged order is in the order log afterwards. The faults are made on this test's own
 * database only (terminating its backends, `ALLOW_CONNECTIONS`): the PostgreSQL server itself is
 * shared with others and is never restarted. Skipped on the embedded database, which has no
 * connections to lose and serves one process only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const serverUrl = process.env.DATABASE_URL;
let scratch: { url: string; drop(): Promise<void> } | null = null;
let dbName = '';
/** On the server's own database, never on the scratch one: it must outlive the faults. */
let admin: pg.Client | null = null;
const procs: ServerProcess[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  if (!serverUrl) return;
  scratch = await createScratchDatabase(serverUrl);
  dbName = new URL(scratch.url).pathname.slice(1);
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const env = { DATABASE_URL: scratch.url, CLUSTER_ADAPTER: 'postgres', DEADLINE_POLL_MS: '200' };
  // One after the other: the first migrates the fresh database.
  procs.push(startServerProcess(env));
  await procs[0]?.ready(90_000);
  procs.push(startServerProcess(env));
  await procs[1]?.ready(90_000);
}, 200_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(procs.map((p) => p.stop()));
  await admin?.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`).catch(() => {});
  await admin?.end();
  await scratch?.drop();
});

const base = (i: number) => procs[i]?.base ?? '';
const alive = () => procs.every((p) => p.child.exitCode === null && p.child.signalCode === null);
const outputs = () => procs.map((p, i) => `--- process ${i}:\n${p.output.join('')}`).join('\n');
/** Lines each process logged from `marks` on (an offset into its output per process). */
const since = (marks: number[]) => procs.map((p, i) => p.output.join('').slice(marks[i] ?? 0));
const mark = () => procs.map((p) => p.output.join('').length);

/** Ends every connection to the test's database but the caller's own; how many it ended. */
async function terminateBackends(): Promise<number> {
  const r = await admin?.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [dbName],
  );
  return r?.rows[0]?.n ?? 0;
}

/** The readiness status code of process `i` (0 when it does not answer at all). */
async function readiness(i: number): Promise<number> {
  const r = await fetch(`${base(i)}/api/health/ready`).catch(() => null);
  return r?.status ?? 0;
}

/** Polls an asynchronous condition until it holds (or a process died, which fails at once). */
async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (!alive()) throw new Error(`a server process exited while waiting for ${what}:\n${outputs()}`);
    if (await ok()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${outputs()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(serverUrl)('the database goes away under two server processes', () => {
  let worldId = '';
  let a: TestClient;
  let b: TestClient;
  const byPlayer = new Map<string, TestClient>();
  const acked: { seq: number; order: unknown }[] = [];
  const policy = { done: false };

  /** Plays `n` orders, each by whoever the world waits for; both clients see each one. */
  async function play(n: number) {
    for (let i = 0; i < n; i++) {
      const waiting = a.status?.waitingFor ?? [];
      const c = byPlayer.get(waiting.find((p) => byPlayer.has(p)) ?? '');
      if (!c) throw new Error(`nobody to play for: ${JSON.stringify(waiting)}`);
      const order = pickOrder(c.legal, policy);
      if (!order) throw new Error(`no order among ${JSON.stringify(c.legal)}`);
      const r = await c.order(order);
      if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
      acked.push({ seq: r.version, order });
      // The other player's process hears of it through the adapter (or its catch-up).
      await a.until(r.version);
      await b.until(r.version);
    }
  }

  /** A chat line from `from` reaches `to`, on the other process: only the adapter carries it. */
  async function chatAcross(from: TestClient, to: TestClient, body: string) {
    const r = await from.socket.emitWithAck('chat/send', { worldId, to: null, body });
    expect(r.ok).toBe(true);
    await until(`"${body}" on the other process`, async () => to.chat.some((m) => m.body === body));
  }

  async function everyAckedOrderLogged() {
    const log = new pg.Client({ connectionString: scratch?.url });
    await log.connect();
    try {
      const rows = await log.query<{ seq: number; order: unknown }>(
        'SELECT seq, "order" FROM world_orders WHERE world_id = $1',
        [worldId],
      );
      expect(acked.length).toBeGreaterThan(0);
      for (const x of acked) expect(rows.rows.find((r) => r.seq === x.seq)?.order).toEqual(x.order);
    } finally {
      await log.end();
    }
  }

  it('two processes serve one world, a player on each', async () => {
    const alice = await signup(base(0), 'alice');
    const bob = await signup(base(1), 'bob');
    const created = await api(base(0), alice, 'POST', '/api/worlds', {
      name: 'Faults',
      deadline: { mode: 'live', minutesPerPhase: 10 },
    });
    worldId = (created.body.world as { id: string }).id;
    expect((await api(base(0), alice, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    expect((await api(base(1), bob, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
    a = new TestClient(base(0), alice, worldId);
    b = new TestClient(base(1), bob, worldId);
    clients.push(a, b);
    for (const c of [a, b]) {
      expect((await c.subscribe()).ok).toBe(true);
      byPlayer.set(c.playerId ?? '', c);
    }
    await play(4);
  });

  it('every backend of its database terminated, both processes live on and play goes on', async () => {
    const from = mark();
    expect(await terminateBackends()).toBeGreaterThan(0);
    await until('both processes listening again', async () =>
      since(from).every((out) => out.includes('listening again; catching up')),
    );
    expect(alive()).toBe(true);
    await play(4);
    await chatAcross(a, b, 'after the restart');
    await chatAcross(b, a, 'and back');
    await everyAckedOrderLogged();
    expect(await readiness(0)).toBe(200);
    expect(await readiness(1)).toBe(200);
    expect(alive()).toBe(true);
  });

  it('a chat line sent while the other process is not listening reaches it once it listens again', async () => {
    const from = mark();
    expect(await terminateBackends()).toBeGreaterThan(0);
    // Process 1's adapter waits a second or more before it listens again: a line sent on process 0
    // now goes out in a NOTIFY that nobody on process 1 hears.
    await until('process 1 saying it lost its listening connection', async () =>
      (since(from)[1] ?? '').includes('connection to the database was lost'),
    );
    let sent = await a.socket.emitWithAck('chat/send', { worldId, to: null, body: 'in the gap' });
    // Process 0 may first meet a connection of its own pool that the termination ended.
    for (let tries = 0; !sent.ok && tries < 10; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      sent = await a.socket.emitWithAck('chat/send', { worldId, to: null, body: 'in the gap' });
    }
    expect(sent.ok).toBe(true);
    await until('both processes listening again', async () =>
      since(from).every((out) => out.includes('listening again; catching up')),
    );
    await until('"in the gap" on the other process', async () => b.chat.some((m) => m.body === 'in the gap'));
    expect(since(from)[1]).toContain('chat caught up after listening again');
  });

  it('the database away for a while: not ready, sockets told, then all back', async () => {
    const from = mark();
    await admin?.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    try {
      expect(await terminateBackends()).toBeGreaterThan(0);
      await until(
        'both processes not ready',
        async () => (await readiness(0)) === 503 && (await readiness(1)) === 503,
      );
      await until('both sockets told the database is away', async () =>
        [a, b].every((c) => c.database.at(-1) === false),
      );
      // The adapters found it refusing them at least once, and the watches said it was away.
      await until('both processes saying so', async () =>
        since(from).every(
          (out) => out.includes('cannot reach the database to listen') && out.includes('not answering'),
        ),
      );
      // An order now is refused (nothing can be stored), never acknowledged and lost.
      const c = byPlayer.get((a.status?.waitingFor ?? []).find((p) => byPlayer.has(p)) ?? '');
      const order = c ? pickOrder(c.legal, policy) : null;
      if (c && order) expect((await c.order(order)).ok).toBe(false);
      expect(alive()).toBe(true);
    } finally {
      await admin?.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    }
    await until(
      'both processes ready again',
      async () => (await readiness(0)) === 200 && (await readiness(1)) === 200,
    );
    await until('both sockets told the database is back', async () =>
      [a, b].every((c) => c.database.at(-1) === true),
    );
    await until('both processes listening again', async () =>
      since(from).every((out) => out.includes('listening again; catching up')),
    );
    await play(4);
    await chatAcross(a, b, 'after the outage');
    await chatAcross(b, a, 'and back again');
    await everyAckedOrderLogged();
    expect(alive()).toBe(true);
  }, 240_000);
});
