/**
 * One open world: the current view, the legal orders, the status (deadline, who is waited for),
 * the event log and chat, kept in sync with the server by versioned patches. A gap in versions or
 * a stale order asks for a resync; the client never guesses the next state (no optimistic
 * updates: a move shown and then taken back is what players of such sites complain of most).
 * The last view is kept in sessionStorage so a reload resumes from its version with the missed
 * patches instead of starting over.
 */

import type { EconomicPlan, GameView, LegalOrder, Order } from '@bke/protocol';
import { followPatch, isLaterStatus, RECENT_EVENTS, type WireError } from '@bke/protocol';
import { errorWords } from '../words.ts';
import type {
  ChatMessage,
  LoggedEvent,
  PatchMessage,
  PlanCost,
  SubscribeResult,
  ViewMessage,
  WorldLink,
  WorldStatusMessage,
} from './link.ts';
import { liveLog, logKey } from './timeline.ts';

const LOG_LIMIT = 3000;

/** A plan's price from the server, or why it cannot be priced (a refused plan, in words). */
export interface PlanQuote {
  readonly cost: PlanCost | null;
  readonly problem: string | null;
}

/** How long after an order without events the history is asked for again (it may have been an undo). */
const HISTORY_AFTER_MS = 300;

interface Saved {
  readonly version: number;
  readonly view: GameView;
  readonly log: LoggedEvent[];
}

export class WorldStore {
  view = $state<GameView | null>(null);
  version = $state<number | null>(null);
  legal = $state<readonly LegalOrder[]>([]);
  status = $state<WorldStatusMessage | null>(null);
  role = $state<'player' | 'spectator' | null>(null);
  log = $state<LoggedEvent[]>([]);
  chat = $state<ChatMessage[]>([]);
  /** Messages not yet seen, per channel ('all' or a player id). */
  unread = $state<Record<string, number>>({});
  /** The last error, in words, until the next successful order. */
  error = $state<string | null>(null);
  sending = $state(false);
  loading = $state(true);
  private historyTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why this world cannot be shown at all (no such world), for a screen with a way on. */
  missing = $state(false);
  /**
   * The world takes no spectators and this account holds no seat in it: its page shows nothing of
   * the world, but someone invited may still join it from there.
   */
  closedToSpectators = $state(false);
  /** The chat channel on screen; its messages are read as they come. */
  openChannel: string | null = null;
  /** Unread messages by id → their channel, so a deleted one leaves its unread count too. */
  private readonly unseen = new Map<string, string>();
  private readonly unsubs: (() => void)[] = [];
  private me: string | null = null;

