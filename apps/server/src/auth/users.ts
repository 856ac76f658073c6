/** Creating accounts (sign-up and the admin CLI share it). */
import type { Role } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { hashPassword } from './passwords.ts';

export async function createUser(db: Database, username: string, password: string, role: Role = 'player') {
  const key = username.toLowerCase();
  const existing = await db.prisma.user.findUnique({ where: { usernameKey: key } });
  if (existing) return null;
  try {
    return await db.prisma.user.create({
      data: { username, usernameKey: key, passwordHash: await hashPassword(password), role },
    });
  } catch {
    return null; // lost a race on the unique key
  }
}
