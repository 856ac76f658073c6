/**
 * Sessions in PostgreSQL: the cookie holds a random token, the table only its SHA-256, so a leaked
 * database does not leak live sessions.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@bke/protocol';
import type { Database } from '../db/database.ts';

export const SESSION_DAYS = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function createSession(db: Database, userId: string, userAgent?: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.session.create({
    data: {
      id: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
      userAgent: userAgent?.slice(0, 300) ?? null,
    },
  });
  return token;
}

export interface SessionUser extends User {
  bannedUntil: Date | null;
}

/** The user behind a session token, or null when unknown or expired. */
export async function userForToken(db: Database, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const s = await db.prisma.session.findUnique({ where: { id: hashToken(token) }, include: { user: true } });
  if (!s || s.expiresAt.getTime() < Date.now()) return null;
  const u = s.user;
  return { id: u.id, username: u.username, role: u.role, bannedUntil: u.bannedUntil };
}

export async function deleteSession(db: Database, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.prisma.session.deleteMany({ where: { id: hashToken(token) } });
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

export function sessionCookie(name: string, token: string, secure: boolean): string {
  const maxAge = SESSION_DAYS * 86_400;
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

export const clearCookie = (name: string) => `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
