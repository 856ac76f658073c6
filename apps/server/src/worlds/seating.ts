/**
 * Who sits in a world: joining, leaving, going away (a stand-in bot may play the seat meanwhile)
 * and bots seated or removed. Each change is the engine's `join` or `leave` order in the world's
 * log beside its row in `world_seats`, made inside the world's queue.
 */
import { BOT_LEVEL_TEXT, type BotLevel, COLOURS, type ErrorCode, type WireError } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { joinRefusal } from './access.ts';
import type { LoadedWorlds } from './loaded-worlds.ts';
import { removedAccounts } from './removals.ts';
import type { WorldRuntime } from './runtime.ts';
import type { WorldEvents } from './world-events.ts';

export interface SeatRow {
  playerId: string;
  /** null for a bot's seat. */
  userId: string | null;
  /** A bot's seat: its level. */
  bot: string | null;
  seat: number;
  colour: string;
  leftAt: Date | null;
  readyKey: string | null;
}

export type Fail = { ok: false; error: WireError };
export const fail = (code: ErrorCode, params: Record<string, unknown> = {}): Fail => ({
  ok: false,
  error: { code, ...params },
});

/** A bot's name in the world: its level and a number ("Strong bot 2"). */
const botName = (level: BotLevel, n: number): string => `${BOT_LEVEL_TEXT[level].name} bot ${n}`;

/** The first seat number (0 to 5) no active seat holds. */
const freeSeat = (active: readonly SeatRow[]): number => {
  const used = new Set(active.map((s) => s.seat));
  return [0, 1, 2, 3, 4, 5].find((n) => !used.has(n)) ?? 0;
};

export interface SeatingOptions {
  db: Database;
  worlds: LoadedWorlds;
  events: WorldEvents;
  /** Tells the other processes that the world's seats changed (cluster-catch-up.ts). */
  publish: (worldId: string) => void;
  limits: Pick<Limits, 'joinsPerWorldPerDay'>;
}

export class Seating {
  private readonly db: Database;

  constructor(private readonly o: SeatingOptions) {
    this.db = o.db;
  }

