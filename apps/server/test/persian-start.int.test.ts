/**
 * 13.2.3 on the server: a newcomer takes the PERSIAN position with its own order, then misses the
 * deadline of the army choice; the server's deadline path plays the engine's default, the army the
 * engine used to pick on its own (4-4, 4-2, 2-3 and the leader in Persia), logged as a timeout.
 */
import type { GameState, PlayerId } from '@bke/engine';
import { orderSchema } from '@bke/engine/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import type { WorldRuntime } from '../src/worlds/runtime.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

const user = async (name: string) => {
  const u = await createUser(t.db, `${name}${Math.random().toString(36).slice(2, 8)}`, 'password123');
  if (!u) throw new Error('user');
  return u;
};

/** Fire deadlines (each default order starts a new one) until `done` holds. */
async function playUntil(
  hub: WorldHub,
  rt: WorldRuntime,
  clock: { t: number },
  done: (s: GameState) => boolean,
) {
  for (let guard = 0; !done(rt.state); guard++) {
    if (guard > 5000) throw new Error(`not reached by turn ${rt.state.turn}`);
    clock.t += 60_000;
    await rt.run(() => hub.fireDeadline(rt, new Date(clock.t)));
  }
}

describe('the Persian start through the server', () => {
  it("a Persian who misses the army deadline is given the engine's default army", async () => {
    const hub = new WorldHub(t.db);
    const [a, b, c] = [await user('ann'), await user('ben'), await user('cyr')];
    const w = await hub.createWorld(a.id, {
      name: 'Persia',
      deadline: { mode: 'live', minutesPerPhase: 1 },
      earlyResolution: true,
      options: { opt: { persianKingdom: true } },
    });
    if (!w.ok) throw new Error('world');
    for (const u of [a, b]) expect((await hub.join(w.worldId, u)).ok).toBe(true);
    const rt = await hub.get(w.worldId);
    if (!rt) throw new Error('runtime');
    const clock = { t: Date.now() };
    // PERSIAN opens on turn 7 (13.2.3): a third player joins then and enters at the next turn start.
    await playUntil(hub, rt, clock, (s) => s.turn >= 7);
    const joined = await hub.join(w.worldId, c);
    if (!joined.ok) throw new Error('join');
    const p = joined.playerId as PlayerId;
    await playUntil(hub, rt, clock, (s) => s.step.kind === 'entry' && rt.waitingFor().includes(p));
    const chosen = await hub.order(
      w.worldId,
      p,
      c.id,
      rt.version,
      orderSchema.parse({ type: 'chooseStart', position: 'PERSIAN', area: 'ecbatana' }),
    );
    expect(chosen.ok).toBe(true);
    expect(rt.waitingFor()).toEqual([p]);
    expect(hub.engine.legalOrders(rt.state, p)[0]).toMatchObject({ type: 'persianArmy' });
    const before = rt.version;
    clock.t += 120_000;
    await rt.run(() => hub.fireDeadline(rt, new Date(clock.t)));
    const rows = await t.db.prisma.worldOrder.findMany({
      where: { worldId: w.worldId, seq: { gt: before } },
      orderBy: { seq: 'asc' },
    });
    expect(rows[0]).toMatchObject({ kind: 'timeout', actor: p });
    expect(rows[0]?.order).toMatchObject({ type: 'persianArmy' });
    const army = Object.values(rt.state.units)
      .filter((u) => u.owner === p)
      .map((u) => u.kind)
      .sort();
    expect(army).toEqual(['bow', 'cavalry', 'infantry', 'leader']);
    expect(rt.state.neutrals.susa).toBeUndefined();
    expect(rt.state.neutrals.ecbatana).toBeUndefined();
  }, 120_000);
});
