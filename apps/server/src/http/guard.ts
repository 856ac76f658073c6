/**
 * Request guards: the session user, cross-site protection for state-changing requests, zod bodies.
 * A state-changing request must carry the `x-bke-csrf` header (a cross-site form or image cannot
 * set a custom header, and a cross-site fetch that sets one needs a CORS preflight this server never
 * grants) and, when the browser sends an Origin, it must be this server's own.
 */
import {
  CONTROL_CHARACTERS,
  CSRF_HEADER,
  controlCharacterPath,
  findControlCharacters,
  SESSION_COOKIE,
} from '@bke/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { bearerToken } from '../auth/bearer.ts';
import { type SessionUser, userForToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from './errors.ts';
import { sameOrigin } from './origin.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'allowed'`: this state-changing route takes cross-site requests because something else
     * proves the caller (the unsubscribe link's token, which a mail program POSTs without headers).
     */
    crossSite?: 'allowed';
  }
}

/**
 * The guard rides on each state-changing route as it is registered, so whatever spelling of a URL
 * the router resolves to that route (a percent-encoded letter, say) meets it: a check on the URL's
 * text would have to agree with the router on every decoding, and did not.
 */
export function installCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((m) => SAFE.has(m)) || route.config?.crossSite === 'allowed') return;
    route.onRequest = [refuseCrossSite, ...[route.onRequest ?? []].flat()];
  });
}

async function refuseCrossSite(request: FastifyRequest): Promise<void> {
  if (SAFE.has(request.method)) return; // a route that answers several methods
  // Host and protocol as the browser used them: behind a trusted proxy, what it forwarded (origin.ts).
  if (!sameOrigin(request.headers.origin, { host: request.host, protocol: request.protocol }))
    throw new HttpError(403, 'http/cross_site', 'Cross-site request refused.');
  if (!request.headers[CSRF_HEADER])
    throw new HttpError(403, 'http/cross_site', `State-changing requests need the ${CSRF_HEADER} header.`);
}

/**
 * Control characters are refused in every body and query string before any route reads them (the
 * protocol's schemas refuse them field by field too; this also covers free-form parts such as an
 * order's content or a world's options, which PostgreSQL could not store with a NUL).
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const path = findControlCharacters(request.body) ?? findControlCharacters(request.query);
    if (path !== null) throw controlCharacters(path);
  });
}

const controlCharacters = (path: string) =>
  new HttpError(400, CONTROL_CHARACTERS, 'Text may not hold control characters.', { path });

/** The session cookie's token, else a program's `Authorization: Bearer` token (auth/bearer.ts). */
export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] ?? bearerToken(request.headers.authorization);
}

/**
 * The caller for reads that anyone may make: a banned account reads as nobody (its people's
 * sessions are gone; a suspended bot's tokens are kept only to be refused, moderation/accounts.ts).
 */
export async function currentUser(db: Database, request: FastifyRequest): Promise<SessionUser | null> {
  const user = await userForToken(db, sessionToken(request));
  return user && !banned(user) ? user : null;
}

const banned = (user: SessionUser) => user.bannedUntil !== null && user.bannedUntil.getTime() > Date.now();

/** A query string parsed with its schema (a repeated parameter arrives as a list and is refused). */
export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  return parseBody(schema, query);
}

export async function requireUser(db: Database, request: FastifyRequest): Promise<SessionUser> {
  const user = await userForToken(db, sessionToken(request));
  if (!user) throw new HttpError(401, 'auth/required', 'Sign in first.');
  if (user.bannedUntil && banned(user))
    throw new HttpError(403, 'auth/banned', 'This account is banned.', {
      until: user.bannedUntil.toISOString(),
    });
  return user;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body ?? {});
  if (!r.success && controlCharacterPath(r.error) !== null)
    throw controlCharacters(controlCharacterPath(r.error) ?? '');
  if (!r.success)
    throw new HttpError(400, 'http/invalid', 'The request body is not valid.', {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  return r.data;
}
