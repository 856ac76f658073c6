/**
 * Single-use links sent by mail: verifying an address, resetting a password. The link carries a
 * random token signed with the site's link key (link-signature.ts); the table keeps only its SHA-256
 * (as sessions do), so a leaked database opens no account. A token is used by one conditional update, so two clicks at once cannot both succeed.
 */
import { sessionIdOf } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { newSignedToken, signatureHolds, type TokenKind } from './link-signature.ts';

export type { TokenKind };

/** How long each kind of link works. */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  verify_email: 48 * 3600_000,
  reset_password: 60 * 60_000,
};

export async function issueToken(
  db: Database,
  linkKey: Buffer,
  userId: string,
  kind: TokenKind,
  email: string,
): Promise<string> {
  const token = newSignedToken(linkKey, kind);
  await db.prisma.accountToken.create({
    data: {
      id: sessionIdOf(token),
      userId,
      kind,
      email,
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]),
    },
  });
  return token;
}

/** Links of this kind issued to the account in the last hour (the per-account mail limit). */
export async function tokensLastHour(db: Database, userId: string, kind: TokenKind): Promise<number> {
  return db.prisma.accountToken.count({
    where: { userId, kind, createdAt: { gt: new Date(Date.now() - 3600_000) } },
  });
}

/** A link as stored: what judging it needs. */
export interface StoredToken {
  kind: string;
  userId: string;
  usedAt: Date | null;
  expiresAt: Date;
}

/**
 * The stored row of a link, or null for a link this server never sent: one indexed read in raw
 * SQL (a made-up link is what an attacker sends in bulk; the ORM's own work per query was most of
 * its cost on the server's thread).
 */
export async function readToken(db: Database, token: string): Promise<StoredToken | null> {
  const [row] = await db.sql<{ kind: string; user_id: string; used_at: Date | null; expires_at: Date }>(
    `SELECT kind::text AS kind, user_id::text AS user_id, used_at, expires_at
       FROM account_tokens WHERE token_hash = $1`,
    [sessionIdOf(token)],
    'bke_read_token',
  );
  return row
    ? {
        kind: row.kind,
        userId: row.user_id,
        usedAt: row.used_at === null ? null : new Date(row.used_at),
        expiresAt: new Date(row.expires_at),
      }
    : null;
}

/**
 * Refuses a link whose MAC this site's key did not make, with the answer an unknown link gets
 * (judgeToken): pure CPU, before any limiter or read. Links sent before links were signed have no
 * MAC and are refused here too; they lived at most 48 hours.
 */
export function refuseUnsigned(linkKey: Buffer, token: string, kind: TokenKind): void {
  if (!signatureHolds(linkKey, kind, token)) throw refusal(null, kind);
}

/** The link's account when it is of `kind`, unused and not expired; else throws the typed reason. */
export function judgeToken(found: StoredToken | null, kind: TokenKind): { userId: string } {
  if (found && found.kind === kind && !found.usedAt && found.expiresAt.getTime() > Date.now())
    return { userId: found.userId };
  throw refusal(found, kind);
}

/**
 * Uses a token: marks it used and returns its account and address, or throws the typed reason
 * (unknown, expired, used). Run inside the transaction that acts on it, so a failure after this
 * leaves the token unused.
 */
export async function useToken(
  db: Database,
  token: string,
  kind: TokenKind,
): Promise<{ userId: string; email: string }> {
  const id = sessionIdOf(token);
  const used = await db.sql<{ user_id: string; email: string }>(
    `UPDATE account_tokens SET used_at = now()
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
    RETURNING user_id::text AS user_id, email`,
    [id, kind],
  );
  const row = used[0];
  if (row) return { userId: row.user_id, email: row.email };
  throw refusal(await db.prisma.accountToken.findUnique({ where: { id } }), kind);
}

/** Why a token that did not work does not: unknown (or of another kind), used, or expired. */
function refusal(found: { kind: string; usedAt: Date | null } | null, kind: TokenKind): HttpError {
  if (!found || found.kind !== kind)
    return new HttpError(400, 'account/link_invalid', 'This link is not valid.');
  if (found.usedAt) return new HttpError(410, 'account/link_used', 'This link was used already.');
  return new HttpError(410, 'account/link_expired', 'This link has expired.', {
    hours: Math.round(TOKEN_TTL_MS[kind] / 3600_000),
  });
}

/** The address waiting for its link, if one was sent and still works. */
export async function pendingEmail(db: Database, userId: string): Promise<string | null> {
  const t = await db.prisma.accountToken.findFirst({
    where: { userId, kind: 'verify_email', usedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
  });
  return t?.email ?? null;
}

/** Forgets tokens that expired more than a week ago. */
export async function purgeOldTokens(db: Database): Promise<void> {
  await db.prisma.accountToken.deleteMany({
    where: { expiresAt: { lt: new Date(Date.now() - 7 * 86_400_000) } },
  });
}
