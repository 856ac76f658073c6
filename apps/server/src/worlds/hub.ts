/**
 * All worlds of this process: creating, loading, joining, leaving, ordering, and the deadline
 * runner. Deadlines live in the database (worlds.deadline_at); any process may claim a due one
 * with SKIP LOCKED, and the compare-and-set of the commit (on the log's next seq) makes it fire
 * exactly once.
 * With several processes each holds its own copy of the worlds its sockets watch, told of the
 * others' changes by `refresh` and kept honest by `sweep` (cluster/world-changes.ts).
 * Worlds run for weeks and a process serves many: one nobody here watches or uses for a while is
 * let go of (`unloadIdle`) and loaded again on its next use, so that the heap holds the worlds in
 * play rather than every world touched since the process started. The lobby lists such a world from
 * a digest of it kept meanwhile (digests.ts), which is no use of it.
 */
import { randomBytes } from 'node:crypto';
import { gameSetupSchema, optionsSchema, type PlayerId, RULES_VERSION } from '@bke/engine';
import {
  BOT_LEVEL_TEXT,
  type BotLevel,
  COLOURS,
  type CreateWorld,
  createWorldSchema,
  type DeadlineSettings,
  type ErrorCode,
  type WireError,
} from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { DEFAULT_LIMITS, type Limits } from '../limits.ts';
import { digestOf, type WorldDigest, WorldDigests } from './digests.ts';
import { getEngine } from './engine.ts';
import { type CommitResult, type RuntimeHooks, WorldRuntime } from './runtime.ts';
import { writeSnapshot } from './snapshots.ts';
import { LOG_VERSION, type SenderGuard } from './store.ts';
import { storeDigest } from './stored-digests.ts';

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

export interface HubEvents {
  /**
   * The world moved on from version `from` to `rt.version`: each viewer is due its patches, and,
   * when `headChanged` (the step, its deadline or the status moved), the world's status with them.
   */
  patches(rt: WorldRuntime, from: number, headChanged: boolean): void;
  /** The world's status moved outside an order (ready flags, seats, another process's change). */
  status(rt: WorldRuntime): void;
  /** A seat was given up: the sockets playing it stop receiving what only that seat may see. */
  seatEnded(worldId: string, playerId: string): void;
}

type Fail = { ok: false; error: WireError };
const fail = (code: ErrorCode, params: Record<string, unknown> = {}): Fail => ({
  ok: false,
  error: { code, ...params },
});

/** A bot's name in the world: its level and a number ("Strong bot 2"). */
export const botName = (level: BotLevel, n: number): string => `${BOT_LEVEL_TEXT[level].name} bot ${n}`;

export const phaseSecondsOf = (d: DeadlineSettings): number =>
  Math.max(3, Math.round(d.mode === 'live' ? d.minutesPerPhase * 60 : d.hoursPerPhase * 3600));

