/**
 * Bots at play on this process's worlds: after every commit, the seats a bot controls (a bot's own
 * seat, or an away person's seat with a stand-in) that the world waits for get the bot's orders.
 * A bot thinks outside the world's queue, on the state as it stood, within a time budget per
 * decision, and its orders then go through the same commit as a person's (the engine judges them;
 * the log records them as kind `bot` with the bot's level). If the world moved on meanwhile (a
 * person's order came first) the bot thinks again. A bot never waits for a deadline, so it never
 * holds up a phase. Seats not waited for are asked for orders given while others act (13.7
 * tribute, paid in the receiver's turn) in the same round.
 */
import { performance } from 'node:perf_hooks';
import {
  botLevelFrom,
  budget,
  createBot,
  type ExpertPolicy,
  type GameState,
  type Order,
  type PlayerId,
  type Policy,
} from '@bke/engine';
import type { BotLevel } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { PendingOrder, WorldRuntime } from '../worlds/runtime.ts';
import { SearchPool } from './search-pool.ts';

export interface BotSettings {
  /** Thinking time per decision (ms); the bot gives the best it found when it runs out. */
  decisionMs: number;
  /** Thinking time for one commit's batch of a seat's orders (ms): the queue waits for none of it. */
  batchMs: number;
  /**
   * Most orders in one commit: the commit itself (each order applied again, its view patch, the
   * log write) runs on the world's queue, so a long batch would make a person's order wait.
   */
  batchOrders: number;
  /**
   * Pause between a bot's commits (ms) while a person plays in the world, so that people can follow
   * the bots' moves on the map; 0: at once.
   */
  paceMs: number;
  /** Pause between commits in a world where no person is present (ms): bots alone never race flat out. */
  aloneMs: number;
  /**
   * The Expert's thinking time for a movement phase (ms): a three-hundredth of the world's phase
   * time, within these bounds, so short in a live world and seconds in a correspondence one.
   */
  expertMinMs: number;
  expertMaxMs: number;
  /** Worker threads for the Expert's searches (search-pool.ts). */
  searchThreads: number;
}

export const DEFAULT_BOT_SETTINGS: BotSettings = {
  decisionMs: 40,
  batchMs: 60,
  batchOrders: 4,
  paceMs: 0,
  aloneMs: 1000,
  expertMinMs: 100,
  expertMaxMs: 2000,
  searchThreads: 1,
};

const isExpert = (p: Policy): p is ExpertPolicy => 'wantsPlan' in p;

interface Controlled {
  /** playerId → the level playing it, and whether it stands in for a person. */
  bots: Map<string, { level: BotLevel; standIn: boolean }>;
  /** A person holds a seat and is not away. */
  peoplePresent: boolean;
}

/** Decision times of this process, newest last (the bench and the metrics read them). */
const TIMES_KEPT = 10_000;

export class BotDriver {
  private readonly seats = new Map<string, Promise<Controlled>>();
  private readonly busy = new Set<string>();
  private readonly again = new Set<string>();
  private readonly policies = new Map<string, Policy>();
  private stopped = false;
  private searches: SearchPool | null = null;
  readonly decisionTimes: number[] = [];
  /** Times of the checks for orders given while others act (most find nothing), kept apart. */
  readonly asideTimes: number[] = [];
  /** Times of the Expert's searches on the worker threads, as this thread waited for them. */
  readonly searchTimes: number[] = [];

  constructor(
    private readonly db: Database,
    private readonly hub: WorldHub,
    private readonly settings: BotSettings = DEFAULT_BOT_SETTINGS,
    private readonly log: (msg: string, data?: object) => void = () => {},
  ) {}

  /** Hooks the driver into the hub: every commit, seat change and away change pokes the world. */
  watch(): void {
    this.hub.events.on('committed', (rt) => this.poke(rt));
    this.hub.events.on('changedElsewhere', (worldId) => this.forget(worldId));
    // Nothing tells the driver of seat changes in a world the hub does not hold; the world's
    // policies go too (they are made again, from the same key, when its bots next act).
    this.hub.events.on('unloaded', (worldId) => {
      this.forget(worldId);
      for (const key of this.policies.keys()) if (key.startsWith(`${worldId}|`)) this.policies.delete(key);
    });
    this.hub.events.on('seatsChanged', (rt) => {
      this.forget(rt.id);
      this.poke(rt);
    });
  }

