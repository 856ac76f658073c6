/**
 * Serves the built web app from the same port as the API. Any GET that is not an API route or a
 * file falls back to index.html so the client's own routes survive a reload.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';

export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const built = existsSync(path.join(webDist, 'index.html'));
  if (built) await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });
  else app.log.warn({ webDist }, 'the web app is not built; only the API is served');

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/socket.io');
    if (isPage && built) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send(notFound(request.method, request.url.split('?')[0] ?? request.url));
  });
}
