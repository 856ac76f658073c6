/**
 * The account's e-mail: the address (set or changed with the password, used once its link is
 * opened), its verification, and how the player wants "your move" by mail.
 */
import { HTTP_ROUTES, type MailSettings } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../auth/passwords.ts';
import type { Database } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import type { Limits } from '../limits.ts';
import { nextLocalHour } from '../mail/local-time.ts';
import type { Mailer } from '../mail/mailer.ts';
import { pendingEmail, refuseUnsigned, tokensLastHour, useToken } from '../mail/tokens.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit } from '../rate-limit/limit.ts';
import type { MadeUpLinkBudget } from '../rate-limit/made-up-links.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

async function mailSettingsOf(db: Database, userId: string): Promise<MailSettings> {
  const u = await db.prisma.user.findUniqueOrThrow({ where: { id: userId } });
  return {
    email: u.email,
    pendingEmail: await pendingEmail(db, userId),
    verified: u.email !== null && u.emailVerifiedAt !== null,
    notify: u.notifyMode as MailSettings['notify'],
    digestHour: u.digestHour,
    timeZone: u.timeZone,
  };
}

/** Earlier verification links of the account stop working (a newer address or none replaces them). */
const dropPendingLinks = (db: Database, userId: string) =>
  db.prisma.accountToken.updateMany({
    where: { userId, kind: 'verify_email', usedAt: null },
    data: { usedAt: new Date() },
  });

export function registerMailAccount(
  app: FastifyInstance,
  db: Database,
  mailer: Mailer,
  limits: Limits,
  madeUpLinks: MadeUpLinkBudget,
): void {
  // The password is asked for on every change of address: a few tries a minute per account.
  // Changing the address asks for the password: five tries in 150 s per account bound guessing.
  const passwordTries = Limit.shared(db, { name: 'email-password', points: 5, seconds: 150 }, (msg, data) =>
    app.log.warn(data, msg),
  );

  app.get(HTTP_ROUTES.getMail.path, async (request) => {
    const me = await requireUser(db, request);
    return mailSettingsOf(db, me.id);
  });

  app.post(HTTP_ROUTES.setMailPrefs.path, async (request) => {
    const me = await requireUser(db, request);
    const body = parseBody(HTTP_ROUTES.setMailPrefs.body, request.body);
    await db.prisma.user.update({
      where: { id: me.id },
      data: {
        notifyMode: body.notify,
        digestHour: body.digestHour,
        timeZone: body.timeZone,
        digestDueAt:
          body.notify === 'digest' ? nextLocalHour(new Date(), body.timeZone, body.digestHour) : null,
      },
    });
    return mailSettingsOf(db, me.id);
  });

  app.post(HTTP_ROUTES.setEmail.path, async (request, reply) => {
    const me = await requireUser(db, request);
    const body = parseBody(HTTP_ROUTES.setEmail.body, request.body);
    await guard(reply, [passwordTries, `account:${me.id}`]);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: me.id } });
    if (!(await verifyPassword(body.password, row.passwordHash)))
      throw new HttpError(401, 'auth/bad_credentials', 'The password is wrong.');
    await inTransaction(db, async (tx) => {
      if (body.email === null) {
        await dropPendingLinks(tx, me.id);
        if (row.email) {
          await tx.prisma.user.update({ where: { id: me.id }, data: { email: null, emailVerifiedAt: null } });
          await mailer.sendEmailChanged(tx, row, row.email, null);
        }
        return;
      }
      if (body.email === row.email) return;
      // Past the hourly number of links the answer is the same and nothing more is sent.
      if ((await tokensLastHour(tx, me.id, 'verify_email')) >= limits.accountLinksPerHour) return;
      await dropPendingLinks(tx, me.id);
      await mailer.sendVerification(tx, row, body.email, request.ip);
    });
    const settings = await mailSettingsOf(db, me.id);
    // The address waits for its link even when another account holds it (that is not told here).
    return body.email && body.email !== row.email ? { ...settings, pendingEmail: body.email } : settings;
  });

  app.post(HTTP_ROUTES.verifyEmail.path, { onRequest: madeUpLinks.refuseSpent }, async (request) => {
    // A link this site did not sign is refused before the database is asked (mail/link-signature.ts),
    // and spends one of the address's budget of made-up links, as an unreadable body does.
    const body = madeUpLinks.charge(request.ip, () => {
      const b = parseBody(HTTP_ROUTES.verifyEmail.body, request.body);
      refuseUnsigned(mailer.linkKey, b.token, 'verify_email');
      return b;
    });
    return inTransaction(db, async (tx) => {
      const { userId, email } = await useToken(tx, body.token, 'verify_email');
      const holder = await tx.prisma.user.findUnique({ where: { email }, select: { id: true } });
      if (holder && holder.id !== userId)
        throw new HttpError(409, 'account/email_taken', 'Another account uses this address.');
      const before = await tx.prisma.user.findUniqueOrThrow({ where: { id: userId } });
      await tx.prisma.user.update({ where: { id: userId }, data: { email, emailVerifiedAt: new Date() } });
      await dropPendingLinks(tx, userId);
      if (before.email && before.email !== email)
        await mailer.sendEmailChanged(tx, before, before.email, email);
      return { email };
    });
  });
}
