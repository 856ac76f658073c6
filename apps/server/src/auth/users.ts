/** Creating accounts (sign-up and the admin CLI share it). */
import type { Role } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { hashPassword } from './passwords.ts';

export async function createUser(
  db: Database,
  username: string,
  password: string,
  role: Role = 'player',
  /** The IANA zone the mail's deadlines and digest hour use: the sign-up page sends its browser's. */
  timeZone?: string,
) {
  const key = username.toLowerCase();
  // Hashed before the name is looked up: a taken name costs the same as a free one.
  const passwordHash = await hashPassword(password);
  const existing = await db.prisma.user.findUnique({ where: { usernameKey: key } });
  if (existing) return null;
  try {
    return await db.prisma.user.create({
      data: {
        username,
        usernameKey: key,
        passwordHash,
        role,
        ...(timeZone ? { timeZone } : {}),
      },
    });
  } catch {
    return null; // lost a race on the unique key
  }
}

/**
 * Makes `username` an admin: creates the account with `password` when it does not exist, else
 * raises its role (the password of an existing account is left alone). Returns what it did.
 */
export async function ensureAdmin(
  db: Database,
  username: string,
  password: string,
): Promise<'created' | 'promoted' | 'unchanged'> {
  const existing = await db.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
  if (!existing) return (await createUser(db, username, password, 'admin')) ? 'created' : 'unchanged';
  if (existing.role === 'admin') return 'unchanged';
  await db.prisma.user.update({ where: { id: existing.id }, data: { role: 'admin' } });
  return 'promoted';
}
