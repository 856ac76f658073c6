/** Account routes: sign up, log in, log out, me. Rate-limited per client address. */
import { HTTP_ROUTES, SESSION_COOKIE } from '@bke/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyPassword } from '../auth/passwords.ts';
import { RateLimiter } from '../auth/rate-limit.ts';
import { clearCookie, createSession, deleteSession, sessionCookie } from '../auth/sessions.ts';
import { createUser } from '../auth/users.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from './errors.ts';
import { currentUser, parseBody, sessionToken } from './guard.ts';

export interface AuthLimits {
  burst: number;
  perSecond: number;
}

/** A hash to compare against when the user does not exist, so timing does not reveal usernames. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function registerAuth(app: FastifyInstance, db: Database, limits: AuthLimits): void {
  const limiter = new RateLimiter(limits.burst, limits.perSecond);
  const limit = (request: FastifyRequest) => {
    if (!limiter.take(request.ip))
      throw new HttpError(429, 'http/rate_limited', 'Too many attempts; try again soon.');
  };
  const signIn = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    const token = await createSession(db, userId, request.headers['user-agent']);
    reply.header('set-cookie', sessionCookie(SESSION_COOKIE, token, request.protocol === 'https'));
  };

  app.post(HTTP_ROUTES.signup.path, async (request, reply) => {
    limit(request);
    const body = parseBody(HTTP_ROUTES.signup.body, request.body);
    const user = await createUser(db, body.username, body.password);
    if (!user) throw new HttpError(409, 'auth/username_taken', 'That name is taken.');
    await signIn(request, reply, user.id);
    return { user: { id: user.id, username: user.username, role: user.role } };
  });

  app.post(HTTP_ROUTES.login.path, async (request, reply) => {
    limit(request);
    const body = parseBody(HTTP_ROUTES.login.body, request.body);
    const user = await db.prisma.user.findUnique({ where: { usernameKey: body.username.toLowerCase() } });
    const good = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !good) throw new HttpError(401, 'auth/bad_credentials', 'Wrong name or password.');
    if (user.bannedUntil && user.bannedUntil.getTime() > Date.now())
      throw new HttpError(403, 'auth/banned', 'This account is banned.', {
        until: user.bannedUntil.toISOString(),
      });
    await signIn(request, reply, user.id);
    return { user: { id: user.id, username: user.username, role: user.role } };
  });

  app.post(HTTP_ROUTES.logout.path, async (request, reply) => {
    await deleteSession(db, sessionToken(request));
    reply.header('set-cookie', clearCookie(SESSION_COOKIE));
    return { ok: true as const };
  });

  app.get(HTTP_ROUTES.me.path, async (request) => {
    const u = await currentUser(db, request);
    return { user: u ? { id: u.id, username: u.username, role: u.role } : null };
  });
}
