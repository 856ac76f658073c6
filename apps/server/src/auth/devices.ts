/**
 * Browsers known to an account: a successful log-in (or sign-up) leaves a random token in an
 * httpOnly cookie and its SHA-256 here. A log-in from such a browser is not slowed down by other
 * people's failed attempts on the account (login-throttle.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';

/** How long a browser stays known after its last log-in. */
export const DEVICE_DAYS = 365;

const idOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Whether the device cookie `token` belongs to this account. */
export async function knownDevice(db: Database, token: string | undefined, userId: string | undefined) {
  if (!token || token.length > 100) return false;
  // Looked up for an unknown account name too: the log-in does the same work either way.
  const d = await db.prisma.knownDevice.findUnique({ where: { id: idOf(token) } });
  return (
    !!userId && !!d && d.userId === userId && Date.now() - d.lastUsedAt.getTime() < DEVICE_DAYS * 86_400_000
  );
}

/** Remembers this browser for the account: the token to set (a new one unless `token` is already known). */
export async function rememberDevice(
  db: Database,
  token: string | undefined,
  userId: string,
): Promise<string> {
  if (token && token.length <= 100) {
    const r = await db.prisma.knownDevice.updateMany({
      where: { id: idOf(token), userId },
      data: { lastUsedAt: new Date() },
    });
    if (r.count > 0) return token;
  }
  const fresh = randomBytes(32).toString('base64url');
  await db.prisma.knownDevice.create({ data: { id: idOf(fresh), userId } });
  return fresh;
}

/** Forgets browsers unused for a year. */
export async function purgeOldDevices(db: Database, now = new Date()): Promise<void> {
  await db.prisma.knownDevice.deleteMany({
    where: { lastUsedAt: { lt: new Date(now.getTime() - DEVICE_DAYS * 86_400_000) } },
  });
}