  constructor(
    readonly worldId: string,
    private readonly link: WorldLink,
    private readonly storage:
      | (Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem'>>)
      | null = null,
  ) {}

  async start(): Promise<void> {
    this.restore();
    this.unsubs.push(
      this.link.listen({
        view: (v) => this.onView(v),
        patch: (p) => this.onPatch(p),
        status: (s) => this.onStatus(s),
        chat: (m) => this.onChat(m),
        chatDeleted: (d) => this.onChatDeleted(d),
      }),
      this.link.onReconnect(() => void this.resync()),
    );
    await this.resync();
  }

  stop(): void {
    if (this.historyTimer) clearTimeout(this.historyTimer);
    for (const u of this.unsubs.splice(0)) u();
    this.link.unsubscribe(this.worldId);
  }

  /** Follow the world afresh (a spectator who just took a seat gets the player's view and orders). */
  async restart(): Promise<void> {
    this.link.unsubscribe(this.worldId);
    this.view = null;
    this.version = null;
    this.legal = [];
    this.loading = true;
    await this.resync();
  }

  /** Ask for everything since our version: the server answers with patches or a full view. */
  async resync(): Promise<void> {
    let r = await this.link.subscribe(this.worldId, this.version);
    // Refused for the account's pace (its other tabs or programs were busy a moment ago): the page
    // waits the time the server names and asks again, a few times, instead of saying the world
    // could not be opened.
    for (let tries = 0; !r.ok && r.error.code === 'socket/rate_limited' && tries < 5; tries++) {
      const wait = Number((r.error as { retryAfterSeconds?: unknown }).retryAfterSeconds);
      await new Promise((done) => setTimeout(done, Math.min(Number.isFinite(wait) ? wait : 1, 10) * 1000));
      r = await this.link.subscribe(this.worldId, this.version);
    }
    if (!r.ok) {
      // An id the server cannot read names no world either (socket/invalid: not a world id).
      if (r.error.code === 'world/not_found' || r.error.code === 'socket/invalid') {
        this.missing = true;
        this.view = null;
        this.forget();
      }
      this.closedToSpectators = r.error.code === 'world/no_spectators';
      this.error = errorWords(r.error);
      this.loading = false;
      return;
    }
    if (this.closedToSpectators) {
      // Seated since (joined by invitation): the refusal no longer holds.
      this.closedToSpectators = false;
      this.error = null;
    }
    this.onSubscribed(r);
  }

  private onSubscribed(r: SubscribeResult): void {
    if (r.sync.kind === 'patches' && this.view && this.view.viewer !== r.playerId) {
      // The saved copy was seen by another seat (another account in this tab): start afresh.
      this.view = null;
      this.version = null;
      this.log = [];
      void this.resync();
      return;
    }
    this.role = r.role;
    this.me = r.playerId;
    if (r.sync.kind === 'view') {
      this.onView({ worldId: this.worldId, version: r.sync.version, view: r.sync.view });
    } else {
      for (const p of r.sync.patches) this.onPatch(p);
    }
    this.legal = r.legal;
    this.status = r.status;
    this.chat = [...r.chat];
    this.adoptHistory(r.recent);
    this.loading = false;
  }

  /**
   * The server's latest events, along the log as it now stands (rollbacks and undone orders left
   * out), replace what this page kept for the same span: a reload, a new spectator and a page that
   * saw an undo all show the same history. Lines older than the server's list are kept only when
   * the list is full (the server has more than it sends), and then only those no rollback undid.
   */
  private adoptHistory(recent: SubscribeResult['recent'] | undefined): void {
    if (!recent) return;
    const fromServer = recent.map((r) => ({
      seq: logKey(r.seq, r.index),
      turn: r.turn,
      event: r.event,
    }));
    const oldest = fromServer[0]?.seq ?? Number.POSITIVE_INFINITY;
    const older = recent.length >= RECENT_EVENTS ? this.log.filter((l) => l.seq < oldest) : [];
    this.log = liveLog([...older, ...fromServer]).slice(-LOG_LIMIT);
    this.save();
  }

  /**
   * An order without events that moved the board may have been an undo, which takes another order's events out of the
   * history: ask the server for the history as it now stands (once, shortly after).
   */
  private historyMayHaveChanged(): void {
    if (this.historyTimer) clearTimeout(this.historyTimer);
    this.historyTimer = setTimeout(() => {
      this.historyTimer = null;
      void this.link.subscribe(this.worldId, this.version).then((r) => {
        if (r.ok) this.onSubscribed(r);
      });
    }, HISTORY_AFTER_MS);
  }

  /** A full view (the server's memory of patches did not reach back to ours), with the legal orders. */
  onView(v: ViewMessage): void {
    if (v.worldId !== this.worldId) return;
    this.view = v.view as GameView;
    this.version = v.version;
    if (v.legal) this.legal = v.legal as LegalOrder[];
    if (v.status) this.laterStatus(v.status);
    this.loading = false;
    this.save();
  }

  /**
   * Adds one order's events to the log; events belong to the turn they happened in. Returns the
   * turn after them.
   */
  private logEvents(to: number, events: PatchMessage['events'], turnBefore: number): number {
    // A patch that ends a turn carries the old turn's last events before its 'turnStarted'.
    let turn = turnBefore;
    const logged = events.map((event, i) => {
      if (event.type === 'turnStarted' && typeof event.turn === 'number') turn = event.turn;
      if (event.type === 'worldRolledBack' && typeof event.turn === 'number') turn = event.turn;
      return { seq: logKey(to, i), turn, event };
    });
    // A rollback's own line arrives with its patch: the lines of the orders it undid leave at once.
    if (logged.length) this.log = liveLog([...this.log, ...logged]).slice(-LOG_LIMIT);
    return turn;
  }

  /**
   * One order's change to this viewer's view, with its events and, when they changed, the player's
   * legal orders at the new version (absent: the ones held still stand).
   */
  onPatch(p: PatchMessage): void {
    if (p.worldId !== this.worldId || !this.view || this.version === null) return;
    // An order that moved the step, its deadline or who is waited for carries the new status.
    if (p.status) this.laterStatus(p.status);
    const step = followPatch(this.view, this.version, p);
    if (step.kind === 'behind') return;
    if (step.kind === 'held') {
      // Applied already (a stale order's answer carried it): its legal orders still count.
      if (p.legal) this.legal = p.legal as LegalOrder[];
      return;
    }
    if (step.kind === 'gap') {
      void this.resync();
      return;
    }
    if (step.kind === 'drift') {
      // Our copy drifted: start again from a full view.
      this.version = null;
      void this.resync();
      return;
    }
    const before = this.view.turn;
    this.view = step.view;
    this.version = step.version;
    if (p.legal) this.legal = p.legal as LegalOrder[];
    this.logEvents(p.to, p.events, before);
    // An undo changes the board and says nothing; an order that changes nothing this viewer sees
    // (another's plan, a hidden offer) cannot have been an undo of anything on its screen.
    if (p.events.length === 0 && p.ops.length > 0) this.historyMayHaveChanged();
    this.save();
  }

  onStatus(s: WorldStatusMessage): void {
    if (s.worldId === this.worldId) this.status = s;
  }

  /**
   * A status carried by a patch or a view: kept unless the one held is of a later version (a patch
   * this page already had from a stale order's answer may arrive after a newer status).
   */
  private laterStatus(s: WorldStatusMessage): void {
    if (s.worldId === this.worldId && isLaterStatus(this.status, s)) this.status = s;
  }

  onChat(m: ChatMessage): void {
    if (m.worldId !== this.worldId) return;
    if (this.chat.some((c) => c.id === m.id)) return;
    // Kept in the order written (ids grow): a line the server caught up after its connection to the
    // database came back can arrive after later ones.
    const after = this.chat.findIndex((c) => writtenBefore(m.id, c.id));
    this.chat = after < 0 ? [...this.chat, m] : [...this.chat.slice(0, after), m, ...this.chat.slice(after)];
    const mine = m.from.playerId !== null && m.from.playerId === this.me;
    const channel = m.to === null ? 'all' : mine ? m.to : (m.from.playerId ?? 'all');
    if (!mine && channel !== this.openChannel) {
      this.unread = { ...this.unread, [channel]: (this.unread[channel] ?? 0) + 1 };
      this.unseen.set(m.id, channel);
    }
  }

  /** A moderator deleted a message: it leaves the screen at once (and its unread count with it). */
  onChatDeleted(d: { worldId: string; id: string }): void {
    if (d.worldId !== this.worldId) return;
    const gone = this.chat.find((c) => c.id === d.id);
    if (!gone) return;
    this.chat = this.chat.filter((c) => c.id !== d.id);
    const channel = this.unseen.get(d.id);
    if (channel === undefined) return;
    this.unseen.delete(d.id);
    this.unread = { ...this.unread, [channel]: Math.max(0, (this.unread[channel] ?? 0) - 1) };
  }

  markRead(channel: string): void {
    this.openChannel = channel;
    for (const [id, c] of this.unseen) if (c === channel) this.unseen.delete(id);
    if (this.unread[channel]) this.unread = { ...this.unread, [channel]: 0 };
  }

  /** Send an order made against the version on screen; false (and words in `error`) if refused. */
  async send(order: Order): Promise<boolean> {
    if (this.version === null) return false;
    this.sending = true;
    try {
      const r = await this.link.order(this.worldId, this.version, order);
      if (r.ok) {
        this.error = null;
        return true;
      }
      this.error = errorWords(r.error);
      if (r.error.code === 'sync/stale') await this.caughtUp(r.error);
      if (r.error.code === 'world/not_seated') await this.restart();
      return false;
    } finally {
      this.sending = false;
    }
  }

  /**
   * A stale order's answer: the patches this page missed come with it when few (those already here
   * are skipped); otherwise, or if the page is still behind, it resyncs.
   */
  private async caughtUp(e: WireError): Promise<void> {
    if (Array.isArray(e.patches)) for (const p of e.patches as PatchMessage[]) this.onPatch(p);
    if (typeof e.version !== 'number' || this.version === null || this.version < e.version)
      await this.resync();
  }

  /** The server's price of an economic plan, or null when it cannot give one (never computed here). */
  async planCost(plan: EconomicPlan): Promise<PlanQuote> {
    const r = await this.link.planCost(this.worldId, plan);
    return r.ok ? { cost: r.cost, problem: null } : { cost: null, problem: errorWords(r.error) };
  }

  async say(to: string | null, body: string): Promise<boolean> {
    const r = await this.link.chat(this.worldId, to, body);
    if (!r.ok) {
      this.error = errorWords(r.error);
      return false;
    }
    this.onChat(r.message);
    return true;
  }

  private key(): string {
    return `bke-world-${this.worldId}`;
  }

  private forget(): void {
    try {
      this.storage?.removeItem?.(this.key());
    } catch {
      // Nothing kept, nothing to forget.
    }
  }

  private restore(): void {
    try {
      const raw = this.storage?.getItem(this.key());
      if (!raw) return;
      const saved = JSON.parse(raw) as Saved;
      this.view = saved.view;
      this.version = saved.version;
      this.log = liveLog(saved.log);
    } catch {
      // A damaged copy is simply ignored: the server sends a full view.
    }
  }

  private save(): void {
    if (!this.storage || !this.view || this.version === null) return;
    try {
      const saved: Saved = { version: this.version, view: this.view, log: this.log.slice(-500) };
      this.storage.setItem(this.key(), JSON.stringify(saved));
    } catch {
      // Storage full or disabled: resync simply starts from a full view next time.
    }
  }
}

/** Whether chat line `a` was written before `b`: their ids are growing decimal numbers. */
const writtenBefore = (a: string, b: string) => (a.length === b.length ? a < b : a.length < b.length);
