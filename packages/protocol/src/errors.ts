/**
 * Error codes the server sends, one vocabulary for HTTP and sockets. The client turns codes into
 * words; parameters travel beside the code (`{ code: 'http/too_large', limit: 1048576 }`).
 * Rule errors from the engine (`order/…`, `combat/…`, `system/…`) pass through unchanged.
 */
import { z } from 'zod';

export const HTTP_ERROR_CODES = [
  'http/not_found',
  'http/method_not_allowed',
  'http/bad_json',
  'http/unsupported_media_type',
  'http/too_large',
  'http/invalid',
  'http/rate_limited',
  'http/internal',
  'http/cross_site',
] as const;
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

export const AUTH_ERROR_CODES = [
  'auth/required',
  'auth/forbidden',
  'auth/bad_credentials',
  'auth/username_taken',
  'auth/banned',
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

export const WORLD_ERROR_CODES = [
  'world/not_found',
  'world/full',
  'world/closed',
  'world/paused',
  'world/already_seated',
  'world/not_seated',
  'world/colour_taken',
  'world/not_subscribed',
  'world/busy',
] as const;
export type WorldErrorCode = (typeof WORLD_ERROR_CODES)[number];

export const SOCKET_ERROR_CODES = [
  'socket/invalid',
  'socket/rate_limited',
  'socket/internal',
  'sync/stale',
  'chat/unknown_recipient',
  'chat/muted',
] as const;
export type SocketErrorCode = (typeof SOCKET_ERROR_CODES)[number];

/** The player's notification settings (account.ts). */
export const NOTIFY_ERROR_CODES = ['notify/no_webhook'] as const;
export type NotifyErrorCode = (typeof NOTIFY_ERROR_CODES)[number];

export const SERVER_ERROR_CODES = [
  ...HTTP_ERROR_CODES,
  ...AUTH_ERROR_CODES,
  ...WORLD_ERROR_CODES,
  ...SOCKET_ERROR_CODES,
  ...NOTIFY_ERROR_CODES,
] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** An error: a code (the server's own or an engine rule code) and parameters beside it. */
export const errorSchema = z
  .object({
    code: z.string(),
    message: z.string().optional(),
  })
  .catchall(z.unknown());
export type WireError = z.infer<typeof errorSchema>;

export const errorBodySchema = z.object({
  error: errorSchema.extend({ message: z.string() }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