  /** Runs `fn` in the world's queue once it caught up; `world/not_found` for no such world. */
  private async inWorld<T>(worldId: string, fn: (rt: WorldRuntime) => Promise<T>): Promise<T | Fail> {
    const rt = await this.o.worlds.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
      return fn(rt);
    });
  }

  async seats(worldId: string): Promise<SeatRow[]> {
    return this.db.prisma.worldSeat.findMany({
      where: { worldId },
      orderBy: { joinedAt: 'asc' },
      select: {
        playerId: true,
        userId: true,
        bot: true,
        seat: true,
        colour: true,
        leftAt: true,
        readyKey: true,
      },
    });
  }

  async activeSeat(worldId: string, userId: string): Promise<SeatRow | null> {
    return (await this.seats(worldId)).find((s) => s.userId === userId && !s.leftAt) ?? null;
  }

  /** Whether a moderator removed this account from this world and none let it back (removals.ts). */
  async removedByModerator(worldId: string, userId: string, db: Database = this.db): Promise<boolean> {
    return (await removedAccounts(db, worldId)).has(userId);
  }

  /** Ready flags of the current step (early resolution off). */
  async ready(rt: WorldRuntime, stepKey = rt.head.stepKey, db = this.db): Promise<string[]> {
    if (rt.settings.earlyResolution || !stepKey) return [];
    const seats = await db.prisma.worldSeat.findMany({
      where: { worldId: rt.id },
      select: { playerId: true, leftAt: true, readyKey: true },
    });
    return seats.filter((s) => !s.leftAt && s.readyKey === stepKey).map((s) => s.playerId);
  }

  /** Takes a free colour and seat; the engine's `join` enters the player at the next turn start. */
  join(worldId: string, user: { id: string; username: string }, colour?: string) {
    return this.inWorld(worldId, async (rt) => {
      const w = await this.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
      const all = await this.seats(worldId);
      const active = all.filter((s) => !s.leftAt);
      // First, so that nothing below tells an outsider a hidden world is there (access.ts).
      const refused = await joinRefusal(this.db, w, user.id, all);
      if (refused) return refused;
      if (rt.settings.status === 'closed') return fail('world/closed');
      if (active.some((s) => s.userId === user.id)) return fail('world/already_seated');
      if (await this.removedByModerator(worldId, user.id)) return fail('world/removed');
      // Every join adds a player to the world for good (its view keeps those who left): an account
      // joining and leaving over and over would grow it without end.
      const dayAgo = new Date(Date.now() - 86_400_000);
      const joins = await this.db.prisma.worldSeat.count({
        where: { worldId, userId: user.id, joinedAt: { gt: dayAgo } },
      });
      const limit = this.o.limits.joinsPerWorldPerDay;
      if (joins >= limit) return fail('world/join_limit', { limit });
      if (active.length >= Math.min(6, w.maxPlayers)) return fail('world/full');
      const taken = new Set(active.map((s) => s.colour));
      if (colour && taken.has(colour)) return fail('world/colour_taken', { colour });
      const pick = colour ?? COLOURS.find((c) => !taken.has(c));
      const seat = freeSeat(active);
      const playerId = `p${all.length + 1}`;
      const order = { type: 'join', player: playerId, name: user.username, seat, colour: pick };
      await this.db.prisma.worldSeat.create({
        data: { worldId, playerId, userId: user.id, seat, colour: pick ?? 'red' },
      });
      const r = await rt.commit([{ actor: 'system', userId: user.id, kind: 'system', order }]);
      if (!r.ok) {
        await this.db.prisma.worldSeat.delete({ where: { worldId_playerId: { worldId, playerId } } });
        return r;
      }
      return { ok: true as const, playerId };
    });
  }

  /**
   * The player going away (or coming back): while away, the engine's default orders hold the seat
   * as soon as the world waits for it, as for a seat a moderator marked absent — or, with
   * `standIn`, a bot of that level plays it. Coming back ends the stand-in: the bot gives no
   * further order, and the person plays on from the step the world is in.
   */
  setAway(worldId: string, userId: string, away: boolean, standIn: BotLevel | null = null) {
    return this.inWorld(worldId, async (rt) => {
      if (rt.settings.status === 'closed') return fail('world/closed');
      const seat = await this.activeSeat(worldId, userId);
      if (!seat) return fail('world/not_seated');
      await this.db.prisma.worldSeat.update({
        where: { worldId_playerId: { worldId, playerId: seat.playerId } },
        data: { absent: away, standIn: away ? standIn : null },
      });
      this.o.publish(worldId);
      this.o.events.emit('seatsChanged', rt);
      await this.o.events.emitInTurn('awayChanged', rt);
      return { ok: true as const };
    });
  }

  /** Leaves the world: the engine ends the cycle as "left"; the seat is freed. */
  leave(worldId: string, userId: string) {
    return this.inWorld(worldId, async (rt) => {
      const seat = await this.activeSeat(worldId, userId);
      if (!seat) return fail('world/not_seated');
      const order = { type: 'leave', player: seat.playerId };
      const r = await rt.commit([{ actor: 'system', userId, kind: 'system', order }]);
      if (!r.ok) return r;
      await this.db.prisma.worldSeat.update({
        where: { worldId_playerId: { worldId, playerId: seat.playerId } },
        data: { leftAt: new Date() },
      });
      this.o.publish(worldId);
      this.o.events.emit('seatEnded', worldId, seat.playerId);
      return { ok: true as const };
    });
  }

  /**
   * Seats a bot of `level` by the engine's `join`, as a person joins (the same seat and colour
   * rules); `by` is the account that asked (the creator or a moderator, checked by the caller).
   */
  addBot(worldId: string, level: BotLevel, by: string | null) {
    return this.inWorld(worldId, async (rt) => {
      if (rt.settings.status === 'closed') return fail('world/closed');
      const all = await this.seats(worldId);
      const active = all.filter((s) => !s.leftAt);
      const w = await this.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
      if (active.length >= Math.min(6, w.maxPlayers)) return fail('world/full');
      const taken = new Set(active.map((s) => s.colour));
      const colour = COLOURS.find((c) => !taken.has(c)) ?? 'red';
      const seat = freeSeat(active);
      const playerId = `p${all.length + 1}`;
      const name = botName(level, all.filter((s) => s.bot).length + 1);
      const order = { type: 'join', player: playerId, name, seat, colour };
      await this.db.prisma.worldSeat.create({
        data: { worldId, playerId, userId: null, bot: level, seat, colour },
      });
      const r = await rt.commit([{ actor: 'system', userId: by, kind: 'system', order }]);
      if (!r.ok) {
        await this.db.prisma.worldSeat.delete({ where: { worldId_playerId: { worldId, playerId } } });
        return r;
      }
      this.o.publish(worldId);
      this.o.events.emit('seatsChanged', rt);
      return { ok: true as const, playerId };
    });
  }

  /** A bot's seat leaves by the engine's `leave`, as a person leaves. */
  removeBot(worldId: string, playerId: string, by: string | null) {
    return this.inWorld(worldId, async (rt) => {
      const seat = (await this.seats(worldId)).find((s) => s.playerId === playerId && !s.leftAt);
      if (!seat?.bot) return fail('world/not_a_bot', { playerId });
      const r = await rt.commit([
        { actor: 'system', userId: by, kind: 'system', order: { type: 'leave', player: playerId } },
      ]);
      if (!r.ok) return r;
      await this.db.prisma.worldSeat.update({
        where: { worldId_playerId: { worldId, playerId } },
        data: { leftAt: new Date() },
      });
      this.o.publish(worldId);
      this.o.events.emit('seatsChanged', rt);
      return { ok: true as const };
    });
  }
}
