/**
 * The credential a program sends instead of a cookie: `Authorization: Bearer <token>` (RFC 6750),
 * on an HTTP request or on the Socket.IO handshake. Its token is looked up exactly as a session
 * cookie's is (sessions.ts); bot tokens are sessions of bot accounts (bot-accounts.ts).
 */
const BEARER = /^Bearer ([A-Za-z0-9_-]{1,100})$/;

/** The token of an Authorization header, or undefined when there is none or it is not a bearer token. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header.trim())?.[1];
}
