/** What every moderation action works with: the database, the worlds, and the way to tell people. */
import type { Role } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { afterCommit, inTransaction, onRollback } from '../db/transaction.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { lockWorld } from '../worlds/store.ts';
import type { Notifier } from './notify.ts';

export interface ModContext {
  /** During an action, the transaction it and its audit row commit in (db/transaction.ts). */
  db: Database;
  hub: WorldHub;
  notify: Notifier;
  /** During an action on a world: its runtime, already inside its queue and caught up. */
  world?: WorldRuntime;
}

/** The moderator or admin acting (roles are checked by the route before any action runs). */
export interface Actor {
  id: string;
  username: string;
  role: Role;
}

/**
 * Writes head fields of a world that are not the order log (status, deadline), guarded by the
 * version the runtime holds (no order after it in the log), so a process that is behind never
 * overwrites a newer head. The world's row is locked first, in the action's transaction: the
 * check then sees every order committed before, and no order commits until the action does (an
 * order's append reads the row FOR SHARE, worlds/store.ts). Returns false when the world moved on
 * (the caller catches up and refuses with sync/stale).
 */
export async function writeHead(
  ctx: ModContext,
  rt: WorldRuntime,
  data: {
    status?: 'open' | 'running' | 'paused' | 'closed';
    deadlineAt?: Date | null;
    pausedRemainingMs?: number | null;
    pauseReason?: string | null;
    phaseSeconds?: number;
    earlyResolution?: boolean;
    deadlineMode?: string;
    setup?: object;
  },
): Promise<boolean> {
  const r = await inTransaction(ctx.db, async (tx) => {
    await lockWorld(tx, rt.id);
    return tx.prisma.world.updateMany({
      where: { id: rt.id, orders: { none: { seq: { gt: rt.version } } } },
      data: { ...data, deadlineClaimedUntil: null },
    });
  });
  if (r.count === 0) return false;
  onRollback(ctx.db, rt.checkpoint());
  rt.head = {
    ...rt.head,
    ...(data.status ? { status: data.status } : {}),
    ...(data.deadlineAt !== undefined ? { deadlineAt: data.deadlineAt } : {}),
  };
  rt.settings = {
    ...rt.settings,
    status: rt.head.status,
    ...(data.phaseSeconds !== undefined ? { phaseSeconds: data.phaseSeconds } : {}),
    ...(data.earlyResolution !== undefined ? { earlyResolution: data.earlyResolution } : {}),
    ...(data.pauseReason !== undefined ? { pauseReason: data.pauseReason } : {}),
  };
  afterCommit(ctx.db, () => ctx.hub.publish(rt.id));
  return true;
}
