/**
 * Every error code a client can receive, one closed vocabulary for HTTP and sockets: the server's
 * own codes below and the engine's rule codes (`order/…`, `combat/…`, `setup/…`, `system/…`), which
 * pass through unchanged. The client gives each code its words (apps/web/src/lib/words.ts, with a
 * test over this list); parameters travel beside the code (`{ code: 'http/too_large', limit: 1048576 }`).
 */
import { ERROR_CODES as ENGINE_ERROR_CODES } from '@bke/engine/types';
import { z } from 'zod';

const HTTP_ERROR_CODES = [
  'http/not_found',
  'http/method_not_allowed',
  'http/bad_json',
  'http/unsupported_media_type',
  'http/too_large',
  'http/invalid',
  /** A rate limit of the route was reached: try again in `retryAfterSeconds` (also `Retry-After`). */
  'http/rate_limited',
  'http/internal',
  'http/cross_site',
  /** The URL could not be read (a malformed %-escape). */
  'http/bad_url',
  /** The request could not be read as HTTP. */
  'http/bad_request',
  /** The request line or headers are longer than the server reads. */
  'http/headers_too_large',
  /** The request did not arrive in time. */
  'http/timeout',
] as const;
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

const AUTH_ERROR_CODES = [
  'auth/required',
  'auth/forbidden',
  'auth/bad_credentials',
  'auth/username_taken',
  'auth/banned',
  /** Too many failed log-ins for this account lately: wait `retryAfterSeconds` before the next try. */
  'auth/slow_down',
  /**
   * Every thread that checks passwords is busy and its queue is full: try again after
   * `retryAfterSeconds`. Nothing was checked or changed.
   */
  'auth/busy',
  /** The session could not be checked just now (the database did not answer); the server tries again. */
  'auth/unavailable',
  /**
   * The sender's session or seat ended while its order was on the way; the socket layer usually
   * answers with the sender's new rights instead.
   */
  'auth/revoked',
] as const;

const WORLD_ERROR_CODES = [
  'world/not_found',
  'world/full',
  'world/closed',
  'world/paused',
  'world/already_seated',
  'world/not_seated',
  'world/colour_taken',
  'world/not_subscribed',
  'world/busy',
  /**
   * Every thread that replays past turns is busy and its queue is full: try again after
   * `retryAfterSeconds` (also `Retry-After`). Nothing was read.
   */
  'world/replay_busy',
  /**
   * `limit` worlds were created in the last day by this account (`per: 'account'`), or from this
   * client address whatever the accounts (`per: 'address'`, with `retryAfterSeconds`, also `Retry-After`).
   */
  'world/create_limit',
  /** This account joined this world `limit` times in the last day. */
  'world/join_limit',
  /** The seat `playerId` is not a bot's (only bots are removed this way). */
  'world/not_a_bot',
  /** Only the world's creator or a moderator seats or removes bots. */
  'world/not_creator',
  /** A moderator removed this account from the world; it may join again once a moderator allows it. */
  'world/removed',
  /** The invitation link is unknown, or was revoked or replaced. */
  'world/invite_invalid',
  /** The world's remaining seats are held for the accounts invited into it. */
  'world/seats_reserved',
  /** The world takes no spectators: only its players may watch it. */
  'world/no_spectators',
  /** No account of that name (an invitation by name). */
  'world/no_such_player',
  /** Only a world that has ended (closed) can be played again. */
  'world/not_ended',
  /** Only someone who held a seat in the world may play it again. */
  'world/not_a_player',
] as const;

const SOCKET_ERROR_CODES = [
  'socket/invalid',
  /** Too many events from this account (or address) at once: the next in `retryAfterSeconds`. */
  'socket/rate_limited',
  'socket/internal',
  'sync/stale',
  'chat/unknown_recipient',
  'chat/muted',
  /** More than `limit` chat lines from this account in a minute: the next in `retryAfterSeconds`. */
  'chat/too_fast',
  /** Too many open connections for this account or this address (`per`), `limit` at most. */
  'socket/too_many',
  /** An event the server does not know. */
  'socket/unknown_event',
] as const;

/** The player's notification settings (account.ts). */
const NOTIFY_ERROR_CODES = ['notify/no_webhook'] as const;

/** Links sent by e-mail and the account's address (mail.ts). */
const ACCOUNT_ERROR_CODES = [
  /** The link is not one this server sent (mistyped or cut short). */
  'account/link_invalid',
  /** The link is older than it may be (`hours`): ask for a new one. */
  'account/link_expired',
  /** The link was used already; each works once. */
  'account/link_used',
  /** Another account verified this address first. */
  'account/email_taken',
] as const;

/** A profile its owner hides (profile.ts). */
const PROFILE_ERROR_CODES = ['profile/hidden'] as const;

/** Bot accounts and their tokens (bots.ts). */
const BOT_ERROR_CODES = [
  /** No bot account (or token of it) by that id belongs to the signed-in person. */
  'bot/not_found',
  /** The person holds `limit` bot accounts already, or the bot `limit` live tokens. */
  'bot/too_many',
  /** A bot account cannot make or manage bot accounts; only a person can. */
  'bot/not_allowed',
] as const;

/** Chat blocks (blocks.ts). */
const BLOCK_ERROR_CODES = [
  /** No account by that name. */
  'block/not_found',
  /** An account cannot block itself. */
  'block/self',
  /** The account blocks `limit` accounts already. */
  'block/too_many',
] as const;

/** Text holding control characters (text.ts), with the field's `path`. */
const TEXT_ERROR_CODES = ['text/control_characters'] as const;

/** Moderation routes (moderation.ts); a muted player's chat line is refused as `chat/muted`. */
const MODERATION_ERROR_CODES = [
  'moderation/not_found',
  'moderation/not_paused',
  'moderation/already_paused',
  'moderation/closed',
  'moderation/no_deadline',
  'moderation/no_such_turn',
  'moderation/seat_taken',
  'moderation/outranked',
  'moderation/report_closed',
  /** Taking the admin role from the last admin who can log in (a demotion or a ban). */
  'moderation/last_admin',
  /** Allowing back an account no moderator removed from the world. */
  'moderation/not_removed',
  /** Reporting the moderators' own notice in chat. */
  'moderation/not_reportable',
  /** A world cannot start from this position: `position` is the link's refusal (its own code and message). */
  'moderation/position_refused',
  /** The seats do not fit the position's players: those `missing` a seat, seats for `unknown` players, accounts named `twice`. */
  'moderation/position_seats',
] as const;

export const SERVER_ERROR_CODES = [
  ...HTTP_ERROR_CODES,
  ...AUTH_ERROR_CODES,
  ...WORLD_ERROR_CODES,
  ...SOCKET_ERROR_CODES,
  ...NOTIFY_ERROR_CODES,
  ...BOT_ERROR_CODES,
  ...ACCOUNT_ERROR_CODES,
  ...PROFILE_ERROR_CODES,
  ...BLOCK_ERROR_CODES,
  ...TEXT_ERROR_CODES,
  ...MODERATION_ERROR_CODES,
] as const;

/** Every code a client can receive: the server's and the engine's. A code not in it does not compile. */
export const ERROR_CODES = [...SERVER_ERROR_CODES, ...ENGINE_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error: a code from the closed list and its parameters beside it. */
export const errorSchema = z
  .object({
    code: z.enum(ERROR_CODES),
    message: z.string().optional(),
  })
  .catchall(z.unknown());
export type WireError = z.infer<typeof errorSchema>;

export const errorBodySchema = z.object({
  error: errorSchema.extend({ message: z.string() }),
});
