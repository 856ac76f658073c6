/**
 * One world in memory: its state, its public view and a serialized queue (in the manner of
 * lila's round actor). Every change runs through `run`, is committed to the order log with a
 * compare-and-set on the log's next seq (store.ts), and only then acknowledged and broadcast.
 */
import {
  type Engine,
  type GameEvent,
  type GameState,
  type GameView,
  type Order,
  type PlayerId,
  upgradeState,
} from '@bke/engine';
import type { PatchOp, WireError } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { afterCommit, isTransaction, onRollback } from '../db/transaction.ts';
import { afterAcknowledgement } from './after-ack.ts';
import { diffViews } from './diff.ts';
import { PROJECTED_EVENTS, ProjectionBatch } from './projections.ts';
import { latestSnapshot, thinSnapshots, writeSnapshot } from './snapshots.ts';
import {
  appendOrders,
  type LogRow,
  type OrderKind,
  readHead,
  readOrders,
  replayRows,
  type SenderGuard,
  type WorldHead,
} from './store.ts';
import { ViewerPatches } from './viewer-patches.ts';

/** A snapshot is written at least this often (orders), and at every new game turn. */
const SNAPSHOT_EVERY = 50;

/**
 * The latest orders whose states (and per-viewer patches) a world keeps in memory: each costs
 * about 7 to 11 kB (the state's changed parts, its events, a patch per seat), so a world in play
 * kept 1.5 to 2 MB when it held MAX_PATCH_GAP (200) of them. Fifty are about a game turn of six
 * players. A client further behind than the memory reaches is brought on from elsewhere
 * (sockets/viewer-messages.ts): a player with a full view (a few kB once compressed, fewer bytes
 * than fifty patches), a spectator with the stored public patches.
 */
const HELD_VERSIONS = 50;

export interface WorldSettings {
  phaseSeconds: number;
  earlyResolution: boolean;
  status: WorldHead['status'];
  /** Why a moderator paused the world (told to the players). */
  pauseReason: string | null;
}

export interface PendingOrder {
  actor: PlayerId | 'system';
  userId: string | null;
  kind: OrderKind;
  /** The level of the bot that chose it (kind `bot`). */
  bot?: string;
  order: unknown;
  /** The state and events the engine already gave for this order (played once, not again). */
  applied?: { state: GameState; events: GameEvent[] };
}

export type CommitResult = { ok: true; version: number } | { ok: false; error: WireError };

/** A seat's order taken (`deferred`: an `endPhase` recorded as "ready", applied at the deadline). */
export type OrderResult = { ok: true; version: number; deferred: boolean } | { ok: false; error: WireError };

export interface RuntimeHooks {
  /**
   * Called inside the queue after a commit, in order: the world moved from version `from` to
   * `rt.version` (each viewer's patches are in `rt.viewers`). `headChanged` says whether the step,
   * its deadline or the status moved (a new `world/status` is due).
   */
  committed(rt: WorldRuntime, from: number, headChanged: boolean): void;
  log(msg: string, data?: object): void;
  /** Called once orders of this process are in the log (the other processes are told). */
  appended?(rt: WorldRuntime): void;
  /**
   * Called when a runtime the hub had let go of (`release`) is given work again: the hub takes it
   * back instead of loading a second copy of the world.
   */
  reclaimed?(rt: WorldRuntime): void;
  /** A seat was marked ready for the step (the seats changed, not the log): its status is due. */
  readied?(rt: WorldRuntime): void;
}

/** The step a deadline belongs to; a new key starts a new deadline. Empty: nobody must act. */
export function stepKeyOf(state: GameState, waiting: readonly string[]): string {
  if (waiting.length === 0) return '';
  const s = state.step;
  switch (s.kind) {
    case 'playerTurn':
      return `${state.turn}|${s.player}|${s.phase}`;
    case 'administration':
      return `${state.turn}|administration|${s.player ?? ''}`;
    case 'entry':
      return `${state.turn}|entry|${s.queue[0] ?? ''}`;
    default:
      return `${state.turn}|${s.kind}`;
  }
}

