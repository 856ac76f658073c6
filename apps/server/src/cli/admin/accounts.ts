/**
 * The admin CLI's account commands: create an admin, set a new password for an account, end an
 * account's sessions. Each change and its audit row commit together.
 */

import { clearFailures } from '../../auth/login-throttle.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { deleteOtherSessions } from '../../auth/sessions.ts';
import { ensureAdmin } from '../../auth/users.ts';
import type { Database } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { recordOperatorAction } from './operator-audit.ts';

/** The outcome of a command: what to print, and the exit code. */
export interface Outcome {
  code: number;
  out: string;
}

const noAccount = (username: string): Outcome => ({
  code: 1,
  out: `No account is named ${username}; nothing was changed.`,
});

export async function createAdmin(
  db: Database,
  username: string,
  password: string,
  reason: string,
): Promise<Outcome> {
  return inTransaction(db, async (tx) => {
    const before = await tx.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
    const what = await ensureAdmin(tx, username, password);
    const after = await tx.prisma.user.findUniqueOrThrow({ where: { usernameKey: username.toLowerCase() } });
    if (what === 'created')
      await recordOperatorAction(tx, 'user.create', reason, {
        userId: after.id,
        params: { username: after.username, role: 'admin' },
      });
    if (what === 'promoted')
      await recordOperatorAction(tx, 'user.role', reason, {
        userId: after.id,
        params: { username: after.username, from: before?.role ?? null, to: 'admin' },
      });
    return { code: 0, out: `admin ${after.username}: ${what}` };
  });
}

/**
 * A new password, as a reset link would set it: the account's other reset links stop working,
 * every session of it ends, its failed log-ins are forgotten, and its confirmed address is told.
 */
export async function resetPassword(
  db: Database,
  mailer: Mailer,
  username: string,
  password: string,
  reason: string,
): Promise<Outcome> {
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    const found = await tx.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
    if (!found) return noAccount(username);
    const user = await tx.prisma.user.update({ where: { id: found.id }, data: { passwordHash } });
    await tx.prisma.accountToken.updateMany({
      where: { userId: user.id, kind: 'reset_password', usedAt: null },
      data: { usedAt: new Date() },
    });
    const ended = await deleteOtherSessions(tx, user.id, null);
    await clearFailures(tx, user.usernameKey);
    await mailer.sendPasswordChanged(tx, user);
    await recordOperatorAction(tx, 'user.resetPassword', reason, {
      userId: user.id,
      params: { username: user.username, sessions: ended.length },
    });
    return {
      code: 0,
      out: `${user.username} has a new password; ${ended.length} session(s) ended${user.email ? ', and their address was told' : ''}.`,
    };
  });
}

/** Logs an account out everywhere: every session of it is deleted. */
export async function endSessions(db: Database, username: string, reason: string): Promise<Outcome> {
  return inTransaction(db, async (tx) => {
    const user = await tx.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
    if (!user) return noAccount(username);
    const ended = await deleteOtherSessions(tx, user.id, null);
    await recordOperatorAction(tx, 'user.endSessions', reason, {
      userId: user.id,
      params: { username: user.username, sessions: ended.length },
    });
    return { code: 0, out: `${user.username}: ${ended.length} session(s) ended.` };
  });
}
