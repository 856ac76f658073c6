/**
 * The worlds this process holds in memory. Worlds run for weeks and a process serves many: one
 * nobody here watches or uses for a while is let go of (`unloadIdle`) and loaded again on its next
 * use, so that the heap holds the worlds in play rather than every world touched since the process
 * started. The lobby lists such a world from a digest of it kept meanwhile (kept-digests.ts), which
 * is no use of it.
 */
import type { Engine } from '@bke/engine';
import type { Database } from '../db/database.ts';
import type { KeptDigests } from './kept-digests.ts';
import { type RuntimeHooks, WorldRuntime } from './runtime.ts';
import { runtimeHooks, type WorldEvents } from './world-events.ts';

export interface LoadedWorldsOptions {
  db: Database;
  engine: Engine;
  events: WorldEvents;
  digests: KeptDigests;
  log: (msg: string, data?: object) => void;
  /**
   * Whether something other than its queue keeps the world here: a socket of this process
   * watching it (its viewers get its patches from the runtime in memory), a catch-up being due.
   */
  kept: (worldId: string) => boolean;
  /** Tells the other processes a world changed outside its log (a seat marked ready). */
  publish: (worldId: string) => void;
}

export class LoadedWorlds {
  private readonly worlds = new Map<string, Promise<WorldRuntime | null>>();
  /** The loaded ones among `worlds`. */
  private readonly held = new Map<string, WorldRuntime>();
  /**
   * Runtimes let go of, by world, until they are garbage: one still reachable (a bot about to
   * commit, a request between its `get` and its `run`) is taken back rather than loaded anew, so a
   * process never holds two copies of a world that could both commit.
   */
  private readonly letGo = new Map<string, WeakRef<WorldRuntime>>();
  private unloadTimer: NodeJS.Timeout | null = null;
  private readonly hooks: RuntimeHooks;

  constructor(private readonly o: LoadedWorldsOptions) {
    this.hooks = runtimeHooks(o.events, o.log, (rt) => this.takeBack(rt), o.publish);
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
    const loading = WorldRuntime.load(this.o.db, this.o.engine, worldId, this.hooks).then(
      (rt) => {
        if (this.worlds.get(worldId) !== loading) return rt;
        if (rt) {
          this.held.set(worldId, rt);
          this.o.digests.delete(worldId);
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

  /** The world's runtime if it is loaded or loading here, without loading it nor marking it used. */
  ifLoading(worldId: string): Promise<WorldRuntime | null> | undefined {
    return this.worlds.get(worldId);
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

  /** A runtime let go of is given work again: this process holds it once more (`WorldRuntime.reclaim`). */
  private takeBack(rt: WorldRuntime): void {
    // After `forget` (a test's fresh process) another copy may be held: that one stays.
    if (this.worlds.has(rt.id)) return;
    this.letGo.delete(rt.id);
    this.worlds.set(rt.id, Promise.resolve(rt));
    this.held.set(rt.id, rt);
    this.o.digests.delete(rt.id);
  }

  /**
   * Unloads the worlds unused for `olderThanMs` or longer (0: every idle one) and returns how
   * many. A world stays while its queue holds a task or while it is `kept` (watched, a catch-up
   * due): only a world nothing here waits on goes. Done in one synchronous pass, so no task can
   * slip into a queue between the check and the unload; a caller that got the runtime before and
   * uses it after gives it back by that use (`takeBack`).
   */
  unloadIdle(olderThanMs: number, now = Date.now()): number {
    let n = 0;
    for (const [id, rt] of this.held) {
      if (rt.pending > 0 || rt.lastUsed > now - olderThanMs || this.o.kept(id)) continue;
      this.held.delete(id);
      this.worlds.delete(id);
      rt.release();
      this.letGo.set(id, new WeakRef(rt));
      this.o.digests.keep(rt);
      n++;
      this.o.events.emit('unloaded', id);
    }
    for (const [id, ref] of this.letGo) if (!ref.deref()) this.letGo.delete(id);
    return n;
  }

  /** Drops every cached world and digest (tests simulate a fresh process). */
  forget(): void {
    this.worlds.clear();
    this.held.clear();
    this.letGo.clear();
    this.o.digests.clear();
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
        this.o.log('unloading idle worlds failed', { err: String(e) });
      }
    }, every);
    this.unloadTimer.unref();
  }

  stopUnloading(): void {
    if (this.unloadTimer) clearInterval(this.unloadTimer);
    this.unloadTimer = null;
  }
}