export class WorldHub {
  readonly engine = getEngine();
  private readonly worlds = new Map<string, Promise<WorldRuntime | null>>();
  /** The loaded ones among `worlds`. */
  private readonly held = new Map<string, WorldRuntime>();
  private timer: NodeJS.Timeout | null = null;
  private unloadTimer: NodeJS.Timeout | null = null;
  /**
   * Runtimes let go of, by world, until they are garbage: one still reachable (a bot about to
   * commit, a request between its `get` and its `run`) is taken back rather than loaded anew, so a
   * process never holds two copies of a world that could both commit.
   */
  private readonly letGo = new Map<string, WeakRef<WorldRuntime>>();
  /**
   * What the lobby shows of each world let go of, taken as it went (digests.ts): listing the worlds
   * loads none that this process let go of while its stored head is still the one it had.
   */
  readonly digests = new WorldDigests();
  private polling = false;
  events: HubEvents = { patches() {}, status() {}, seatEnded() {} };
  /**
   * Called after every commit, inside the world's queue, after the broadcast (the moderation tools
   * hold absent seats from here). Queue further work with `rt.run`, never await it inline.
   */
  readonly afterCommit: ((rt: WorldRuntime, from: number) => void)[] = [];
  /**
   * Tells the other server processes that a world changed here (cluster/world-changes.ts); does
   * nothing for a process alone. Never throws, never waits: a lost message costs a late update.
   */
  announce: (worldId: string) => void = () => {};
  /**
   * Called inside the world's queue when a seat goes away or comes back (`setAway`); the moderation
   * tools hold away seats with the engine's default orders (moderation/seats.ts).
   */
  readonly awayChanged: ((rt: WorldRuntime) => Promise<void>)[] = [];
  /** Called after a world's seats changed here (a bot seated or gone, a stand-in set or ended). */
  readonly seatsChanged: ((rt: WorldRuntime) => void)[] = [];
  /** Called after this process fired a world's deadline (the metrics count them). */
  readonly deadlineFired: ((worldId: string) => void)[] = [];
  /** Called when another process changed a world (the moderation tools drop what they cached). */
  readonly changedElsewhere: ((worldId: string) => void)[] = [];
  /**
   * Whether a socket of this process watches the world (set by the sockets layer, sockets/io.ts):
   * a watched world is never unloaded, its viewers get its patches from the runtime in memory.
   */
  watched: (worldId: string) => boolean = () => false;
  /**
   * Called when a world was unloaded (the bots and the moderation tools drop what they keep of it:
   * nothing tells them of other processes' changes to a world this one does not hold).
   */
  readonly unloaded: ((worldId: string) => void)[] = [];
  /** Worlds with a catch-up queued and not started yet (one is enough for any number of messages). */
  private readonly refreshing = new Set<string>();
  /** Per world, its seats as `sweep` last saw them (ready flags, absences, departures). */
  private readonly seatMarks = new Map<string, string>();

  constructor(
    readonly db: Database,
    private readonly log: (msg: string, data?: object) => void = () => {},
    private readonly limits: Pick<Limits, 'joinsPerWorldPerDay'> = DEFAULT_LIMITS,
  ) {}

  private hooks: RuntimeHooks = {
    committed: (rt, from, headChanged) => {
      this.events.patches(rt, from, headChanged);
      for (const f of this.afterCommit) f(rt, from);
    },
    log: (m, d) => this.log(m, d),
    appended: (rt) => this.announce(rt.id),
    reclaimed: (rt) => this.takeBack(rt),
  };

  async createWorld(userId: string, raw: CreateWorld) {
    const input = createWorldSchema.parse(raw);
    const parsedOptions = optionsSchema.safeParse(input.options);
    if (!parsedOptions.success)
      return fail('setup/invalid', {
        issues: parsedOptions.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    const options = parsedOptions.data;
    const setup = gameSetupSchema.parse({
      seed: input.seed ?? randomBytes(16).toString('hex'),
      options,
      rulesVersion: RULES_VERSION,
    });
    const created = this.engine.createGame(setup);
    if (!created.ok) return fail(created.error.code, { ...created.error });
    const world = await this.db.prisma.world.create({
      data: {
        name: input.name,
        setup: { ...setup, deadline: input.deadline, maxPlayers: input.maxPlayers },
        rulesVersion: setup.rulesVersion,
        deadlineMode: input.deadline.mode,
        phaseSeconds: phaseSecondsOf(input.deadline),
        earlyResolution: input.earlyResolution,
        maxPlayers: input.maxPlayers,
        createdById: userId,
      },
    });
    await writeSnapshot(this.db, world.id, 0, created.value, this.engine.hash(created.value));
    return { ok: true as const, worldId: world.id };
  }

  /**
   * Seats a bot of `level` by the engine's `join`, as a person joins (the same seat and colour
   * rules); `by` is the account that asked (the creator or a moderator, checked by the caller).
   */
  async addBot(worldId: string, level: BotLevel, by: string | null) {
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
      if (rt.settings.status === 'closed') return fail('world/closed');
      const all = await this.seats(worldId);
      const active = all.filter((s) => !s.leftAt);
      const w = await this.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
      if (active.length >= Math.min(6, w.maxPlayers)) return fail('world/full');
      const taken = new Set(active.map((s) => s.colour));
      const colour = COLOURS.find((c) => !taken.has(c)) ?? 'red';
      const usedSeats = new Set(active.map((s) => s.seat));
      const seat = [0, 1, 2, 3, 4, 5].find((n) => !usedSeats.has(n)) ?? 0;
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
      this.publish(worldId);
      for (const f of this.seatsChanged) f(rt);
      return { ok: true as const, playerId };
    });
  }

