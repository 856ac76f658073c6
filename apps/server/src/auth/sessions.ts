/**
 * Sessions in PostgreSQL: the cookie holds a random token, the table only its SHA-256 (the
 * session's id), so a leaked database does not leak live sessions. A session in use is kept alive:
 * its last-seen time and its expiry move on at most every few minutes (one write, not one per
 * request). Expired sessions are deleted by the app's purge (app.ts), which also ends their sockets.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@bke/protocol';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Database } from '../db/database.ts';

/** A session not used for this long ends. */
const SESSION_DAYS = 30;
/** How stale a session's last-seen time may get before a request writes it again. */
const TOUCH_EVERY_MS = 5 * 60_000;

export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function createSession(db: Database, userId: string, userAgent?: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.session.create({
    data: {
      id: sessionIdOf(token),
      userId,
      expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
      userAgent: userAgent?.slice(0, 300) ?? null,
    },
  });
  return token;
}

export interface SessionUser extends User {
  bannedUntil: Date | null;
  /** A bot account, signed in through one of its tokens (auth/bot-accounts.ts). */
  isBot: boolean;
  /** The session's id (its token's hash): sockets opened with it share a room named after it. */
  sessionId: string;
}

/**
 * The user behind a session token, or null when unknown or expired. Throws when the database does
 * not answer: that is not the same as "no session" (a socket is told and tries again).
 */
export async function userForToken(db: Database, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const id = sessionIdOf(token);
  const now = Date.now();
  // One statement, one round trip (a reconnect storm makes one per socket): the session with its
  // account, and the keep-alive write folded in when the last-seen time is stale (a bot token's
  // expiry stays: it does not end by disuse).
  const [row] = await db.sql<{
    user_id: string;
    username: string;
    role: SessionUser['role'];
    banned_until: Date | null;
    is_bot: boolean;
  }>(
    `WITH s AS (
       SELECT token_hash, user_id, last_seen_at FROM sessions WHERE token_hash = $1 AND expires_at >= $2
     ), touched AS (
       UPDATE sessions SET last_seen_at = $2, expires_at = CASE WHEN sessions.bot THEN sessions.expires_at ELSE $3 END
         FROM s WHERE sessions.token_hash = s.token_hash AND s.last_seen_at < $4
     )
     SELECT u.id AS user_id, u.username, u.role, u.banned_until, u.bot_owner_id IS NOT NULL AS is_bot FROM s JOIN users u ON u.id = s.user_id`,
    [id, new Date(now), new Date(now + SESSION_DAYS * 86_400_000), new Date(now - TOUCH_EVERY_MS)],
    'bke_session_user',
  );
  if (!row) return null;
  return {
    id: row.user_id,
    username: row.username,
    role: row.role,
    bannedUntil: row.banned_until,
    isBot: row.is_bot,
    sessionId: id,
  };
}

/** A session that was deleted: its sockets are ended by the caller. */
export interface EndedSession {
  sessionId: string;
  userId: string;
}

const ended = (rows: { token_hash: string; user_id: string }[]): EndedSession[] =>
  rows.map((r) => ({ sessionId: r.token_hash, userId: r.user_id }));

/** Deletes the session behind `token`, if there is one. */
export async function deleteSession(db: Database, token: string | undefined): Promise<EndedSession[]> {
  if (!token || token.length > 100) return [];
  return ended(
    await db.sql('DELETE FROM sessions WHERE token_hash = $1 RETURNING token_hash, user_id', [
      sessionIdOf(token),
    ]),
  );
}

/** Deletes every session of an account but `keep`. */
export async function deleteOtherSessions(
  db: Database,
  userId: string,
  keep: string | null,
): Promise<EndedSession[]> {
  return ended(
    await db.sql(
      'DELETE FROM sessions WHERE user_id = $1::uuid AND token_hash IS DISTINCT FROM $2 RETURNING token_hash, user_id',
      [userId, keep],
    ),
  );
}

/** Deletes the sessions that expired. */
export async function purgeExpiredSessions(db: Database, now = new Date()): Promise<EndedSession[]> {
  return ended(
    await db.sql('DELETE FROM sessions WHERE expires_at < $1 RETURNING token_hash, user_id', [now]),
  );
}

/**
 * The session cookie's attributes: httpOnly, SameSite=Lax, and Secure whenever the request came
 * over HTTPS (directly, or through a proxy TRUST_PROXY names) or the site's PUBLIC_URL is https.
 */
export function sessionCookieOptions(
  secure: boolean,
  maxAgeSeconds = SESSION_DAYS * 86_400,
): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: maxAgeSeconds };
}