  stop(): void {
    this.stopped = true;
    void this.searches?.stop();
    this.searches = null;
  }

  /** The Expert's budget in this world (ms), from its phase time. */
  expertBudgetMs(rt: WorldRuntime): number {
    const { expertMinMs, expertMaxMs } = this.settings;
    return Math.round(Math.min(expertMaxMs, Math.max(expertMinMs, (rt.settings.phaseSeconds * 1000) / 300)));
  }

  /**
   * An Expert at the start of its movement phase searches on a worker thread, off the world's
   * queue and off this thread, on the state as it stood; a failed search leaves it the strong
   * strategy for the phase.
   */
  private async searchIfDue(rt: WorldRuntime, policy: Policy, state: GameState, player: PlayerId) {
    if (!isExpert(policy) || !policy.wantsPlan(state, player)) return;
    this.searches ??= new SearchPool(this.settings.searchThreads);
    const t0 = performance.now();
    try {
      const seed = `${rt.id}|${player}|${state.turn}`;
      policy.adopt(state, player, await this.searches.search(state, player, this.expertBudgetMs(rt), seed));
    } catch (e) {
      this.log('bot search failed', { world: rt.id, player, err: String(e) });
      policy.adopt(state, player, []);
    }
    this.timed(performance.now() - t0, this.searchTimes);
  }

  /** Drops what the driver knows of a world's seats (they changed). */
  forget(worldId: string): void {
    this.seats.delete(worldId);
  }

  /** Acts for the world's bots soon, unless it is already doing so (then once more after). */
  poke(rt: WorldRuntime, delayMs = 0): void {
    if (this.stopped) return;
    if (this.busy.has(rt.id)) {
      this.again.add(rt.id);
      return;
    }
    this.busy.add(rt.id);
    const go = () =>
      void this.act(rt)
        .catch((e) => this.log('bot failed', { world: rt.id, err: String(e) }))
        .then((pace) => {
          this.busy.delete(rt.id);
          const more = this.again.delete(rt.id) || pace !== null;
          if (more && !this.stopped) this.poke(rt, pace ?? 0);
        });
    if (delayMs > 0) setTimeout(go, delayMs).unref();
    else setImmediate(go);
  }

  private controlled(worldId: string): Promise<Controlled> {
    let p = this.seats.get(worldId);
    if (!p) {
      p = this.db.prisma.worldSeat
        .findMany({
          where: { worldId, leftAt: null },
          select: { playerId: true, bot: true, standIn: true, absent: true, userId: true },
        })
        .then((rows) => {
          const bots = new Map<string, { level: BotLevel; standIn: boolean }>();
          for (const r of rows) {
            if (r.bot) bots.set(r.playerId, { level: botLevelFrom(r.bot), standIn: false });
            else if (r.absent && r.standIn)
              bots.set(r.playerId, { level: botLevelFrom(r.standIn), standIn: true });
          }
          return { bots, peoplePresent: rows.some((r) => r.userId !== null && !r.absent) };
        });
      p.catch(() => this.seats.delete(worldId));
      this.seats.set(worldId, p);
    }
    return p;
  }

  private policy(worldId: string, playerId: string, level: BotLevel): Policy {
    const key = `${worldId}|${playerId}|${level}`;
    let p = this.policies.get(key);
    if (!p) {
      const clock = () => budget(() => performance.now(), this.settings.decisionMs);
      p = createBot(level, key, clock);
      this.policies.set(key, p);
    }
    return p;
  }

