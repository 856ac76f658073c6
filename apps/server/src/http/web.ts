/**
 * Serves the built web app from the same port as the API. Any GET that is not an API route, an asset
 * or a file name falls back to index.html so the client's own routes survive a reload.
 *
 * The build writes a gzip and a brotli copy beside each text asset (apps/web/vite.config.ts), sent
 * to clients that accept them. Files whose names carry their content hash (Vite's `assets/`) never
 * change under that name: cached for a year, immutable. Everything else, index.html first, is
 * revalidated on every load, so a new release is seen at once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from './errors.ts';

/** Vite's hashed output: `assets/<name>-<hash>.<ext>` (the hash is 8 URL-safe characters). */
const HASHED = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.(br|gz))?$/;

/**
 * Never answered with the app's page: the API, Socket.IO and the build's assets. A page from an
 * older release asking for a chunk that is gone must get a 404 (the browser reports a failed load),
 * not index.html with 200, which it would try to run as a script and cache for a year.
 */
const NOT_PAGES = /^\/(api|socket\.io|assets)(\/|$)/;
/** A path whose last segment names a file (`/favicon.ico`, `/robots.txt`): missing, it is a 404 too. */
const FILE_NAME = /\/[^/]*\.[A-Za-z0-9]{1,12}$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function cacheHeaders(reply: FastifyReply, file: string): void {
  reply.header('cache-control', HASHED.test(file) ? IMMUTABLE : REVALIDATE);
}

export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const built = existsSync(path.join(webDist, 'index.html'));
  if (built)
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      setHeaders: cacheHeaders,
    });
  else app.log.warn({ webDist }, 'the web app is not built; only the API is served');

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? request.url;
    const isPage = request.method === 'GET' && !NOT_PAGES.test(pathname) && !FILE_NAME.test(pathname);
    if (isPage && built) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send(notFound(request.method, pathname));
  });
}
