/**
 * "Forgot password": a reset link by mail to the account's verified address, and the new password
 * set with it. The request's answer never tells whether an account or address exists; requests are
 * limited per client address, and links per account (limits.ts). Setting a new password ends every
 * session of the account and tells its address.
 */
import { HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { clearFailures } from '../auth/login-throttle.ts';
import { hashPassword } from '../auth/passwords.ts';
import { deleteOtherSessions, type EndedSession, sessionIdOf } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { afterCommit, inTransaction } from '../db/transaction.ts';
import type { Limits } from '../limits.ts';
import type { Mailer } from '../mail/mailer.ts';
import { judgeToken, readToken, refuseUnsigned, tokensLastHour, useToken } from '../mail/tokens.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import type { MadeUpLinkBudget } from '../rate-limit/made-up-links.ts';
import { answerFloor } from './answer-floor.ts';
import { parseBody } from './guard.ts';

/**
 * "Forgot password" answers no sooner than this after the request, whether or not a link was
 * written (answer-floor.ts): the writes take tens of milliseconds here, hundreds under load.
 */
const FORGOT_FLOOR_MS = 400;

export function registerPasswordReset(
  app: FastifyInstance,
  db: Database,
  mailer: Mailer,
  limits: Limits,
  endSessions: (ended: EndedSession[]) => void,
  madeUpLinks: MadeUpLinkBudget,
): void {
  const log = (msg: string, data: object) => app.log.warn(data, msg);
  const forgot = Limit.shared(
    db,
    windowOf('forgot', limits.forgotPerAddress.burst, limits.forgotPerAddress.perMinute / 60),
    log,
  );
  // Setting a password is the costliest thing an anonymous client can ask for (a memory-hard
  // hash): limited per client address, and per token so that one link cannot be hammered.
  const resets = Limit.shared(
    db,
    windowOf('reset', limits.resetPerAddress.burst, limits.resetPerAddress.perMinute / 60),
    log,
  );

  app.post(HTTP_ROUTES.forgotPassword.path, async (request, reply) => {
    const floor = answerFloor(FORGOT_FLOOR_MS);
    await guard(reply, [forgot, `addr:${request.ip}`]);
    const body = parseBody(HTTP_ROUTES.forgotPassword.body, request.body);
    const key = body.account.toLowerCase();
    // Only a verified address gets a link: one typed by mistake must not be handed the account.
    const user = key.includes('@')
      ? await db.prisma.user.findUnique({ where: { email: key } })
      : await db.prisma.user.findUnique({ where: { usernameKey: key } });
    if (user?.email && user.emailVerifiedAt) {
      const email = user.email;
      await inTransaction(db, async (tx) => {
        if ((await tokensLastHour(tx, user.id, 'reset_password')) >= limits.accountLinksPerHour) return;
        await mailer.sendReset(tx, { ...user, email }, request.ip);
      });
    }
    await floor.done();
    return { ok: true as const };
  });

  // An address that sent too many links that do not hold is refused before its body is read.
  app.post(HTTP_ROUTES.resetPassword.path, { onRequest: madeUpLinks.refuseSpent }, async (request, reply) => {
    // A link this site did not sign is refused by its MAC alone, before the shared limiter and any
    // read (a counter row per made-up link was the database work that slowed every log-in under a
    // flood); its answer is the one an unknown link gets. It, or a body that does not parse, spends
    // one of the address's budget of made-up links, counted in this process's memory.
    const body = madeUpLinks.charge(request.ip, () => {
      const b = parseBody(HTTP_ROUTES.resetPassword.body, request.body);
      refuseUnsigned(mailer.linkKey, b.token, 'reset_password');
      return b;
    });
    await guard(reply, [resets, `addr:${request.ip}`]);
    // The link is checked before the password is hashed. It is used only below, so a refused or
    // busy hash leaves it working. A signed link is limited per link too (one link hammered from
    // many addresses).
    const link = await readToken(db, body.token);
    if (link) await guard(reply, [resets, `token:${sessionIdOf(body.token)}`]);
    judgeToken(link, 'reset_password');
    const passwordHash = await hashPassword(body.password);
    return inTransaction(db, async (tx) => {
      const { userId } = await useToken(tx, body.token, 'reset_password');
      const user = await tx.prisma.user.update({ where: { id: userId }, data: { passwordHash } });
      // Other reset links of the account stop working; every browser logged in to it is logged out.
      await tx.prisma.accountToken.updateMany({
        where: { userId, kind: 'reset_password', usedAt: null },
        data: { usedAt: new Date() },
      });
      const ended = await deleteOtherSessions(tx, userId, null);
      afterCommit(tx, () => endSessions(ended));
      await clearFailures(tx, user.usernameKey);
      await mailer.sendPasswordChanged(tx, user);
      return { username: user.username };
    });
  });
}
