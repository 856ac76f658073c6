/**
 * Socket.IO events. Every inbound payload is parsed with these schemas on the server; every
 * client → server event takes an acknowledgement callback answered with `Ack<T>`.
 */
import { orderSchema } from '@bke/engine/schemas';
import { z } from 'zod';
import {
  economicPlanOutlineSchema,
  gameViewSchema,
  legalOrderSchema,
  worldEventSchema,
} from './engine-shapes.ts';
import { errorSchema, type WireError } from './errors.ts';
import { type ChatDeleted, chatDeletedSchema, type ModerationNotice } from './moderation.ts';
import { patchOpSchema } from './patch.ts';
import { freeText, lineText } from './text.ts';

export const helloSchema = z.object({
  serverVersion: z.string(),
  serverTime: z.string(),
  /** The signed-in account, or null for an anonymous spectator. */
  user: z.object({ id: z.string(), username: z.string(), role: z.string() }).nullable().optional(),
  /**
   * 'unavailable': the session could not be checked just now (the database did not answer). The
   * server tries again and greets once more, with the account, when it can.
   */
  auth: z.literal('unavailable').optional(),
});
export type Hello = z.infer<typeof helloSchema>;

/** Largest inbound socket message the server accepts (bytes); larger ones are refused. */
export const MAX_SOCKET_MESSAGE_BYTES = 16 * 1024;
/**
 * A reconnecting client further behind than this gets a full view instead of patches (a player
 * may get one sooner: the server keeps the per-viewer patches of the latest orders only).
 */
export const MAX_PATCH_GAP = 200;

const worldId = z.uuid();

// ---- client → server ----

export const subscribeSchema = z
  .object({
    worldId,
    /** The last version the client holds; omitted for a first view. */
    version: z.number().int().min(0).optional(),
  })
  .strict();
export const unsubscribeSchema = z.object({ worldId }).strict();
export const orderMessageSchema = z
  .object({
    worldId,
    /** The version the order was made against; a different current version gets `sync/stale`. */
    version: z.number().int().min(0),
    /** An engine order (its schema is the engine's); a malformed one is refused as `order/invalid`. */
    order: orderSchema,
  })
  .strict();
export const chatSendSchema = z
  .object({
    worldId,
    /** A player id (p1, p2, …) for a private message; omitted or null for the whole world. */
    to: lineText().max(20).nullable().optional(),
    body: freeText().trim().min(1).max(2000),
  })
  .strict();

export const planCostRequestSchema = z
  .object({
    worldId,
    /** A kingdom's or empire's economic plan (the `plan` of a `realmPlan` order); the engine checks it. */
    plan: economicPlanOutlineSchema,
  })
  .strict();

// ---- server → client ----

/**
 * What an economic plan costs, from the engine (4.5, 10.6.1): money available this turn, upkeep,
 * purchases, administration spending and the % column it buys, and the treasury left.
 */
const planCostSchema = z.object({
  /** Column 2: tax income (unmodified). */
  tax: z.number().int(),
  /** Column 3: Good Ruler or Corruption, plunder, tribute and other income. */
  other: z.number().int(),
  available: z.number().int(),
  upkeep: z.number().int(),
  purchases: z.number().int(),
  administration: z.number().int(),
  adminPercent: z.number().int(),
  /**
   * The column the roll is read on, when the engine reports it and it differs from `adminPercent`
   * (Viking and Hun realms read one column to the left, AMBIG-26; an administrator leader shifts it).
   */
  effectivePercent: z.number().int().optional(),
  /** Treasury left after the plan; negative when the plan is not affordable. */
  treasury: z.number().int(),
  /** Why the engine would refuse this plan (an `order/invalid` reason such as `cannotAfford`), or null. */
  problem: z.string().nullable(),
});
export type PlanCost = z.infer<typeof planCostSchema>;
/** `cost` is null when there is nothing to price (not this player's economic phase, or no engine support). */
const planCostResultSchema = z.object({ cost: planCostSchema.nullable() });
export type PlanCostResult = z.infer<typeof planCostResultSchema>;

