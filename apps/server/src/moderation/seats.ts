/**
 * Seats: remove a player (the engine abandons the position by the rules, 14.3, through its
 * `forceAbandon` system order, then the player leaves), hand a seat to another account, mark a seat
 * absent so that the engine's default orders hold the position at once instead of at each deadline.
 */
import type { BotLevel } from '@bke/protocol';
import { afterCommit, onRollback } from '../db/transaction.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import type { ModContext } from './context.ts';
import { refuse } from './errors.ts';
import { inWorld } from './worlds.ts';

type Params = { params: Record<string, unknown> };

async function activeSeat(ctx: ModContext, worldId: string, playerId: string) {
  const seat = await ctx.db.prisma.worldSeat.findUnique({
    where: { worldId_playerId: { worldId, playerId } },
    include: { user: { select: { username: true } } },
  });
  return seat && !seat.leftAt ? seat : null;
}

export function removePlayer(
  ctx: ModContext,
  worldId: string,
  playerId: string,
  actorId: string,
  reason: string,
) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    const seat = await activeSeat(ctx, worldId, playerId);
    if (!seat) return refuse('moderation/not_found', { playerId });
    const player = rt.state.players.find((p) => p.id === playerId);
    const batch: Parameters<WorldRuntime['commit']>[0] = [];
    if (player?.cycle)
      batch.push({
        actor: 'system',
        userId: actorId,
        kind: 'system',
        order: { type: 'forceAbandon', player: playerId },
      });
    batch.push({
      actor: 'system',
      userId: actorId,
      kind: 'system',
      order: { type: 'leave', player: playerId },
    });
    const r = await rt.commit(batch, new Date(), { allowPaused: true, db: ctx.db });
    if (!r.ok) return r;
    await ctx.db.prisma.worldSeat.update({
      where: { worldId_playerId: { worldId, playerId } },
      data: { leftAt: new Date(), absent: false },
    });
    forgetAbsent(ctx, worldId);
    const world = await ctx.db.prisma.world.findUnique({ where: { id: worldId }, select: { name: true } });
    afterCommit(ctx.db, () => {
      ctx.hub.publish(worldId);
      // Told first, then moved off the seat: the player's page says why before it becomes a spectator's
      // (a bot's seat has no account to tell).
      const told = seat.userId
        ? ctx.notify.personal(seat.userId, {
            worldId,
            worldName: world?.name ?? null,
            action: 'seat.remove',
            reason,
          })
        : Promise.resolve();
      void told.then(() => ctx.notify.endSeatSockets(worldId, playerId));
    });
    return {
      ok: true,
      params: {
        playerId,
        userId: seat.userId,
        username: seat.user?.username ?? null,
        abandoned: !!player?.cycle,
        version: r.version,
      },
    };
  });
}

/**
 * A moderator's consent for an account removed from this world to join it again: the removal stays
 * in the audit log, and this action after it lifts the bar (worlds/seating.ts `join` reads the two from the log).
 */
export function allowRejoin(ctx: ModContext, worldId: string, playerId: string) {
  return inWorld<Params>(ctx, worldId, async () => {
    const seat = await ctx.db.prisma.worldSeat.findUnique({
      where: { worldId_playerId: { worldId, playerId } },
      include: { user: { select: { username: true } } },
    });
    if (!seat) return refuse('moderation/not_found', { playerId });
    if (!seat.userId || !seat.user || !(await ctx.hub.removedByModerator(worldId, seat.userId, ctx.db)))
      return refuse('moderation/not_removed', { playerId });
    return { ok: true, params: { playerId, userId: seat.userId, username: seat.user.username } };
  });
}

export function handOverSeat(ctx: ModContext, worldId: string, playerId: string, username: string) {
  return inWorld<Params & { toUserId: string }>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    const seat = await activeSeat(ctx, worldId, playerId);
    if (!seat) return refuse('moderation/not_found', { playerId });
    const to = await ctx.db.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
    if (!to) return refuse('moderation/not_found', { username });
    if (to.bannedUntil && to.bannedUntil.getTime() > Date.now()) return refuse('auth/banned', { username });
    const seated = await ctx.db.prisma.worldSeat.findFirst({
      where: { worldId: rt.id, userId: to.id, leftAt: null },
    });
    if (seated) return refuse('moderation/seat_taken', { username, playerId: seated.playerId });
    await ctx.db.prisma.worldSeat.update({
      where: { worldId_playerId: { worldId, playerId } },
      data: { userId: to.id, bot: null, standIn: null, missedTurns: 0, readyKey: null, absent: false },
    });
    forgetAbsent(ctx, worldId);
    afterCommit(ctx.db, () => {
      ctx.hub.publish(worldId);
      // The old account's sockets still play as this seat: end them; they come back as spectators.
      ctx.notify.endSeatSockets(worldId, playerId);
    });
    return {
      ok: true,
      toUserId: to.id,
      params: {
        playerId,
        fromUserId: seat.userId,
        fromUsername: seat.user?.username ?? null,
        toUserId: to.id,
        toUsername: to.username,
      },
    };
  });
}