export class WorldRuntime {
  private tail: Promise<unknown> = Promise.resolve();
  private lastSnapshotSeq = 0;
  publicView: GameView;
  head: WorldHead;
  /** Each viewer's patches of the latest orders (viewer-patches.ts). */
  readonly viewers: ViewerPatches;

  constructor(
    readonly id: string,
    private readonly db: Database,
    private readonly engine: Engine,
    public state: GameState,
    head: WorldHead,
    public settings: WorldSettings,
    snapshotSeq: number,
    private readonly hooks: RuntimeHooks,
    viewers?: ViewerPatches,
  ) {
    this.head = head;
    this.publicView = engine.view(state, null);
    this.lastSnapshotSeq = snapshotSeq;
    this.viewers = viewers ?? new ViewerPatches(engine, id, head.version, state, HELD_VERSIONS);
  }

  get version(): number {
    return this.head.version;
  }

  /** Resolves once everything queued so far, and the snapshots and projections it wrote, are done. */
  async settled(): Promise<void> {
    await this.run(async () => {});
    await this.persisted();
  }

  /**
   * Commits made in a transaction that has not ended yet: the state in memory may still be taken
   * back, so a reader outside the queue (a subscribe) waits for the queue instead of reading it.
   */
  get unsettled(): boolean {
    return this.provisional > 0;
  }
  private provisional = 0;

  /** Tasks queued and not finished (the metrics' queue depth). */
  get pending(): number {
    return this.queued;
  }
  private queued = 0;

  /** When this runtime was last given work or asked for (`Date.now()`); the hub unloads idle ones. */
  get lastUsed(): number {
    return this.usedAt;
  }
  private usedAt = Date.now();

  /** Marks the runtime as used now (the hub's `get`; `run` does it by itself). */
  touch(): void {
    this.usedAt = Date.now();
  }

  /** Runs `fn` after everything queued before it; one failure does not block the queue. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.released) this.reclaim();
    this.queued++;
    this.usedAt = Date.now();
    const next = this.tail.then(fn, fn).finally(() => {
      this.queued--;
      this.usedAt = Date.now();
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Whether the hub let go of this runtime (unused for a while, loaded-worlds.ts `unloadIdle`). Whoever
   * still holds it may go on using it: its next `run` hands it back to the hub first, which never
   * loads another copy of a world while this one can still be reached.
   */
  private released = false;

  /** The hub no longer holds this runtime (loaded-worlds.ts `unloadIdle`). */
  release(): void {
    this.released = true;
  }

  /**
   * Taken back into use after a release: nothing told it of other processes' commits meanwhile
   * (the hub's refresh and sweep look only at the worlds it holds), so it catches up before the
   * task that brought it back.
   */
  private reclaim(): void {
    this.released = false;
    this.hooks.reclaimed?.(this);
    void this.run(() => this.catchUp()).catch((e) =>
      this.hooks.log('catch-up of a reclaimed world failed', { world: this.id, err: String(e) }),
    );
  }

  waitingFor(): PlayerId[] {
    return this.engine.waitingFor(this.state);
  }

  /**
   * The engine's defaults for `players` who missed the deadline (or are held while away), each in
   * turn, as a batch for `commit`: the engine plays each once and the commit does not play it again.
   */
  missedDeadline(players: readonly PlayerId[]): PendingOrder[] {
    return this.engine.missedDeadline(this.state, players).map((d) => ({
      actor: d.actor,
      userId: null,
      kind: 'timeout',
      order: d.order,
      applied: { state: d.state, events: d.events },
    }));
  }