const chatMessageSchema = z.object({
  id: z.string(),
  worldId: z.string(),
  from: z.object({ userId: z.string(), username: z.string(), playerId: z.string().nullable() }),
  to: z.string().nullable(),
  body: z.string(),
  at: z.string(),
  /** A moderators' notice (the world paused, a player removed…): not a player's line, not reportable. */
  system: z.boolean().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A player's legal orders (the engine's), empty when it has nothing to decide. */
export const legalOrdersSchema = z.array(legalOrderSchema);

/**
 * Where a world stands: its step, deadline and the players it waits for. Sent on its own when only
 * that moved (a ready flag, a pause, a deadline set anew); carried by the patch or view message of
 * an order that moved it.
 */
export const worldStatusMessageSchema = z.object({
  worldId: z.string(),
  version: z.number().int(),
  status: z.string(),
  stepKey: z.string(),
  deadlineAt: z.string().nullable(),
  waitingFor: z.array(z.string()),
  /** Players who declared ready for this step (early resolution off). */
  ready: z.array(z.string()),
  /** Why a moderator paused the world, while it is paused. */
  pauseReason: z.string().nullable(),
});
export type WorldStatusMessage = z.infer<typeof worldStatusMessageSchema>;

/**
 * One order's change to THIS viewer's view (a seat's, or the spectators'): what the engine lets the
 * viewer see, never another player's private part.
 */
const patchMessageSchema = z.object({
  worldId: z.string(),
  from: z.number().int(),
  to: z.number().int(),
  ops: z.array(patchOpSchema),
  /** The facts of what happened that this viewer may see (engine events), for the log and animations. */
  events: z.array(worldEventSchema),
  /**
   * A player's legal orders at version `to`, when they changed since the last it was sent (absent:
   * unchanged). Never sent to spectators.
   */
  legal: legalOrdersSchema.optional(),
  /**
   * The world's status at version `to`, when the order moved it (another step, deadline or player
   * waited for); absent: the status held still stands.
   */
  status: worldStatusMessageSchema.optional(),
});
export type PatchMessage = z.infer<typeof patchMessageSchema>;

/** A full view in place of patches, for a viewer further behind than the server's memory of patches. */
const viewMessageSchema = z.object({
  worldId: z.string(),
  version: z.number().int(),
  /** The engine's GameView for this viewer (the spectators' view for spectators). */
  view: gameViewSchema,
  /** A player's legal orders at `version`. */
  legal: legalOrdersSchema.optional(),
  /** The world's status, when the orders the view stands in for moved it. */
  status: worldStatusMessageSchema.optional(),
});
export type ViewMessage = z.infer<typeof viewMessageSchema>;

/** How many of the world's latest events a `world/subscribe` ack carries (`recent`). */
export const RECENT_EVENTS = 300;

/** A logged event: the order (`seq`) whose commit produced it, its place in that order's events, its turn. */
export const recentEventSchema = z.object({
  seq: z.number().int(),
  index: z.number().int(),
  turn: z.number().int(),
  event: worldEventSchema,
});
export type RecentEvent = z.infer<typeof recentEventSchema>;

const subscribeResultSchema = z.object({
  role: z.enum(['player', 'spectator']),
  playerId: z.string().nullable(),
  sync: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('patches'), patches: z.array(patchMessageSchema) }),
    z.object({ kind: z.literal('view'), version: z.number().int(), view: gameViewSchema }),
  ]),
  status: worldStatusMessageSchema,
  legal: legalOrdersSchema,
  chat: z.array(chatMessageSchema),
  /**
   * The world's latest events this viewer may see (at most RECENT_EVENTS, oldest first, up to the
   * synced version; `index` is the place among the order's events as this viewer's patch carries
   * them), so a new spectator or a cleared browser sees the event log and the last turn's summary.
   */
  recent: z.array(recentEventSchema),
});
export type SubscribeResult = z.infer<typeof subscribeResultSchema>;

