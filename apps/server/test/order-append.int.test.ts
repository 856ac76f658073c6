/**
 * The order append (worlds/store.ts): the log's primary key (world_id, seq) is the compare-and-set,
 * and the `worlds` row is written only when the head moves (a new step, its deadline, the status).
 * Orders within a step leave the row untouched; two processes appending the same seq leave exactly
 * one batch, whole; a process that is behind is refused and catches up; an order racing a pause is
 * never appended once the pause committed. Two hubs on one database stand for two server processes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import type { CommitResult, PendingOrder, WorldRuntime } from '../src/worlds/runtime.ts';
import { readHead } from '../src/worlds/store.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

/** A world with two players, played (first orders of each) up to the first player's movement phase. */
async function worldInMovement(hub: WorldHub) {
  const a = await createUser(t.db, `ann${Math.random().toString(36).slice(2, 8)}`, 'password123');
  const b = await createUser(t.db, `ben${Math.random().toString(36).slice(2, 8)}`, 'password123');
  if (!a || !b) throw new Error('users');
  const w = await hub.createWorld(a.id, {
    name: 'Append',
    deadline: { mode: 'live', minutesPerPhase: 10 },
    earlyResolution: true,
  });
  if (!w.ok) throw new Error('world');
  expect((await hub.join(w.worldId, a)).ok).toBe(true);
  expect((await hub.join(w.worldId, b)).ok).toBe(true);
  const rt = await hub.get(w.worldId);
  if (!rt) throw new Error('runtime');
  for (let i = 0; i < 12 && !rt.head.stepKey.endsWith('|movement'); i++) {
    const p = rt.waitingFor()[0];
    if (!p) throw new Error('nobody waited for');
    const start = hub.engine.legalOrders(rt.state, p).find((o) => o.type === 'chooseStart') as
      | { position: string; areas: string[] }
      | undefined;
    const order = start
      ? { type: 'chooseStart', position: start.position, area: start.areas[0] }
      : { type: 'endPhase' };
    expect((await rt.run(() => rt.commit([player(p, order)]))).ok).toBe(true);
  }
  expect(rt.head.stepKey).toMatch(/\|movement$/);
  return { worldId: w.worldId, rt };
}

const player = (actor: string, order: unknown): PendingOrder => ({
  actor: actor as PendingOrder['actor'],
  userId: null,
  kind: 'player',
  order,
});

/** A move of the waited-for player's first movable unit (it keeps the step: the phase goes on). */
function moveOrder(hub: WorldHub, rt: WorldRuntime): PendingOrder {
  const p = rt.waitingFor()[0];
  if (!p) throw new Error('nobody waited for');
  const mv = hub.engine.legalOrders(rt.state, p).find((o) => o.type === 'move') as
    | { unit: string; destinations: { to: string; path: string[] }[] }
    | undefined;
  const to = mv?.destinations[0];
  if (!mv || !to) throw new Error('no move');
  return player(p, { type: 'move', unit: mv.unit, to: to.to, path: to.path });
}

const undoOrder = (rt: WorldRuntime) => player(rt.waitingFor()[0] ?? '', { type: 'undo' });

/** The stored row's version stamp (its transaction id) and last write: both change with each UPDATE. */
async function rowStamp(worldId: string) {
  const [row] = await t.db.sql<{
    xmin: string;
    updated_at: Date;
    step_key: string;
    deadline_at: Date | null;
  }>('SELECT xmin::text AS xmin, updated_at, step_key, deadline_at FROM worlds WHERE id = $1::uuid', [
    worldId,
  ]);
  if (!row) throw new Error('no world row');
  return row;
}

const logSeqs = async (worldId: string) =>
  (
    await t.db.sql<{ seq: number }>('SELECT seq FROM world_orders WHERE world_id = $1::uuid ORDER BY seq', [
      worldId,
    ])
  ).map((r) => r.seq);

/** A connection of its own (PostgreSQL only), standing for another process's transaction. */
async function otherSession(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: t.url ?? '' });
  await c.connect();
  return c;
}

/** Waits until `n` statements of this database wait for a row lock. */
async function lockWaiters(n: number, c: pg.Client): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    // `c` asks from inside its transaction, where the activity view is read once and kept: a
    // backend that connected since (a pool opening a connection for the append) would never show.
    await c.query('SELECT pg_stat_clear_snapshot()');
    const r = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if ((r.rows[0]?.n ?? 0) >= n) return;
    if (Date.now() > end) throw new Error(`expected ${n} statements waiting for a lock`);
    await new Promise((x) => setTimeout(x, 20));
  }
}

