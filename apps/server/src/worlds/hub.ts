/**
 * The worlds of this process, as the rest of the server sees them: creating a world and a seat's
 * order here; the parts, each in its own file: the worlds held in memory and let go of when idle
 * (loaded-worlds.ts), the lobby's digests of those let go of (kept-digests.ts), who sits where
 * (seating.ts), the deadline runner (deadlines.ts) and keeping up with the other processes
 * (cluster-catch-up.ts). What happens to a world is told through one typed emitter, `events`
 * (world-events.ts).
 */
import { randomBytes } from 'node:crypto';
import { gameSetupSchema, type Order, optionsSchema, type PlayerId, RULES_VERSION } from '@bke/engine';
import { type CreateWorld, createWorldSchema, type DeadlineSettings } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { DEFAULT_LIMITS, type Limits } from '../limits.ts';
import { accountsNamed, inviteByName, newInviteLink } from './access.ts';
import { ClusterCatchUp } from './cluster-catch-up.ts';
import { Deadlines } from './deadlines.ts';
import { getEngine } from './engine.ts';
import { KeptDigests } from './kept-digests.ts';
import { LoadedWorlds } from './loaded-worlds.ts';
import type { OrderResult, WorldRuntime } from './runtime.ts';
import { type Fail, fail, Seating } from './seating.ts';
import { writeSnapshot } from './snapshots.ts';
import type { SenderGuard } from './store.ts';
import { WorldEndings } from './world-ending.ts';
import { WorldEvents } from './world-events.ts';

export const phaseSecondsOf = (d: DeadlineSettings): number =>
  Math.max(3, Math.round(d.mode === 'live' ? d.minutesPerPhase * 60 : d.hoursPerPhase * 3600));

export interface WorldHubOptions {
  /**
   * Whether a socket of this process watches the world (sockets/rooms.ts): a watched world is
   * never unloaded, its viewers get its patches from the runtime in memory.
   */
  watched?: (worldId: string) => boolean;
}

export class WorldHub {
  readonly engine = getEngine();
  readonly events = new WorldEvents();
  /** What the lobby shows of each world let go of (kept-digests.ts). */
  readonly digests: KeptDigests;
  readonly worlds: LoadedWorlds;
  readonly seating: Seating;
  readonly deadlines: Deadlines;
  readonly cluster: ClusterCatchUp;
  /** Worlds played until a turn or a date end there (world-ending.ts). */
  readonly endings: WorldEndings;

  constructor(
    readonly db: Database,
    log: (msg: string, data?: object) => void = () => {},
    limits: Pick<Limits, 'joinsPerWorldPerDay'> = DEFAULT_LIMITS,
    options: WorldHubOptions = {},
  ) {
    const { engine, events } = this;
    const watched = options.watched ?? (() => false);
    this.digests = new KeptDigests(db, log);
    const kept = (worldId: string) => this.cluster.due(worldId) || watched(worldId);
    // The cluster's part is made after the worlds it reads; a world's change is told through it.
    const publish = (worldId: string) => this.cluster.publish(worldId);
    this.worlds = new LoadedWorlds({ db, engine, events, digests: this.digests, log, kept, publish });
    this.cluster = new ClusterCatchUp(db, this.worlds, events, log);
    this.seating = new Seating({ db, worlds: this.worlds, events, publish, limits });
    this.deadlines = new Deadlines(db, this.worlds, this.seating, events, log);
    this.endings = new WorldEndings(db, events, publish, log);
  }

