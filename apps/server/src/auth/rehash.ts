/**
 * A stored password hash made at a lower cost than today's is replaced at log-in, while the
 * password is at hand (passwords.ts `needsRehash`). It improves the stored row; it is never a
 * condition of the log-in: when the hashing threads are busy (their queue full), the log-in goes
 * through and the hash is replaced at a later one. A password changed meanwhile is not overwritten.
 */
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { hashPassword, needsRehash } from './passwords.ts';

export type Rehash = 'current' | 'rehashed' | 'busy' | 'changed';

export async function rehashIfRoom(
  db: Database,
  userId: string,
  stored: string,
  password: string,
): Promise<Rehash> {
  if (!needsRehash(stored)) return 'current';
  let fresh: string;
  try {
    fresh = await hashPassword(password);
  } catch (e) {
    if (e instanceof HttpError && e.code === 'auth/busy') return 'busy';
    throw e;
  }
  const r = await db.prisma.user.updateMany({
    where: { id: userId, passwordHash: stored },
    data: { passwordHash: fresh },
  });
  return r.count === 1 ? 'rehashed' : 'changed';
}
