/**
 * The MAC every link sent by mail carries: a token is a random part, a dot, and
 * HMAC-SHA256(site link key, kind + random part), both base64url. A token this server never signed
 * is refused by this check alone, in microseconds and without the database: a flood of made-up
 * links then costs no limiter write and no read of account_tokens (on the embedded database those
 * run on the server's only thread and slowed every log-in). The MAC only filters: a link works
 * when its stored row (tokens.ts) says so; one with a valid MAC but no row is refused there.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type TokenKind = 'verify_email' | 'reset_password';

/** The MAC of a random part for a kind, base64url. The kind is in it: a reset link verifies no address. */
function macOf(key: Buffer, kind: TokenKind, random: string): string {
  return createHmac('sha256', key).update(`${kind}\n${random}`).digest('base64url');
}

/** A new token of `kind`: 32 random bytes and their MAC. */
export function newSignedToken(key: Buffer, kind: TokenKind): string {
  const random = randomBytes(32).toString('base64url');
  return `${random}.${macOf(key, kind, random)}`;
}

/** Whether `token` is a random part and the MAC this key gives it for `kind`. */
export function signatureHolds(key: Buffer, kind: TokenKind, token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return false;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(macOf(key, kind, token.slice(0, dot)));
  // Compared as text: a second spelling of the same bytes (base64url's spare bits) is not the MAC.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
