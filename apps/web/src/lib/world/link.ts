/**
 * The wire between one open world page and the server. The socket implementation lives in
 * socket-link.ts; tests pass a fake. Message names and shapes follow packages/protocol.
 */
import type { PatchOp } from '../patch.ts';
import type { GameEvent, GameView, LegalOrder, Order } from '../wire.ts';

export interface WorldMeta {
  readonly id: string;
  readonly name: string;
  /** When the current phase resolves (ISO time), or null without a deadline. */
  readonly deadline: string | null;
  /** Players (ids) who declared themselves ready for this phase. */
  readonly ready?: readonly string[];
}

export interface FullView {
  readonly worldId: string;
  readonly version: number;
  readonly view: GameView;
  readonly legal: readonly LegalOrder[];
  readonly meta: WorldMeta;
  /** Recent events, oldest first, each tagged with the turn it happened in. */
  readonly events?: readonly LoggedEvent[];
}

export interface LoggedEvent {
  readonly seq: number;
  readonly turn: number;
  readonly event: GameEvent;
}

export interface Patch {
  readonly worldId: string;
  readonly from: number;
  readonly to: number;
  readonly ops: readonly PatchOp[];
  readonly events: readonly LoggedEvent[];
  readonly legal?: readonly LegalOrder[];
  readonly meta?: WorldMeta;
}

export interface ChatMessage {
  readonly id: string;
  readonly worldId: string;
  readonly from: { readonly id: string; readonly name: string };
  /** null for the world-wide channel, else the player it was sent to. */
  readonly to: string | null;
  readonly text: string;
  readonly at: string;
}

export type Ack = { ok: true } | { ok: false; error: { code: string; message?: string } };

export interface WorldHandlers {
  view(v: FullView): void;
  patch(p: Patch): void;
  chat(m: ChatMessage): void;
  chatHistory(ms: readonly ChatMessage[]): void;
}

export interface WorldLink {
  /** Start (or resume from `version`) following a world. */
  watch(worldId: string, version: number | null): Promise<Ack>;
  unwatch(worldId: string): void;
  order(worldId: string, version: number, order: Order): Promise<Ack>;
  chat(worldId: string, to: string | null, text: string): Promise<Ack>;
  subscribe(h: WorldHandlers): () => void;
  /** Called whenever the connection comes back, so the page can resync. */
  onReconnect(cb: () => void): () => void;
}
