/**
 * Account routes: sign up (with an optional e-mail address, verified by a link), log in, log out,
 * me, change password (the account's address is told). Sign-ups and log-ins are limited
 * per client address; failed log-ins also slow their account down whatever the address
 * (auth/login-throttle.ts), except from a browser that once logged in to it (auth/devices.ts).
 */
import { DEVICE_COOKIE, HTTP_ROUTES, SESSION_COOKIE } from '@bke/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_DAYS, knownDevice, rememberDevice } from '../auth/devices.ts';
import { claimAttempt, clearFailures, recordFailure } from '../auth/login-throttle.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../auth/passwords.ts';
import { rehashIfRoom } from '../auth/rehash.ts';
import {
  createSession,
  deleteOtherSessions,
  deleteSession,
  type EndedSession,
  sessionCookieOptions,
} from '../auth/sessions.ts';
import { createUser } from '../auth/users.ts';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import type { Mailer } from '../mail/mailer.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { HttpError } from './errors.ts';
import { currentUser, parseBody, requireUser, sessionToken } from './guard.ts';

export function registerAuth(
  app: FastifyInstance,
  db: Database,
  /** Ends the sockets of sessions that were deleted, on every process (app.ts). */
  endSessions: (ended: EndedSession[]) => void,
  limits: Limits,
  cookies: { secureAlways: boolean },
  mailer: Mailer,
): void {
  const perAddress = Limit.shared(
    db,
    windowOf('auth', limits.authPerAddress.burst, limits.authPerAddress.perMinute / 60),
    (msg, data) => app.log.warn(data, msg),
  );
  const throttle = {
    freeFailures: limits.loginFreeFailures,
    firstDelaySeconds: limits.loginFirstDelaySeconds,
    maxDelaySeconds: limits.loginMaxDelaySeconds,
  };
  const limit = (request: FastifyRequest, reply: FastifyReply) =>
    guard(reply, [perAddress, `addr:${request.ip}`]);
  const secure = (request: FastifyRequest) => cookies.secureAlways || request.protocol === 'https';
  const signIn = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    const token = await createSession(db, userId, request.headers['user-agent']);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(secure(request)));
    const device = await rememberDevice(db, request.cookies[DEVICE_COOKIE], userId);
    reply.setCookie(DEVICE_COOKIE, device, {
      ...sessionCookieOptions(secure(request), DEVICE_DAYS * 86_400),
      path: '/api/auth',
    });
  };
  /** Checks a password under the account's slow-down; throws auth/slow_down when it must wait. */
  const checkPassword = async (
    request: FastifyRequest,
    usernameKey: string,
    user: { id: string; passwordHash: string } | null,
    password: string,
  ) => {
    const trusted = await knownDevice(db, request.cookies[DEVICE_COOKIE], user?.id);
    if (!trusted) {
      const wait = await claimAttempt(db, usernameKey, throttle);
      if (wait !== null)
        throw new HttpError(
          429,
          'auth/slow_down',
          'Too many failed log-ins for this account; wait a little.',
          {
            retryAfterSeconds: wait,
          },
        );
    }
    const good = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (good && user) await clearFailures(db, usernameKey);
    else await recordFailure(db, usernameKey, throttle, !trusted);
    return good && user !== null;
  };

  app.post(HTTP_ROUTES.signup.path, async (request, reply) => {
    await limit(request, reply);
    const body = parseBody(HTTP_ROUTES.signup.body, request.body);
    const user = await createUser(db, body.username, body.password, 'player', body.timeZone);
    if (!user) throw new HttpError(409, 'auth/username_taken', 'That name is taken.');
    if (body.email) await mailer.sendVerification(db, user, body.email, request.ip);
    await signIn(request, reply, user.id);
    return { user: { id: user.id, username: user.username, role: user.role } };
  });

  app.post(HTTP_ROUTES.login.path, async (request, reply) => {
    await limit(request, reply);
    const body = parseBody(HTTP_ROUTES.login.body, request.body);
    const key = body.username.toLowerCase();
    const user = await db.prisma.user.findUnique({ where: { usernameKey: key } });
    if (!(await checkPassword(request, key, user, body.password)) || !user)
      throw new HttpError(401, 'auth/bad_credentials', 'Wrong name or password.');
    if (user.bannedUntil && user.bannedUntil.getTime() > Date.now())
      throw new HttpError(403, 'auth/banned', 'This account is banned.', {
        until: user.bannedUntil.toISOString(),
      });
    // A hash made at a lower cost is replaced now that the password is at hand, unless the
    // hashing threads are busy: the password was right, so the log-in never answers auth/busy
    // for it (auth/rehash.ts).
    const rehash = await rehashIfRoom(db, user.id, user.passwordHash, body.password);
    if (rehash === 'busy') request.log.info({ userId: user.id }, 'cheaper password hash kept: hashing busy');
    await signIn(request, reply, user.id);
    return { user: { id: user.id, username: user.username, role: user.role } };
  });

  app.post(HTTP_ROUTES.logout.path, async (request, reply) => {
    endSessions(await deleteSession(db, sessionToken(request)));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true as const };
  });

  app.get(HTTP_ROUTES.me.path, async (request) => {
    const u = await currentUser(db, request);
    return {
      user: u
        ? { id: u.id, username: u.username, role: u.role, ...(u.isBot ? { bot: true as const } : {}) }
        : null,
    };
  });

  app.post(HTTP_ROUTES.changePassword.path, async (request) => {
    const me = await requireUser(db, request);
    const body = parseBody(HTTP_ROUTES.changePassword.body, request.body);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: me.id } });
    if (!(await checkPassword(request, row.usernameKey, row, body.current)))
      throw new HttpError(401, 'auth/bad_credentials', 'The current password is wrong.');
    const changed = await db.prisma.user.update({
      where: { id: me.id },
      data: { passwordHash: await hashPassword(body.next) },
    });
    await mailer.sendPasswordChanged(db, changed);
    // Whoever else holds a session of this account (a stolen one, a forgotten browser) is out.
    endSessions(await deleteOtherSessions(db, me.id, me.sessionId));
    return { ok: true as const };
  });
}