  /**
   * Replays orders committed by another process since our version and refreshes the head (status,
   * deadline) from the database. Call inside `run`. What moved is news to the sockets of this
   * process: the stored patches of those orders, and the head when it changed, go to the
   * `committed` hook like this process's own commits (the snapshots and projections were written by
   * the process that committed). Returns whether anything moved (orders replayed, the head or the
   * settings changed).
   */
  async catchUp(): Promise<boolean> {
    // The head first (its version is the log's last seq, read in the same statement): reading the
    // orders up to it after it never leaves the state behind the head.
    const stored = await readHead(this.db, this.id);
    if (!stored) throw new Error(`world ${this.id} not found`);
    const { head, ...settings } = stored;
    const w = { ...head, ...settings };
    const from = this.version;
    const rows = w.version > this.version ? await readOrders(this.db, this.id, this.version, w.version) : [];
    if (rows.length > 0) {
      this.state = await replayRows(this.db, this.engine, this.id, this.state, rows, (r, state) =>
        this.viewers.push(r.seq, state, r.events as GameEvent[], r.patch as PatchOp[]),
      );
      this.publicView = this.engine.view(this.state, null);
    }
    const headChanged =
      w.stepKey !== this.head.stepKey ||
      w.status !== this.head.status ||
      w.deadlineAt?.getTime() !== this.head.deadlineAt?.getTime();
    const settingsChanged =
      w.phaseSeconds !== this.settings.phaseSeconds ||
      w.earlyResolution !== this.settings.earlyResolution ||
      w.pauseReason !== this.settings.pauseReason;
    this.head = { version: w.version, stepKey: w.stepKey, deadlineAt: w.deadlineAt, status: w.status };
    this.settings = {
      ...this.settings,
      status: w.status,
      phaseSeconds: w.phaseSeconds,
      earlyResolution: w.earlyResolution,
      pauseReason: w.pauseReason,
    };
    if (rows.length > 0 || headChanged) this.hooks.committed(this, from, headChanged);
    return rows.length > 0 || headChanged || settingsChanged;
  }

  /**
   * A player's order against `version`, parsed at the edge it came in by (the socket's or the
   * route's schema), in the world's queue: committed to the log before this resolves (the caller
   * acknowledges after). With early resolution off an `endPhase` is recorded as "ready" instead and
   * applied at the deadline. `guard`: the sender's session and seat, checked as the order is stored
   * (`auth/revoked` when they no longer hold).
   */
  order(
    playerId: PlayerId,
    userId: string,
    version: number,
    order: Order,
    guard?: SenderGuard,
  ): Promise<OrderResult> {
    return this.run(async (): Promise<OrderResult> => {
      if (this.settings.status === 'paused') return { ok: false, error: { code: 'world/paused' } };
      if (this.settings.status === 'closed') return { ok: false, error: { code: 'world/closed' } };
      if (version !== this.version)
        return { ok: false, error: { code: 'sync/stale', version: this.version } };
      if (order.type === 'endPhase' && !this.settings.earlyResolution) return this.markReady(playerId, guard);
      const r = await this.commit(
        [{ actor: playerId, userId, kind: 'player', order }],
        new Date(),
        guard ? { guard } : {},
      );
      return r.ok ? { ok: true, version: r.version, deferred: false } : r;
    });
  }

  /** An `endPhase` with early resolution off: the seat is marked ready for the step. In the queue. */
  private async markReady(playerId: PlayerId, guard: SenderGuard | undefined): Promise<OrderResult> {
    if (!this.waitingFor().includes(playerId)) return { ok: false, error: { code: 'order/not_your_turn' } };
    const marked = await this.db.prisma.worldSeat.updateMany({
      where: {
        worldId: this.id,
        playerId,
        ...(guard
          ? {
              userId: guard.userId,
              leftAt: null,
              user: { sessions: { some: { id: guard.sessionId, expiresAt: { gt: new Date() } } } },
            }
          : {}),
      },
      data: { readyKey: this.head.stepKey },
    });
    if (marked.count === 0) return { ok: false, error: { code: 'auth/revoked' } };
    this.hooks.readied?.(this);
    return { ok: true, version: this.version, deferred: true };
  }

