/**
 * A world of bots for the log, rollback and projection tests: one account creates it and three bots
 * take seats; the simulator's orders are then committed through the world's own queue, as a seat's
 * orders would be, with a moderation context that tells nobody.
 */
import type { PlayerId, Policy } from '@bke/engine';
import { createUser } from '../../src/auth/users.ts';
import type { Database } from '../../src/db/database.ts';
import type { ModContext } from '../../src/moderation/context.ts';
import type { WorldHub } from '../../src/worlds/hub.ts';

export async function worldOfBots(
  db: Database,
  hub: WorldHub,
  opts: {
    account: string;
    name: string;
    seed: string;
    victory: 'basic' | 'advanced';
    level: 'easy' | 'strong';
  },
): Promise<{ worldId: string; userId: string }> {
  const user = await createUser(db, opts.account, 'password123');
  if (!user) throw new Error('account not created');
  const created = await hub.createWorld(user.id, {
    name: opts.name,
    seed: opts.seed,
    options: { victory: opts.victory },
  });
  if (!created.ok) throw new Error('world not created');
  for (let i = 0; i < 3; i++) {
    const r = await hub.addBot(created.worldId, opts.level, user.id);
    if (!r.ok) throw new Error('bot not seated');
  }
  return { worldId: created.worldId, userId: user.id };
}

/**
 * Commits `policy`'s orders for whoever is waited for, until `done` holds (checked before each
 * order) or `limit` orders were given, then waits for the world's projections and snapshots.
 */
export async function playBots(
  hub: WorldHub,
  worldId: string,
  policy: Policy,
  done: (turn: number, given: number) => boolean,
  limit = 5000,
): Promise<void> {
  const rt = await hub.get(worldId);
  if (!rt) throw new Error('no world');
  for (let i = 0; i < limit && !done(rt.state.turn, i); i++) {
    const r = await rt.run(async () => {
      const p = rt.waitingFor()[0] as PlayerId | undefined;
      if (!p) throw new Error('nobody to wait for');
      const order = policy.choose(hub.engine, rt.state, p) ?? hub.engine.timeoutOrders(rt.state, p)[0];
      return rt.commit([{ actor: p, userId: null, kind: 'bot', order }]);
    });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  await rt.settled();
}

/** The moderation tools' context, with notices that go nowhere. */
export const quietModContext = (db: Database, hub: WorldHub): ModContext => ({
  db,
  hub,
  // Tells nobody: these tests have no pages open.
  notify: {
    notice: async () => undefined,
    personal: async () => {},
    chatDeleted: () => {},
    endUserSockets: async () => {},
    endSeatSockets: () => {},
  },
});
