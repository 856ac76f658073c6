/**
 * One open world: the current view, the legal orders, the event log and chat, kept in sync with
 * the server by versioned patches. A gap in versions or a stale order asks for a fresh view; the
 * client never guesses the next state (no optimistic updates, peers.md complaint 4).
 */
import { applyPatch } from '../patch.ts';
import type { GameView, LegalOrder, Order } from '../wire.ts';
import { errorWords } from '../words.ts';
import type { ChatMessage, FullView, LoggedEvent, Patch, WorldLink, WorldMeta } from './link.ts';

export class WorldStore {
  view = $state<GameView | null>(null);
  legal = $state<readonly LegalOrder[]>([]);
  meta = $state<WorldMeta | null>(null);
  log = $state<LoggedEvent[]>([]);
  chat = $state<ChatMessage[]>([]);
  /** Messages not yet seen, per channel ('all' or a player id). */
  unread = $state<Record<string, number>>({});
  /** The last error, in words, until the next successful order. */
  error = $state<string | null>(null);
  sending = $state(false);
  loading = $state(true);
  version = $state<number | null>(null);
  private readonly unsubs: (() => void)[] = [];
  /** The chat channel on screen; its messages are read as they come. */
  openChannel: string | null = null;

  constructor(
    readonly worldId: string,
    private readonly link: WorldLink,
    private readonly me: () => string | null,
  ) {}

  async start(): Promise<void> {
    this.unsubs.push(
      this.link.subscribe({
        view: (v) => this.onView(v),
        patch: (p) => this.onPatch(p),
        chat: (m) => this.onChat(m),
        chatHistory: (ms) => {
          if (ms.length && ms[0]?.worldId !== this.worldId) return;
          this.chat = [...ms];
        },
      }),
      this.link.onReconnect(() => void this.resync()),
    );
    await this.resync();
  }

  stop(): void {
    for (const u of this.unsubs.splice(0)) u();
    this.link.unwatch(this.worldId);
  }

  /** Ask for everything since our version (the server sends patches or a full view). */
  async resync(): Promise<void> {
    const r = await this.link.watch(this.worldId, this.version);
    if (!r.ok) this.error = errorWords(r.error.code, r.error.message);
  }

  onView(v: FullView): void {
    if (v.worldId !== this.worldId) return;
    this.view = v.view;
    this.version = v.version;
    this.legal = v.legal;
    this.meta = v.meta;
    if (v.events) this.log = [...v.events];
    this.loading = false;
  }

  onPatch(p: Patch): void {
    if (p.worldId !== this.worldId || !this.view || this.version === null) return;
    if (p.to <= this.version) return;
    if (p.from !== this.version) {
      void this.resync();
      return;
    }
    this.view = applyPatch(this.view, p.ops);
    this.version = p.to;
    if (p.legal) this.legal = p.legal;
    if (p.meta) this.meta = p.meta;
    if (p.events.length) this.log = [...this.log, ...p.events].slice(-2000);
  }

  onChat(m: ChatMessage): void {
    if (m.worldId !== this.worldId) return;
    this.chat = [...this.chat, m];
    const mine = m.from.id === this.me();
    const channel = m.to === null ? 'all' : mine ? m.to : m.from.id;
    if (!mine && channel !== this.openChannel) {
      this.unread = { ...this.unread, [channel]: (this.unread[channel] ?? 0) + 1 };
    }
  }

  markRead(channel: string): void {
    this.openChannel = channel;
    if (this.unread[channel]) this.unread = { ...this.unread, [channel]: 0 };
  }

  async send(order: Order): Promise<boolean> {
    if (this.version === null) return false;
    this.sending = true;
    try {
      const r = await this.link.order(this.worldId, this.version, order);
      if (r.ok) {
        this.error = null;
        return true;
      }
      this.error = errorWords(r.error.code, r.error.message);
      if (r.error.code === 'sync/stale') await this.resync();
      return false;
    } finally {
      this.sending = false;
    }
  }

  async say(to: string | null, text: string): Promise<boolean> {
    const r = await this.link.chat(this.worldId, to, text);
    if (!r.ok) this.error = errorWords(r.error.code, r.error.message);
    return r.ok;
  }
}