  /**
   * Applies orders in sequence (each sees the state the previous left), then commits them all at
   * once. An illegal order aborts the whole batch with its engine error; nothing is written.
   */
  async commit(
    batch: PendingOrder[],
    now = new Date(),
    opts: {
      allowPaused?: boolean;
      newDeadline?: boolean;
      /**
       * A transaction (db/transaction.ts) to append in: the runtime moves on at once, so later steps
       * of the transaction see the new state, and moves back if it fails; the broadcast waits for
       * the commit.
       */
      db?: Database;
      /** A player's order: refused (`auth/revoked`) unless its sender's session and seat still hold. */
      guard?: SenderGuard;
    } = {},
  ): Promise<CommitResult> {
    let state = this.state;
    let view = this.publicView;
    const rows: LogRow[] = [];
    const states: GameState[] = [];
    for (const p of batch) {
      // Orders the engine played already (a missed deadline's defaults) are not played again.
      const r = p.applied
        ? { ok: true as const, value: p.applied }
        : this.engine.applyOrder(state, p.actor, p.order);
      if (!r.ok) return { ok: false, error: { ...r.error } };
      const nextView = this.engine.view(r.value.state, null);
      states.push(r.value.state);
      rows.push({
        seq: this.version + rows.length + 1,
        actor: p.actor,
        userId: p.userId,
        kind: p.kind,
        bot: p.bot ?? null,
        order: p.order,
        events: r.value.events,
        patch: diffViews(view, nextView),
      });
      state = r.value.state;
      view = nextView;
    }
    if (rows.length === 0) return { ok: true, version: this.version };
    return this.persist(
      state,
      view,
      rows,
      states,
      now,
      opts.allowPaused ?? false,
      opts.newDeadline ?? false,
      opts.db ?? this.db,
      opts.guard ?? null,
    );
  }

  /** What `persist` changes in memory, to put back when a transaction fails. */
  checkpoint(): () => void {
    const { state, publicView, head, settings, lastSnapshotSeq } = this;
    return () => {
      this.viewers.truncate(head.version);
      this.state = state;
      this.publicView = publicView;
      this.head = head;
      this.settings = settings;
      this.lastSnapshotSeq = lastSnapshotSeq;
    };
  }

  private async persist(
    state: GameState,
    view: GameView,
    rows: LogRow[],
    states: GameState[],
    now: Date,
    allowPaused: boolean,
    newDeadline: boolean,
    db: Database,
    guard: SenderGuard | null,
  ): Promise<CommitResult> {
    const head = this.nextHead(state, rows.length, now, newDeadline);
    const from = this.version;
    const headChanged =
      head.stepKey !== this.head.stepKey ||
      head.status !== this.head.status ||
      head.deadlineAt?.getTime() !== this.head.deadlineAt?.getTime();
    // Most orders leave the step, its deadline and the status as they were: then only the log is
    // written, and the `worlds` row is not rewritten.
    const written = await appendOrders(
      db,
      this.id,
      from,
      headChanged ? head : null,
      rows,
      allowPaused,
      guard,
    );
    if (!written) {
      // In a transaction the caller caught up before it began; its failure undoes everything.
      if (isTransaction(db)) return { ok: false, error: { code: 'sync/stale', version: this.version } };
      await this.catchUp();
      // Nothing moved and the world takes orders: the sender's session or seat is what failed.
      if (
        guard &&
        this.version === from &&
        (this.settings.status === 'running' || this.settings.status === 'open')
      )
        return { ok: false, error: { code: 'auth/revoked' } };
      if (this.settings.status === 'paused' && !allowPaused)
        return { ok: false, error: { code: 'world/paused' } };
      if (this.settings.status === 'closed') return { ok: false, error: { code: 'world/closed' } };
      return { ok: false, error: { code: 'sync/stale', version: this.version } };
    }
    onRollback(db, this.checkpoint());
    if (isTransaction(db)) {
      // Moved in memory ahead of its commit: readers outside the queue wait for the outcome.
      this.provisional++;
      const settledNow = () => {
        this.provisional--;
      };
      afterCommit(db, settledNow);
      onRollback(db, settledNow);
    }
    const before = this.state;
    this.state = state;
    this.publicView = view;
    this.head = head;
    this.settings = { ...this.settings, status: head.status };
    for (const [i, r] of rows.entries()) this.viewers.push(r.seq, states[i]!, r.events, r.patch);
    this.hooks.appended?.(this);
    afterCommit(db, () => {
      this.hooks.committed(this, from, headChanged);
      this.afterCommit(before, rows, states);
    });
    return { ok: true, version: head.version };
  }