const orderResultSchema = z.object({
  /** The world's version after the order (and any it triggered) was committed. */
  version: z.number().int(),
  /** true when early resolution is off and an endPhase was recorded as "ready" until the deadline. */
  deferred: z.boolean(),
});
export type OrderResult = z.infer<typeof orderResultSchema>;

const chatSendResultSchema = z.object({ message: chatMessageSchema });

/**
 * Whether the server's process reaches its database: sent when that changes, and on connecting
 * while it does not. While `up` is false nothing new is stored (orders, chat, sign-ins are refused
 * or retried); the view on screen stays as it was.
 */
const databaseNoticeSchema = z.object({ up: z.boolean() });
type DatabaseNotice = z.infer<typeof databaseNoticeSchema>;

/** Every acknowledgement: `{ ok: true, ... }` or `{ ok: false, error: { code, ... } }`. */
export type Ack<T> = ({ ok: true } & T) | { ok: false; error: WireError };

export interface ServerToClientEvents {
  hello: (hello: Hello) => void;
  'world/view': (msg: ViewMessage) => void;
  'world/patch': (msg: PatchMessage) => void;
  'world/status': (msg: WorldStatusMessage) => void;
  'chat/message': (msg: ChatMessage) => void;
  /** A moderator deleted one of the world's chat messages: drop it from the screen. */
  'chat/deleted': (msg: ChatDeleted) => void;
  /**
   * A moderator acted on the world being watched, or on this account: say what and why. A notice
   * about this account comes with `received`: call it once the words are kept, since a ban or a
   * removal ends the socket only after every page answered (or a short wait ran out).
   */
  'moderation/notice': (msg: ModerationNotice, received?: () => void) => void;
  /** The server lost or regained its database (databaseNoticeSchema). */
  'server/database': (msg: DatabaseNotice) => void;
  /** A message the server could not answer through an acknowledgement (none was given). */
  error: (error: WireError) => void;
}

export interface ClientToServerEvents {
  'world/subscribe': (msg: z.input<typeof subscribeSchema>, ack: (r: Ack<SubscribeResult>) => void) => void;
  'world/unsubscribe': (msg: z.input<typeof unsubscribeSchema>, ack: (r: Ack<object>) => void) => void;
  'world/order': (msg: z.input<typeof orderMessageSchema>, ack: (r: Ack<OrderResult>) => void) => void;
  'world/planCost': (
    msg: z.input<typeof planCostRequestSchema>,
    ack: (r: Ack<PlanCostResult>) => void,
  ) => void;
  'chat/send': (
    msg: z.input<typeof chatSendSchema>,
    ack: (r: Ack<z.infer<typeof chatSendResultSchema>>) => void,
  ) => void;
}

/** The table docs/protocol.md is generated from and checked against: each event's schemas. */
export const SOCKET_EVENTS = {
  clientToServer: {
    'world/subscribe': { payload: subscribeSchema, result: subscribeResultSchema },
    'world/unsubscribe': { payload: unsubscribeSchema, result: z.object({}) },
    'world/order': { payload: orderMessageSchema, result: orderResultSchema },
    'world/planCost': { payload: planCostRequestSchema, result: planCostResultSchema },
    'chat/send': { payload: chatSendSchema, result: chatSendResultSchema },
  },
  serverToClient: {
    hello: helloSchema,
    'world/view': viewMessageSchema,
    'world/patch': patchMessageSchema,
    'world/status': worldStatusMessageSchema,
    'chat/message': chatMessageSchema,
    'chat/deleted': chatDeletedSchema,
    'server/database': databaseNoticeSchema,
    error: errorSchema,
  },
} as const;
