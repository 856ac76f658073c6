/**
 * The wire between one open world page and the server (packages/protocol's socket events). The
 * socket implementation is socket-link.ts; tests pass a fake.
 */
import type {
  Ack,
  ChatMessage,
  EconomicPlan,
  Order,
  OrderResult,
  PatchMessage,
  PlanCost,
  SubscribeResult,
  ViewMessage,
  WorldEvent,
  WorldStatusMessage,
} from '@bke/protocol';

export type { ChatMessage, PatchMessage, PlanCost, SubscribeResult, ViewMessage, WorldStatusMessage };

/** An event with the turn it happened in, as the log shows it. */
export interface LoggedEvent {
  readonly seq: number;
  readonly turn: number;
  readonly event: WorldEvent;
}

export interface WorldHandlers {
  view(v: ViewMessage): void;
  patch(p: PatchMessage): void;
  status(s: WorldStatusMessage): void;
  chat(m: ChatMessage): void;
  /** A moderator deleted a chat message of this world. */
  chatDeleted(d: { worldId: string; id: string }): void;
}

/** The server's acknowledgement, or `net/timeout` when it stays silent. */
export type Answer<T> = Ack<T> | { ok: false; error: { code: 'net/timeout' } };

export interface WorldLink {
  /** Start (or resume from `version`) following a world. */
  subscribe(worldId: string, version: number | null): Promise<Answer<SubscribeResult>>;
  unsubscribe(worldId: string): void;
  order(worldId: string, version: number, order: Order): Promise<Answer<OrderResult>>;
  chat(worldId: string, to: string | null, body: string): Promise<Answer<{ message: ChatMessage }>>;
  /** What an economic plan would cost (null: the server cannot price it). */
  planCost(worldId: string, plan: EconomicPlan): Promise<Answer<{ cost: PlanCost | null }>>;
  listen(h: WorldHandlers): () => void;
  /** Called whenever the connection comes back, so the page can resync. */
  onReconnect(cb: () => void): () => void;
}