  private nextHead(state: GameState, added: number, now: Date, newDeadline = false): WorldHead {
    const waiting = this.engine.waitingFor(state);
    const stepKey = stepKeyOf(state, waiting);
    const status = this.head.status === 'open' && state.players.length > 0 ? 'running' : this.head.status;
    let deadlineAt = this.head.deadlineAt;
    // A paused world keeps its deadline (the time left is restored on resume).
    if (this.head.status === 'paused') deadlineAt = this.head.deadlineAt;
    else if (stepKey === '') deadlineAt = null;
    else if (newDeadline || stepKey !== this.head.stepKey || deadlineAt === null)
      deadlineAt = new Date(now.getTime() + this.settings.phaseSeconds * 1000);
    return { version: this.version + added, stepKey, deadlineAt, status };
  }

  /**
   * Projections and snapshots, after the acknowledgement and off the world's queue: the next order
   * of the world does not wait for them. They are written in commit order on a chain of their own
   * (`persisted`); the projections of a commit in one statement, a snapshot at each new game turn
   * (rollback and retention count turns) and every SNAPSHOT_EVERY orders, the older ones thinned
   * at turn starts (snapshots.ts). The state hash is computed only for a snapshot.
   */
  private afterCommit(before: GameState, rows: LogRow[], states: GameState[]): void {
    const state = this.state;
    const seq = this.version;
    const batch = new ProjectionBatch();
    // Each order is projected with the state it left (its turn, its cycle numbers), as `rebuild
    // --repair` does: a batch of missed-deadline defaults may cross a turn end.
    for (const [i, r] of rows.entries())
      if (r.events.some((e: GameEvent) => PROJECTED_EVENTS.has(e.type)))
        batch.add(r.seq, states[i]!, r.events);
    const turnStart = state.turn !== before.turn;
    const snapshot = turnStart || seq - this.lastSnapshotSeq >= SNAPSHOT_EVERY;
    if (snapshot) this.lastSnapshotSeq = seq;
    if (batch.size === 0 && !snapshot) return;
    // On connections of their own: the next orders' appends never queue behind them.
    const db = this.db.background;
    this.persistInOrder(async () => {
      await batch.write(db, this.id);
      if (!snapshot) return;
      await writeSnapshot(db, this.id, seq, state, this.engine.hash(state));
      if (turnStart) await thinSnapshots(db, this.id, state.turn);
    });
  }

  private persisting: Promise<void> = Promise.resolve();

  /**
   * Runs `fn` after the snapshot and projection writes queued before it, and after the commit's
   * acknowledgement has left (its statements are not sent ahead of it); a failure is logged.
   */
  private persistInOrder(fn: () => Promise<void>): void {
    this.persisting = this.persisting
      .then(afterAcknowledgement)
      .then(fn)
      .catch((e) => {
        this.hooks.log('projection or snapshot failed (rebuild --repair restores them)', {
          world: this.id,
          err: String(e),
        });
      });
  }

  /** Resolves once the snapshots and projections of every commit so far are written. */
  persisted(): Promise<void> {
    return this.persisting;
  }

  /** Loads a world: its latest snapshot, then every later order through the engine. */
  static async load(
    db: Database,
    engine: Engine,
    worldId: string,
    hooks: RuntimeHooks,
  ): Promise<WorldRuntime | null> {
    const stored = await readHead(db, worldId);
    if (!stored) return null;
    const { head, ...w } = stored;
    const snap = await latestSnapshot(db, worldId, head.version);
    if (!snap) throw new Error(`world ${worldId} has no snapshot 0`);
    const rows = await readOrders(db, worldId, snap.seq, head.version);
    const start = upgradeState(snap.state);
    const viewers = new ViewerPatches(engine, worldId, snap.seq, start, HELD_VERSIONS);
    const state = await replayRows(db, engine, worldId, start, rows, (r, s) =>
      viewers.push(r.seq, s, r.events as GameEvent[], r.patch as PatchOp[]),
    );
    const settings = {
      phaseSeconds: w.phaseSeconds,
      earlyResolution: w.earlyResolution,
      status: head.status,
      pauseReason: w.pauseReason,
    };
    return new WorldRuntime(worldId, db, engine, state, head, settings, snap.seq, hooks, viewers);
  }
}
