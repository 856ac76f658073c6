/**
 * Deadlines fire exactly once with several server processes on one database: two hubs (each with its
 * own in-memory worlds, as two processes would have) race for the same due deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { projectEvents } from '../src/worlds/projections.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

async function worldWithTwoPlayers(hub: WorldHub, earlyResolution = true) {
  const a = await createUser(t.db, `ann${Math.random().toString(36).slice(2, 8)}`, 'password123');
  const b = await createUser(t.db, `ben${Math.random().toString(36).slice(2, 8)}`, 'password123');
  if (!a || !b) throw new Error('users');
  const w = await hub.createWorld(a.id, {
    name: 'Race',
    deadline: { mode: 'live', minutesPerPhase: 0.05 },
    earlyResolution,
  });
  if (!w.ok) throw new Error('world');
  expect((await hub.join(w.worldId, a)).ok).toBe(true);
  expect((await hub.join(w.worldId, b)).ok).toBe(true);
  return { worldId: w.worldId, a, b };
}

describe('deadlines across processes', () => {
  it('a due deadline is claimed and fired by exactly one of two processes', async () => {
    const one = new WorldHub(t.db);
    const two = new WorldHub(t.db);
    const { worldId } = await worldWithTwoPlayers(one);
    const rtOne = await one.get(worldId);
    const before = rtOne?.version ?? -1;
    await two.get(worldId); // both processes hold the world in memory
    const due = rtOne?.head.deadlineAt?.getTime() ?? 0;
    expect(due).toBeGreaterThan(Date.now());
    await new Promise((r) => setTimeout(r, due - Date.now() + 150));
    const fired = await Promise.all([one.pollDeadlines(), two.pollDeadlines()]);
    expect(fired[0] + fired[1]).toBe(1);
    const rows = await t.db.prisma.worldOrder.findMany({ where: { worldId, seq: { gt: before } } });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.kind === 'timeout')).toBe(true);
    const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId } });
    expect(seats.reduce((n, s) => n + s.missedTurns, 0)).toBeGreaterThan(0);
  });

  it('two processes firing the same step at once commit one batch (version compare-and-set)', async () => {
    const one = new WorldHub(t.db);
    const two = new WorldHub(t.db);
    const { worldId } = await worldWithTwoPlayers(one);
    const [r1, r2] = [await one.get(worldId), await two.get(worldId)];
    if (!r1 || !r2) throw new Error('runtimes');
    const later = new Date(Date.now() + 60_000);
    const results = await Promise.all([
      r1.run(() => one.fireDeadline(r1, later)),
      r2.run(() => two.fireDeadline(r2, later)),
    ]);
    expect(results.filter((r) => r?.ok).length).toBe(1);
    // One batch in the log, seqs without a gap: the loser wrote nothing of its own.
    const seqs = await t.db.prisma.worldOrder.findMany({ where: { worldId }, select: { seq: true } });
    expect(Math.max(...seqs.map((o) => o.seq))).toBe(seqs.length);
    const won = results.find((r) => r?.ok);
    expect(seqs.length).toBe(won?.ok ? won.version : -1);
    // The loser caught up: both processes agree on the state.
    await r1.run(() => r1.catchUp());
    await r2.run(() => r2.catchUp());
    expect(r2.version).toBe(r1.version);
    expect(one.engine.hash(r1.state)).toBe(two.engine.hash(r2.state));
  });

  it('with early resolution off, endPhase is held as "ready" until the deadline and not a miss', async () => {
    const hub = new WorldHub(t.db);
    const { worldId } = await worldWithTwoPlayers(hub, false);
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('runtime');
    // Play the entry step (choosing a start) until someone has an endPhase to declare.
    let guard = 0;
    let clock = Date.now();
    while (
      !rt.waitingFor().some((p) => hub.engine.legalOrders(rt.state, p).some((o) => o.type === 'endPhase'))
    ) {
      clock += 60_000; // each default order starts a new deadline from the time it fired
      await rt.run(() => hub.fireDeadline(rt, new Date(clock)));
      if (guard++ > 20) throw new Error('never reached a phase with endPhase');
    }
    const player = rt.waitingFor()[0] as string;
    const seat = (await hub.seats(worldId)).find((s) => s.playerId === player);
    const v = rt.version;
    const r = await hub.order(worldId, player, seat?.userId ?? '', v, { type: 'endPhase' });
    expect(r).toMatchObject({ ok: true, deferred: true, version: v });
    expect(rt.version).toBe(v);
    expect(await hub.ready(rt)).toEqual([player]);
    const missed = async () =>
      (await t.db.prisma.worldSeat.findFirstOrThrow({ where: { worldId, playerId: player } })).missedTurns;
    const missedBefore = await missed();
    await rt.run(() => hub.fireDeadline(rt, new Date(clock + 60_000)));
    expect(rt.version).toBeGreaterThan(v);
    expect(await missed()).toBe(missedBefore);
  });

  it('keeps the moderation audit log append-only at the database level', async () => {
    const u = await createUser(t.db, 'auditor', 'password123');
    if (!u) throw new Error('user');
    const row = await t.db.prisma.moderationAction.create({
      data: { actorId: u.id, action: 'world.pause', reason: 'test' },
    });
    await expect(
      t.db.prisma.moderationAction.update({ where: { id: row.id }, data: { reason: 'rewritten' } }),
    ).rejects.toThrow();
    await expect(t.db.prisma.moderationAction.deleteMany({})).rejects.toThrow();
    expect((await t.db.prisma.moderationAction.findUniqueOrThrow({ where: { id: row.id } })).reason).toBe(
      'test',
    );
  });

  it('projects the engine ledger rows into the turn record sheet, a re-emitted row replacing the first', async () => {
    const hub = new WorldHub(t.db);
    const { worldId } = await worldWithTwoPlayers(hub);
    const rt = await hub.get(worldId);
    if (!rt) throw new Error('runtime');
    const row = {
      player: 'p1',
      cycle: 1,
      position: 'GOTH',
      stage: 'kingdom',
      turn: 5,
      tax: 7,
      other: 2,
      vp: 30,
      carried: 3,
      available: 12,
      upkeep: 4,
      purchases: 5,
      administration: 2,
      treasury: 1,
      adminPercent: 0,
      adminResult: null,
    };
    const ev = (r: typeof row) => [{ type: 'ledgerRow', row: r }] as never;
    await projectEvents(t.db, worldId, 10, rt.state, ev(row));
    await projectEvents(t.db, worldId, 12, rt.state, ev({ ...row, adminPercent: 20 }));
    const rows = await t.db.prisma.vpLedgerRow.findMany({ where: { worldId, playerId: 'p1', turn: 5 } });
    const col = Object.fromEntries(rows.map((r) => [r.column, r.value]));
    expect(col).toMatchObject({ tax: 7, other: 2, vpTotal: 30, treasury: 1, adminPercent: 20 });
    expect(rows.find((r) => r.column === 'adminPercent')?.seq).toBe(12);
  });
});