  async createWorld(userId: string, raw: CreateWorld) {
    const input = createWorldSchema.parse(raw);
    const parsedOptions = optionsSchema.safeParse(input.options);
    if (!parsedOptions.success)
      return fail('setup/invalid', {
        issues: parsedOptions.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    const options = parsedOptions.data;
    const { ending } = input;
    if (ending.at !== undefined && new Date(ending.at).getTime() <= Date.now())
      return fail('setup/invalid', {
        issues: [{ path: 'ending.at', message: 'the end date is already past' }],
      });
    const setup = gameSetupSchema.parse({
      seed: input.seed ?? randomBytes(16).toString('hex'),
      options,
      rulesVersion: RULES_VERSION,
    });
    const created = this.engine.createGame(setup);
    if (!created.ok) return fail(created.error.code, { ...created.error });
    const invited = await accountsNamed(this.db, input.access.invite);
    if (!invited.ok) return invited;
    const world = await this.db.prisma.world.create({
      data: {
        name: input.name,
        setup: { ...setup, deadline: input.deadline, maxPlayers: input.maxPlayers },
        rulesVersion: setup.rulesVersion,
        deadlineMode: input.deadline.mode,
        phaseSeconds: phaseSecondsOf(input.deadline),
        earlyResolution: input.earlyResolution,
        maxPlayers: input.maxPlayers,
        rated: ending.rated,
        endUntil: ending.until,
        endTurn: ending.until === 'turn' ? (ending.turn ?? null) : null,
        endAt: ending.until === 'date' && ending.at ? new Date(ending.at) : null,
        access: input.access.who,
        reservedSeats: input.access.reservedSeats,
        spectators: input.access.spectators,
        createdById: userId,
      },
    });
    await inviteByName(this.db, world.id, invited.ids);
    await writeSnapshot(this.db, world.id, 0, created.value, this.engine.hash(created.value));
    // A world by invitation starts with its link; its token is shown to the creator this once.
    const inviteToken = input.access.who === 'invitation' ? await newInviteLink(this.db, world.id) : null;
    return { ok: true as const, worldId: world.id, inviteToken };
  }

  /**
   * A player's order against `version`, parsed at the edge it came in by (the socket's schema):
   * handed to its world's runtime (runtime.ts `order`), committed to the log before this resolves.
   */
  async order(
    worldId: string,
    playerId: string,
    userId: string,
    version: number,
    order: Order,
    /** The sender's session, checked with the seat as the order is stored (`auth/revoked` when gone). */
    sessionId?: string,
  ): Promise<OrderResult | Fail> {
    const rt = await this.worlds.get(worldId);
    if (!rt) return fail('world/not_found');
    const guard: SenderGuard | undefined = sessionId ? { sessionId, userId, playerId } : undefined;
    return rt.order(playerId as PlayerId, userId, version, order, guard);
  }

  // The parts' doors most callers use, named as they were when the hub was one class.

  get(worldId: string): Promise<WorldRuntime | null> {
    return this.worlds.get(worldId);
  }
  peek(worldId: string): WorldRuntime | undefined {
    return this.worlds.peek(worldId);
  }
  loaded(): WorldRuntime[] {
    return this.worlds.loaded();
  }
  cached(): number {
    return this.worlds.cached();
  }
  unloadIdle(olderThanMs: number, now = Date.now()): number {
    return this.worlds.unloadIdle(olderThanMs, now);
  }
  startUnloading(idleMs: number): void {
    this.worlds.startUnloading(idleMs);
  }
  stopUnloading(): void {
    this.worlds.stopUnloading();
  }
  /** Drops every cached world (tests simulate a fresh process). */
  forget(): void {
    this.worlds.forget();
    this.cluster.forget();
  }
  digestsStored(): Promise<void> {
    return this.digests.stored();
  }
  storeDigests(): Promise<void> {
    return this.digests.storeAll(this.worlds.loaded());
  }
  publish(worldId: string): void {
    this.cluster.publish(worldId);
  }
  refresh(worldId: string): void {
    this.cluster.refresh(worldId);
  }
  sweep(): Promise<number> {
    return this.cluster.sweep();
  }
  seats(worldId: string) {
    return this.seating.seats(worldId);
  }
  activeSeat(worldId: string, userId: string) {
    return this.seating.activeSeat(worldId, userId);
  }
  removedByModerator(worldId: string, userId: string, db?: Database) {
    return this.seating.removedByModerator(worldId, userId, db);
  }
  ready(rt: WorldRuntime, stepKey?: string, db?: Database) {
    return this.seating.ready(rt, stepKey, db);
  }
  join(...a: Parameters<Seating['join']>) {
    return this.seating.join(...a);
  }
  leave(...a: Parameters<Seating['leave']>) {
    return this.seating.leave(...a);
  }
  setAway(...a: Parameters<Seating['setAway']>) {
    return this.seating.setAway(...a);
  }
  addBot(...a: Parameters<Seating['addBot']>) {
    return this.seating.addBot(...a);
  }
  removeBot(...a: Parameters<Seating['removeBot']>) {
    return this.seating.removeBot(...a);
  }
  fireDeadline(...a: Parameters<Deadlines['fire']>) {
    return this.deadlines.fire(...a);
  }
  pollDeadlines(): Promise<number> {
    return this.deadlines.poll();
  }
  startDeadlines(intervalMs?: number): void {
    this.deadlines.start(intervalMs);
  }
  stopDeadlines(): void {
    this.deadlines.stop();
  }
}