  /** A bot's seat leaves by the engine's `leave`, as a person leaves. */
  async removeBot(worldId: string, playerId: string, by: string | null) {
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
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
      this.publish(worldId);
      for (const f of this.seatsChanged) f(rt);
      return { ok: true as const };
    });
  }

  /**
   * The world's runtime, loaded once per process (concurrent callers share the load), and again
   * after it was unloaded; one let go of and still reachable is taken back, caught up.
   */
  get(worldId: string): Promise<WorldRuntime | null> {
    let p = this.worlds.get(worldId);
    if (p) {
      this.held.get(worldId)?.touch();
      return p;
    }
    const kept = this.letGo.get(worldId)?.deref();
    if (kept) {
      // Its `run` takes it back (`takeBack`) and queues its catch-up ahead of this empty task.
      p = kept.run(async () => kept);
      this.worlds.set(worldId, p);
      return p;
    }
    this.letGo.delete(worldId);
    const loading = WorldRuntime.load(this.db, this.engine, worldId, this.hooks).then(
      (rt) => {
        if (this.worlds.get(worldId) !== loading) return rt;
        if (rt) {
          this.held.set(worldId, rt);
          this.digests.delete(worldId);
        }
        // A world that does not exist is not remembered: ids anyone may send (a URL, a socket
        // event) would otherwise grow the map without end.
        else this.worlds.delete(worldId);
        return rt;
      },
      (e) => {
        this.worlds.delete(worldId);
        throw e;
      },
    );
    this.worlds.set(worldId, loading);
    return loading;
  }

  /** How many world ids this process remembers: loaded, loading, or let go of and still reachable. */
  cached(): number {
    return this.worlds.size + this.letGo.size;
  }

  /** The worlds this process holds in memory now. */
  loaded(): WorldRuntime[] {
    return [...this.held.values()];
  }

  /**
   * The world's runtime if this process holds it now, without marking it used (`get` does): a
   * glance at it, as the lobby's list takes, is no reason to keep it in memory.
   */
  peek(worldId: string): WorldRuntime | undefined {
    return this.held.get(worldId);
  }

  /** A runtime let go of is given work again: the hub holds it once more (`WorldRuntime.reclaim`). */
  private takeBack(rt: WorldRuntime): void {
    // After `forget` (a test's fresh process) another copy may be held: that one stays.
    if (this.worlds.has(rt.id)) return;
    this.letGo.delete(rt.id);
    this.worlds.set(rt.id, Promise.resolve(rt));
    this.held.set(rt.id, rt);
    this.digests.delete(rt.id);
  }

  /**
   * Unloads the worlds unused for `olderThanMs` or longer (0: every idle one) and returns how
   * many. A world stays while a socket of this process watches it, while its queue holds a task
   * or a catch-up is due: only a world nothing here waits on goes. Done in one synchronous pass,
   * so no task can slip into a queue between the check and the unload; a caller that got the
   * runtime before and uses it after gives it back to the hub by that use (`takeBack`).
   */
  unloadIdle(olderThanMs: number, now = Date.now()): number {
    let n = 0;
    for (const [id, rt] of this.held) {
      if (rt.pending > 0 || this.refreshing.has(id) || rt.lastUsed > now - olderThanMs) continue;
      if (this.watched(id)) continue;
      this.held.delete(id);
      this.worlds.delete(id);
      this.seatMarks.delete(id);
      rt.release();
      this.letGo.set(id, new WeakRef(rt));
      const digest = this.digestToKeep(rt);
      this.digests.set(id, digest);
      void this.storeDigest(this.db.background, id, digest);
      n++;
      for (const f of this.unloaded) f(id);
    }
    for (const [id, ref] of this.letGo) if (!ref.deref()) this.letGo.delete(id);
    return n;
  }

  /** The digest kept of a world let go of: the standings only of a closed world (the finished list shows them). */
  private digestToKeep(rt: WorldRuntime): WorldDigest {
    return digestOf(rt, rt.settings.status === 'closed');
  }

  /** Digests being stored now (`digestsStored`). */
  private readonly storing = new Set<Promise<void>>();

  /** Stores a digest for the next process; a failure is logged, and the lobby loads that world instead. */
  private storeDigest(db: Database, worldId: string, digest: WorldDigest): Promise<void> {
    const p = storeDigest(db, worldId, digest)
      .catch((e) =>
        this.log('a digest was not stored (the lobby loads that world instead)', {
          world: worldId,
          err: String(e),
        }),
      )
      .finally(() => this.storing.delete(p));
    this.storing.add(p);
    return p;
  }

  /** Resolves once the digests being stored now are written (or failed). */
  async digestsStored(): Promise<void> {
    while (this.storing.size > 0) await Promise.all(this.storing);
  }

  /**
   * Stores the digest of every world held here, each once its queue is done: for a process about
   * to stop, so that the next one lists the worlds in use now without loading them either.
   */
  async storeDigests(): Promise<void> {
    await Promise.all(
      [...this.held.values()].map(async (rt) => {
        await rt.settled();
        await this.storeDigest(this.db, rt.id, this.digestToKeep(rt));
      }),
    );
  }

  /**
   * Tells the other server processes that a world changed outside its order log (head, seats,
   * ready flags). Commits tell them by themselves.
   */
  publish(worldId: string): void {
    // This process's own change to the seats is no news to its next sweep.
    this.seatMarks.delete(worldId);
    this.announce(worldId);
  }

  /**
   * Another process changed this world: bring this process's copy up to date (its sockets get the
   * missed patches through the usual hooks) and send the status, which may hold ready flags. A
   * world not loaded here needs nothing: it is read fresh when first asked for.
   */
  refresh(worldId: string): void {
    for (const f of this.changedElsewhere) f(worldId);
    const p = this.worlds.get(worldId);
    if (!p || this.refreshing.has(worldId)) return;
    this.refreshing.add(worldId);
    void p
      .then((rt) => {
        if (!rt) {
          this.refreshing.delete(worldId);
          return;
        }
        return rt.run(async () => {
          // From here on a new message needs a new catch-up: this one may read too early for it.
          this.refreshing.delete(worldId);
          await rt.catchUp();
          this.events.status(rt);
        });
      })
      .catch((e) => {
        this.refreshing.delete(worldId);
        this.log('refresh failed', { worldId, err: String(e) });
      });
  }

  /**
   * Compares the worlds this process holds with the database and catches up those another process
   * changed without this one hearing of it (a message lost with a dropped connection or a process
   * that died between its commit and its message). Returns how many worlds were behind; seats that
   * changed (ready flags, absences) are sent in a fresh status.
   */
  async sweep(): Promise<number> {
    const held = this.loaded();
    if (held.length === 0) return 0;
    const rows = await this.db.sql<{
      id: string;
      version: number;
      step_key: string;
      status: WorldRuntime['settings']['status'];
      deadline_at: Date | null;
      pause_reason: string | null;
      phase_seconds: number;
      early_resolution: boolean;
      seats: string;
    }>(
      `SELECT w.id, ${LOG_VERSION} AS version,
              w.step_key, w.status, w.deadline_at, w.pause_reason, w.phase_seconds,
              w.early_resolution,
              (SELECT coalesce(string_agg(concat_ws('|', s.player_id, s.user_id, s.ready_key, s.absent, s.left_at),
                                          ',' ORDER BY s.player_id), '')
                 FROM world_seats s WHERE s.world_id = w.id) AS seats
         FROM worlds w WHERE w.id = ANY($1::uuid[])`,
      [held.map((rt) => rt.id)],
      'bke_world_sweep',
    );
    const checks: Promise<boolean>[] = [];
    for (const w of rows) {
      const rt = this.held.get(w.id);
      if (!rt) continue;
      const lastSeats = this.seatMarks.get(w.id);
      this.seatMarks.set(w.id, w.seats);
      const headMoved =
        w.version !== rt.version ||
        w.step_key !== rt.head.stepKey ||
        w.status !== rt.head.status ||
        (w.deadline_at?.getTime() ?? null) !== (rt.head.deadlineAt?.getTime() ?? null) ||
        w.pause_reason !== rt.settings.pauseReason ||
        w.phase_seconds !== rt.settings.phaseSeconds ||
        w.early_resolution !== rt.settings.earlyResolution;
      const seatsMoved = lastSeats !== undefined && lastSeats !== w.seats;
      if (!headMoved && !seatsMoved) continue;
      if (seatsMoved) for (const f of this.changedElsewhere) f(w.id);
      // Checked again in the world's queue: a commit of this process may have been on its way
      // when the heads were read, and then there is nothing to catch up.
      checks.push(
        rt.run(async () => {
          const moved = await rt.catchUp();
          if (moved || seatsMoved) this.events.status(rt);
          return moved;
        }),
      );
    }
    return (await Promise.all(checks)).filter(Boolean).length;
  }

  /** Drops every cached world (tests simulate a fresh process). */
  forget(): void {
    this.worlds.clear();
    this.held.clear();
    this.letGo.clear();
    this.seatMarks.clear();
    this.digests.clear();
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

  /**
   * Whether a moderator removed this account from this world and none has allowed it back since:
   * the audit log holds both actions, so the latest of the two decides. Inside a transaction, pass
   * its `db`: on the embedded database a query on the outer one waits for the transaction to end.
   */
  async removedByModerator(worldId: string, userId: string, db: Database = this.db): Promise<boolean> {
    const [last] = await db.sql<{ action: string }>(
      `SELECT action FROM moderation_actions
        WHERE world_id = $1::uuid AND target_user_id = $2::uuid AND action IN ('seat.remove', 'seat.allowRejoin')
        ORDER BY id DESC LIMIT 1`,
      [worldId, userId],
    );
    return last?.action === 'seat.remove';
  }

  /** Takes a free colour and seat; the engine's `join` enters the player at the next turn start. */
  async join(worldId: string, user: { id: string; username: string }, colour?: string) {
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
      if (rt.settings.status === 'closed') return fail('world/closed');
      const all = await this.seats(worldId);
      const active = all.filter((s) => !s.leftAt);
      if (active.some((s) => s.userId === user.id)) return fail('world/already_seated');
      if (await this.removedByModerator(worldId, user.id)) return fail('world/removed');
      // Every join adds a player to the world for good (its view keeps those who left): an account
      // joining and leaving over and over would grow it without end.
      const dayAgo = new Date(Date.now() - 86_400_000);
      const joins = await this.db.prisma.worldSeat.count({
        where: { worldId, userId: user.id, joinedAt: { gt: dayAgo } },
      });
      if (joins >= this.limits.joinsPerWorldPerDay)
        return fail('world/join_limit', { limit: this.limits.joinsPerWorldPerDay });
      const w = await this.db.prisma.world.findUniqueOrThrow({ where: { id: worldId } });
      if (active.length >= Math.min(6, w.maxPlayers)) return fail('world/full');
      const taken = new Set(active.map((s) => s.colour));
      if (colour && taken.has(colour)) return fail('world/colour_taken', { colour });
      const pick = colour ?? COLOURS.find((c) => !taken.has(c));
      const usedSeats = new Set(active.map((s) => s.seat));
      const seat = [0, 1, 2, 3, 4, 5].find((n) => !usedSeats.has(n)) ?? 0;
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
  async setAway(worldId: string, userId: string, away: boolean, standIn: BotLevel | null = null) {
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
      if (rt.settings.status === 'closed') return fail('world/closed');
      const seat = await this.activeSeat(worldId, userId);
      if (!seat) return fail('world/not_seated');
      await this.db.prisma.worldSeat.update({
        where: { worldId_playerId: { worldId, playerId: seat.playerId } },
        data: { absent: away, standIn: away ? standIn : null },
      });
      this.publish(worldId);
      for (const f of this.seatsChanged) f(rt);
      for (const f of this.awayChanged) await f(rt);
      return { ok: true as const };
    });
  }

  /** Leaves the world: the engine ends the cycle as "left"; the seat is freed. */
  async leave(worldId: string, userId: string) {
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      await rt.catchUp();
      const seat = await this.activeSeat(worldId, userId);
      if (!seat) return fail('world/not_seated');
      const order = { type: 'leave', player: seat.playerId };
      const r = await rt.commit([{ actor: 'system', userId, kind: 'system', order }]);
      if (!r.ok) return r;
      await this.db.prisma.worldSeat.update({
        where: { worldId_playerId: { worldId, playerId: seat.playerId } },
        data: { leftAt: new Date() },
      });
      this.publish(worldId);
      this.events.seatEnded(worldId, seat.playerId);
      return { ok: true as const };
    });
  }

  /**
   * A player's order against `version`. Committed to the log before this resolves (the caller
   * acknowledges after). With early resolution off an `endPhase` is recorded as "ready" instead
   * and applied at the deadline.
   */
  async order(
    worldId: string,
    playerId: string,
    userId: string,
    version: number,
    order: unknown,
    /** The sender's session, checked with the seat as the order is stored (`auth/revoked` when gone). */
    sessionId?: string,
  ): Promise<{ ok: true; version: number; deferred: boolean } | Fail> {
    const guard: SenderGuard | undefined = sessionId ? { sessionId, userId, playerId } : undefined;
    const rt = await this.get(worldId);
    if (!rt) return fail('world/not_found');
    return rt.run(async () => {
      if (rt.settings.status === 'paused') return fail('world/paused');
      if (rt.settings.status === 'closed') return fail('world/closed');
      if (version !== rt.version) return fail('sync/stale', { version: rt.version });
      const type = (order as { type?: unknown }).type;
      if (type === 'endPhase' && !rt.settings.earlyResolution) {
        if (!rt.waitingFor().includes(playerId as PlayerId)) return fail('order/not_your_turn');
        const marked = await this.db.prisma.worldSeat.updateMany({
          where: {
            worldId,
            playerId,
            ...(guard
              ? {
                  userId: guard.userId,
                  leftAt: null,
                  user: { sessions: { some: { id: guard.sessionId, expiresAt: { gt: new Date() } } } },
                }
              : {}),
          },
          data: { readyKey: rt.head.stepKey },
        });
        if (marked.count === 0) return fail('auth/revoked');
        this.events.status(rt);
        this.publish(worldId);
        return { ok: true as const, version: rt.version, deferred: true };
      }
      const r = await rt.commit(
        [{ actor: playerId as PlayerId, userId, kind: 'player', order }],
        new Date(),
        {
          ...(guard ? { guard } : {}),
        },
      );
      return r.ok ? { ok: true as const, version: r.version, deferred: false } : r;
    });
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

  /**
   * The deadline of `rt`'s current step has passed: every player still waited for gets the
   * engine's default orders (hold, tax without pillage, …), and a missed turn unless they had
   * declared ready. Runs inside the world's queue; in a transaction (`db`, a moderator's "resolve
   * now"), the caller has caught up already.
   */
  async fireDeadline(rt: WorldRuntime, now = new Date(), db = this.db): Promise<CommitResult | null> {
    if (db === this.db) await rt.catchUp();
    const due = rt.head.deadlineAt;
    if (!due || due.getTime() > now.getTime() || rt.settings.status !== 'running') return null;
    const stepKey = rt.head.stepKey;
    const waiting = rt.waitingFor();
    const batch = rt.missedDeadline(waiting);
    if (batch.length === 0) {
      this.log('deadline passed but the engine gave no default orders', { world: rt.id, stepKey });
      return null;
    }
    const r = await rt.commit(batch, now, { db });
    if (r.ok) {
      const ready = new Set(await this.ready(rt, stepKey, db));
      const missed = waiting.filter((p) => !ready.has(p));
      if (missed.length > 0)
        await db.prisma.worldSeat.updateMany({
          where: { worldId: rt.id, playerId: { in: missed } },
          data: { missedTurns: { increment: 1 } },
        });
    }
    return r;
  }

  /**
   * Claims due deadlines (SKIP LOCKED, so processes never wait on each other) and fires them. The
   * claim only sets a column no key holds (NO KEY UPDATE): a row that merely references the world
   * (a digest being stored, world_digests' foreign key takes KEY SHARE) does not make it skip it.
   */
  async pollDeadlines(): Promise<number> {
    if (this.polling) return 0;
    this.polling = true;
    try {
      const due = await this.db.sql<{ id: string }>(
        `UPDATE worlds SET deadline_claimed_until = now() + interval '30 seconds'
          WHERE id IN (
            SELECT id FROM worlds
             WHERE status = 'running' AND deadline_at <= now()
               AND (deadline_claimed_until IS NULL OR deadline_claimed_until < now())
             ORDER BY deadline_at LIMIT 20
             FOR NO KEY UPDATE SKIP LOCKED)
          RETURNING id`,
      );
      let fired = 0;
      for (const { id } of due) {
        try {
          const rt = await this.get(id);
          if (!rt) continue;
          const r = await rt.run(() => this.fireDeadline(rt));
          if (r?.ok) {
            fired++;
            for (const f of this.deadlineFired) f(id);
          }
          // A commit that moves the step releases the claim with the head it writes; one that left
          // the step (and its passed deadline) as it was, or lost to another process's commit,
          // does not touch the row: the claim is released here, so the deadline is looked at again
          // at the next poll rather than when the claim runs out.
          if (r) await this.releaseClaim(id);
        } catch (e) {
          this.log('deadline failed', { world: id, err: String(e) });
        }
      }
      return fired;
    } finally {
      this.polling = false;
    }
  }

  private async releaseClaim(worldId: string): Promise<void> {
    await this.db.sql(
      `UPDATE worlds SET deadline_claimed_until = NULL
        WHERE id = $1::uuid AND deadline_claimed_until IS NOT NULL`,
      [worldId],
    );
  }

  startDeadlines(intervalMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pollDeadlines().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  stopDeadlines(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Unloads the worlds unused for `idleMs`, looking every quarter of it (at least every second,
   * at most every minute), so that a world goes at most a quarter of `idleMs` late.
   */
  startUnloading(idleMs: number): void {
    if (this.unloadTimer || idleMs <= 0) return;
    const every = Math.min(60_000, Math.max(1000, Math.round(idleMs / 4)));
    this.unloadTimer = setInterval(() => {
      try {
        this.unloadIdle(idleMs);
      } catch (e) {
        this.log('unloading idle worlds failed', { err: String(e) });
      }
    }, every);
    this.unloadTimer.unref();
  }

  stopUnloading(): void {
    if (this.unloadTimer) clearInterval(this.unloadTimer);
    this.unloadTimer = null;
  }
}
