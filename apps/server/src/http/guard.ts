/**
 * Request guards: the session user, cross-site protection for state-changing requests, zod bodies.
 * A state-changing request must carry the `x-bke-csrf` header (a cross-site form or image cannot
 * set a custom header, and a cross-site fetch that sets one needs a CORS preflight this server never
 * grants) and, when the browser sends an Origin, it must be this server's own.
 */
import { CSRF_HEADER, SESSION_COOKIE } from '@bke/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseCookies, type SessionUser, userForToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from './errors.ts';
import { sameOrigin } from './origin.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    if (!request.routeOptions.url) return; // unknown routes answer 404 as before
    // Host and protocol as the browser used them: behind a trusted proxy, what it forwarded (origin.ts).
    if (!sameOrigin(request.headers.origin, { host: request.host, protocol: request.protocol }))
      throw new HttpError(403, 'http/cross_site', 'Cross-site request refused.');
    if (!request.headers[CSRF_HEADER])
      throw new HttpError(403, 'http/cross_site', `State-changing requests need the ${CSRF_HEADER} header.`);
  });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return parseCookies(request.headers.cookie)[SESSION_COOKIE];
}

export async function currentUser(db: Database, request: FastifyRequest): Promise<SessionUser | null> {
  return userForToken(db, sessionToken(request));
}

export async function requireUser(db: Database, request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(db, request);
  if (!user) throw new HttpError(401, 'auth/required', 'Sign in first.');
  if (user.bannedUntil && user.bannedUntil.getTime() > Date.now())
    throw new HttpError(403, 'auth/banned', 'This account is banned.', {
      until: user.bannedUntil.toISOString(),
    });
  return user;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body ?? {});
  if (!r.success)
    throw new HttpError(400, 'http/invalid', 'The request body is not valid.', {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  return r.data;
}
