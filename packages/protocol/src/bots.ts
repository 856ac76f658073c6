/**
 * Bot accounts and the seat endpoints a program plays through (docs/bot-interface.md). A person
 * makes a bot account from their account page and issues it tokens; each token is shown once and
 * sent as `Authorization: Bearer <token>` on HTTP requests and on the Socket.IO handshake. A program
 * holding one is that bot account and nothing more: it sees and orders only the seats it holds.
 */
import { orderSchema } from '@bke/engine/schemas';
import { z } from 'zod';
import { usernameSchema } from './auth.ts';
import { gameViewSchema } from './engine-shapes.ts';
import { legalOrdersSchema, worldStatusMessageSchema } from './socket.ts';
import { lineText } from './text.ts';

/** Every bot token starts with this, so a leaked one is easy to recognise and search for. */
export const BOT_TOKEN_PREFIX = 'bke_bot_';
/** The most bot accounts one person may hold, and the most live tokens one bot account may hold. */
export const MAX_BOTS_PER_OWNER = 5;
export const MAX_TOKENS_PER_BOT = 5;

const tokenLabelSchema = lineText().trim().min(1).max(40);

/** A new bot account: its name (the rules of any account name) and a label for its first token. */
export const createBotSchema = z.object({ username: usernameSchema, label: tokenLabelSchema }).strict();
/** Another token for a bot account. */
export const createBotTokenSchema = z.object({ label: tokenLabelSchema }).strict();

/** A token as its owner sees it later: never the secret, only what tells it apart. */
const botTokenSchema = z.object({
  /** The token's id (the SHA-256 of its secret, as stored): what revoking names. */
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
});

const botAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  createdAt: z.string(),
  /** Set while a moderator has suspended the bot account. */
  bannedUntil: z.string().nullable(),
  tokens: z.array(botTokenSchema),
});
export type BotAccount = z.infer<typeof botAccountSchema>;

export const botListResponseSchema = z.object({ bots: z.array(botAccountSchema) });
export type BotListResponse = z.infer<typeof botListResponseSchema>;

/** A token just issued: `token` is the secret, in this answer only. */
export const issuedTokenResponseSchema = z.object({
  bot: botAccountSchema,
  token: z.string().startsWith(BOT_TOKEN_PREFIX),
});
export type IssuedTokenResponse = z.infer<typeof issuedTokenResponseSchema>;

/** A world where the signed-in account (a bot's or a person's) holds a seat. */
const seatedWorldSchema = z.object({
  worldId: z.string(),
  name: z.string(),
  status: z.string(),
  playerId: z.string(),
  version: z.number().int(),
  /** Whether the world now waits for this seat's order. */
  yourMove: z.boolean(),
});
export const seatedWorldsResponseSchema = z.object({ worlds: z.array(seatedWorldSchema) });
export type SeatedWorldsResponse = z.infer<typeof seatedWorldsResponseSchema>;

/**
 * One seat's view of a world now, exactly as the engine lets that seat see it (the same view,
 * legal orders and status a browser gets on subscribing).
 */
export const seatViewResponseSchema = z.object({
  worldId: z.string(),
  playerId: z.string(),
  version: z.number().int(),
  view: gameViewSchema,
  legal: legalOrdersSchema,
  status: worldStatusMessageSchema,
});
export type SeatViewResponse = z.infer<typeof seatViewResponseSchema>;

/** A seat's order over HTTP: the same order and version check as the socket's `world/order`. */
export const seatOrderSchema = z
  .object({
    version: z.number().int().min(0),
    order: orderSchema,
  })
  .strict();
export const seatOrderResponseSchema = z.object({
  ok: z.literal(true),
  version: z.number().int(),
  deferred: z.boolean(),
});
export type SeatOrderResponse = z.infer<typeof seatOrderResponseSchema>;