  /**
   * One round: the orders of every waiting bot seat, decided on the state as it stands, committed
   * in one batch if the world has not moved. Returns the pause before the next round, or null
   * when no bot is waited for.
   */
  private async act(rt: WorldRuntime): Promise<number | null> {
    if (rt.settings.status !== 'running') return null;
    // One bot commit (and the projections it queues) at a time: what is queued drains first, so a
    // person's order never waits behind a train of bot commits.
    if (rt.pending > 0) await rt.settled();
    const seats = await this.controlled(rt.id);
    const engine = this.hub.engine;
    const version = rt.version;
    let state = rt.state;
    const batch: PendingOrder[] = [];
    // Orders given while others act (13.7 tribute in the receiver's turn), by the seats not waited for.
    for (const [player, seat] of seats.bots) {
      if (engine.waitingFor(state).includes(player as PlayerId)) continue;
      const policy = this.policy(rt.id, player, seat.level);
      if (!policy.aside) continue;
      const t0 = performance.now();
      const order = policy.aside(engine, state, player as PlayerId);
      this.timed(performance.now() - t0, this.asideTimes);
      const r = order ? engine.applyOrder(state, player as PlayerId, order) : null;
      if (!order || !r?.ok) continue;
      batch.push({ actor: player as PlayerId, userId: null, kind: 'bot', bot: seat.level, order });
      state = r.value.state;
    }
    const waiting = engine.waitingFor(state).filter((p) => seats.bots.has(p));
    if (waiting.length === 0 && batch.length === 0) return null;
    const pace = seats.peoplePresent ? this.settings.paceMs : this.settings.aloneMs;
    const started = performance.now();
    const full = () =>
      batch.length >= this.settings.batchOrders || performance.now() - started > this.settings.batchMs;
    for (const player of waiting) {
      const seat = seats.bots.get(player)!;
      const policy = this.policy(rt.id, player, seat.level);
      while (engine.waitingFor(state).includes(player as PlayerId)) {
        await this.searchIfDue(rt, policy, state, player as PlayerId);
        if (this.stopped) return null;
        const t0 = performance.now();
        let order: Order | null = policy.choose(engine, state, player as PlayerId);
        this.timed(performance.now() - t0);
        let r = order ? engine.applyOrder(state, player as PlayerId, order) : null;
        if (!r?.ok) {
          // A bot's mistake never stalls the seat: the missed-deadline default is given instead.
          this.log('bot order refused', {
            world: rt.id,
            player,
            order,
            code: r && !r.ok ? r.error.code : null,
          });
          order = engine.timeoutOrders(state, player as PlayerId)[0] ?? null;
          r = order ? engine.applyOrder(state, player as PlayerId, order) : null;
          if (!order || !r?.ok) break;
        }
        batch.push({ actor: player as PlayerId, userId: null, kind: 'bot', bot: seat.level, order });
        state = r.value.state;
        if (pace > 0 || full()) break;
      }
      if ((pace > 0 && batch.length > 0) || full()) break;
    }
    if (batch.length === 0) return null;
    const standingIn = [
      ...new Set(batch.filter((o) => seats.bots.get(o.actor)?.standIn).map((o) => o.actor)),
    ];
    const outcome = await rt.run(async () => {
      if (rt.version !== version || rt.settings.status !== 'running') return 'moved' as const;
      // The seats were read before thinking, outside the queue: a player who came back meanwhile
      // (worlds/seating.ts `setAway`, inside this queue) holds the seat from then on, so it is read again here.
      if (standingIn.length > 0 && !(await this.stillAway(rt.id, standingIn))) {
        this.forget(rt.id);
        return 'moved' as const;
      }
      const r = await rt.commit(batch);
      if (!r.ok) this.log('bot batch refused', { world: rt.id, code: r.error.code });
      return r.ok ? ('committed' as const) : ('refused' as const);
    });
    // Moved on meanwhile: think again at once. Refused (the seat changed hands?): try again later.
    return outcome === 'committed' ? pace : outcome === 'moved' ? 0 : this.settings.aloneMs;
  }

  /** Whether every seat of `players` is still away with a stand-in (what the database says now). */
  private async stillAway(worldId: string, players: readonly string[]): Promise<boolean> {
    const n = await this.db.prisma.worldSeat.count({
      where: { worldId, playerId: { in: [...players] }, leftAt: null, absent: true, standIn: { not: null } },
    });
    return n === players.length;
  }

  private timed(ms: number, times = this.decisionTimes): void {
    times.push(ms);
    if (times.length > TIMES_KEPT) times.splice(0, times.length - TIMES_KEPT);
  }
}