describe('the order append', () => {
  it('orders within a step leave the worlds row as it was; the step moving on writes it', async () => {
    const hub = new WorldHub(t.db);
    const { worldId, rt } = await worldInMovement(hub);
    const before = await rowStamp(worldId);
    const step = rt.head.stepKey;
    const from = rt.version;
    for (let i = 0; i < 6; i++) {
      const order = i % 2 === 0 ? moveOrder(hub, rt) : undoOrder(rt);
      const r = await rt.run(() => rt.commit([order]));
      expect(r).toEqual({ ok: true, version: from + i + 1 });
    }
    expect(rt.head.stepKey).toBe(step);
    const during = await rowStamp(worldId);
    expect(during.xmin).toBe(before.xmin);
    expect(during.updated_at.getTime()).toBe(before.updated_at.getTime());
    // The version is the log's: six orders on, with the row untouched.
    expect(await logSeqs(worldId)).toEqual(Array.from({ length: from + 6 }, (_, i) => i + 1));
    expect((await readHead(t.db, worldId))?.head).toEqual(rt.head);
    // Another process loading the world now holds the same version and state.
    const other = await new WorldHub(t.db).get(worldId);
    expect(other?.version).toBe(from + 6);
    expect(other && hub.engine.hash(other.state)).toBe(hub.engine.hash(rt.state));

    // The phase ends: a new step, a new deadline, written with the order.
    const end = await rt.run(() => rt.commit([player(rt.waitingFor()[0] ?? '', { type: 'endPhase' })]));
    expect(end.ok).toBe(true);
    expect(rt.head.stepKey).not.toBe(step);
    const after = await rowStamp(worldId);
    expect(after.xmin).not.toBe(before.xmin);
    expect(after.step_key).toBe(rt.head.stepKey);
    expect(after.deadline_at?.getTime()).toBe(rt.head.deadlineAt?.getTime());
  });

  it('two processes appending the same seq at once leave one batch, whole; the other catches up', async () => {
    const one = new WorldHub(t.db);
    const two = new WorldHub(t.db);
    const { worldId, rt: r1 } = await worldInMovement(one);
    const r2 = await two.get(worldId);
    if (!r2) throw new Error('runtime');
    const from = r1.version;
    expect(r2.version).toBe(from);
    // Process two's batch is two orders (a move and its undo), process one's a single move: both
    // for seq from + 1. On PostgreSQL a third session holds the row until both statements wait,
    // so that they run at the same time and the second fails on the log's primary key.
    const blocker = t.url ? await otherSession() : null;
    try {
      await blocker?.query('BEGIN');
      await blocker?.query('SELECT 1 FROM worlds WHERE id = $1 FOR NO KEY UPDATE', [worldId]);
      const move = moveOrder(one, r1);
      const batch = [move, undoOrder(r2)];
      const racing: [Promise<CommitResult>, Promise<CommitResult>] = [
        r1.run(() => r1.commit([move])),
        r2.run(() => r2.commit(batch)),
      ];
      if (blocker) {
        await lockWaiters(2, blocker);
        await blocker.query('COMMIT');
      }
      const [a, b] = await Promise.all(racing);
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      const loser = a.ok ? b : a;
      expect(loser).toMatchObject({ ok: false, error: { code: 'sync/stale' } });
      // Exactly the winner's rows: one for process one's order, two for process two's batch.
      const seqs = await logSeqs(worldId);
      expect(seqs).toEqual(Array.from({ length: from + (a.ok ? 1 : 2) }, (_, i) => i + 1));
      const last = await t.db.sql<{ order: { type: string } }>(
        'SELECT "order" FROM world_orders WHERE world_id = $1::uuid AND seq > $2 ORDER BY seq',
        [worldId, from],
      );
      expect(last.map((r) => r.order.type)).toEqual(a.ok ? ['move'] : ['move', 'undo']);
      // The loser caught up on its way out: both processes hold the same version and state.
      expect(r1.version).toBe(seqs.length);
      expect(r2.version).toBe(seqs.length);
      expect(two.engine.hash(r2.state)).toBe(one.engine.hash(r1.state));
    } finally {
      await blocker?.end();
    }

    // Process one moves on; process two, not told, appends from the version it holds: refused,
    // nothing written, and it catches up.
    const ahead = r1.version;
    const next = r1.waitingFor()[0] ?? '';
    expect((await r1.run(() => r1.commit([player(next, { type: 'endPhase' })]))).ok).toBe(true);
    expect(r2.version).toBe(ahead);
    const stale = await r2.run(() => r2.commit([player(next, { type: 'endPhase' })]));
    expect(stale).toMatchObject({ ok: false, error: { code: 'sync/stale', version: ahead + 1 } });
    expect(await logSeqs(worldId)).toHaveLength(ahead + 1);
    expect(r2.version).toBe(r1.version);
    expect(r2.head).toEqual(r1.head);
    expect(two.engine.hash(r2.state)).toBe(one.engine.hash(r1.state));
  });

  it.runIf(process.env.DATABASE_URL)(
    'an order racing a pause waits for it and is refused once it committed, within a step or ending it',
    async () => {
      const hub = new WorldHub(t.db);
      const { worldId, rt } = await worldInMovement(hub);
      const moderator = await otherSession();
      try {
        for (const kind of ['within the step', 'ending the step'] as const) {
          const from = rt.version;
          // A moderator's pause as writeHead makes it (moderation/context.ts): an UPDATE of the row,
          // here held open while the order is on its way.
          await moderator.query('BEGIN');
          await moderator.query(
            `UPDATE worlds SET status = 'paused', deadline_at = NULL, pause_reason = 'race' WHERE id = $1`,
            [worldId],
          );
          const order =
            kind === 'within the step'
              ? moveOrder(hub, rt)
              : player(rt.waitingFor()[0] ?? '', { type: 'endPhase' });
          const racing = rt.run(() => rt.commit([order]));
          await lockWaiters(1, moderator);
          await moderator.query('COMMIT');
          expect(await racing, kind).toMatchObject({ ok: false, error: { code: 'world/paused' } });
          expect(await logSeqs(worldId), kind).toHaveLength(from);
          expect(rt.settings.status).toBe('paused');
          // Resumed (as resumeWorld would), for the next round.
          await moderator.query(
            `UPDATE worlds SET status = 'running', deadline_at = now() + interval '10 minutes', pause_reason = NULL
              WHERE id = $1`,
            [worldId],
          );
          await rt.run(() => rt.catchUp());
          expect(rt.settings.status).toBe('running');
        }
      } finally {
        await moderator.end();
      }
    },
  );
});