/**
 * Marks a seat absent (or present again). With `standIn` a bot of that level plays the absent seat
 * (a departed or long-absent player's realm kept alive) instead of the default orders.
 */
export function markAbsent(
  ctx: ModContext,
  worldId: string,
  playerId: string,
  absent: boolean,
  standIn: BotLevel | null = null,
) {
  return inWorld<Params & { userId: string | null }>(ctx, worldId, async (rt) => {
    const seat = await activeSeat(ctx, worldId, playerId);
    if (!seat) return refuse('moderation/not_found', { playerId });
    const bot = absent ? standIn : null;
    await ctx.db.prisma.worldSeat.update({
      where: { worldId_playerId: { worldId, playerId } },
      data: { absent, standIn: bot },
    });
    forgetAbsent(ctx, worldId);
    afterCommit(ctx.db, () => {
      ctx.hub.publish(worldId);
      ctx.hub.events.emit('seatsChanged', rt);
    });
    const held = absent && !bot ? await holdAbsentSeats(ctx, rt) : 0;
    return { ok: true, userId: seat.userId, params: { playerId, absent, standIn: bot, ordersApplied: held } };
  });
}

/** worldId → absent player ids; one query per world per process, dropped on every change here. */
const absentCache = new Map<string, Promise<{ absent: Set<string>; active: number }>>();

/** Drops the world's cached absences, now and again if the change is rolled back. */
function forgetAbsent(ctx: ModContext, worldId: string): void {
  absentCache.delete(worldId);
  onRollback(ctx.db, () => absentCache.delete(worldId));
}

function absentOf(ctx: ModContext, worldId: string) {
  let p = absentCache.get(worldId);
  if (!p) {
    p = ctx.db.prisma.worldSeat
      .findMany({ where: { worldId, leftAt: null }, select: { playerId: true, absent: true, standIn: true } })
      .then((rows) => ({
        // A seat with a stand-in is played by its bot (bots/driver.ts), not held by default orders.
        absent: new Set(rows.filter((r) => r.absent && !r.standIn).map((r) => r.playerId)),
        active: rows.length,
      }));
    absentCache.set(worldId, p);
  }
  return p;
}

/**
 * Applies the engine's default orders (those of a missed deadline) for every absent seat the world
 * is waiting for. Does nothing when every seat is absent: then nobody would ever be waited for and
 * the world would race through turns; deadlines hold it instead. Call inside the world's queue.
 * Returns how many orders were applied.
 */
async function holdAbsentSeats(ctx: ModContext, rt: WorldRuntime): Promise<number> {
  if (rt.settings.status !== 'running') return 0;
  const { absent, active } = await absentOf(ctx, rt.id);
  if (absent.size === 0 || absent.size >= active) return 0;
  const waiting = rt.waitingFor().filter((p) => absent.has(p));
  if (waiting.length === 0) return 0;
  const batch = rt.missedDeadline(waiting);
  if (batch.length === 0) return 0;
  const r = await rt.commit(batch, new Date(), { db: ctx.db });
  return r.ok ? batch.length : 0;
}

/**
 * Hooks absent seats into the hub: after every commit, the world's queue gets a pass that holds
 * absent seats (which commits again and so on until nobody absent is waited for).
 */
export function watchAbsentSeats(ctx: ModContext): void {
  // Another process may have marked a seat absent or back.
  ctx.hub.events.on('changedElsewhere', (worldId) => absentCache.delete(worldId));
  // Nor is this process told of changes to a world it unloaded: read afresh when it is used again.
  ctx.hub.events.on('unloaded', (worldId) => absentCache.delete(worldId));
  // A player went away or came back (worlds/seating.ts `setAway`, inside the world's queue): hold it at once.
  ctx.hub.events.on('awayChanged', async (rt) => {
    absentCache.delete(rt.id);
    await holdAbsentSeats(ctx, rt);
  });
  ctx.hub.events.on('committed', (rt) => {
    // Queued at once (not after the cache lookup) so that `rt.settled()` covers the hold too; the
    // lookup is a cached promise after the world's first commit in this process.
    void rt
      .run(async () => ((await absentOf(ctx, rt.id)).absent.size > 0 ? holdAbsentSeats(ctx, rt) : 0))
      .catch(() => 0);
  });
}
