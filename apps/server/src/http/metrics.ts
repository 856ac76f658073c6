/**
 * Where the metrics are read: `GET /api/admin/metrics` for an admin's session, and, when the
 * operator sets METRICS_PORT, a port of its own for a Prometheus scraper (bound to METRICS_HOST,
 * 127.0.0.1 unless said otherwise: keep that port off the public network).
 */
import { createServer, type Server } from 'node:http';
import { HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError } from './errors.ts';
import { requireUser } from './guard.ts';

/**
 * Times every HTTP request this Fastify answers, labelled by its route's pattern (`/api/worlds/:id`,
 * never the id itself, so the series stay few): the build's hashed files under one `/assets/*`, and
 * whatever matched no route as `(none)`. Socket.IO's own requests never reach Fastify's routes.
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const pattern = request.routeOptions.url;
    const route = pattern === undefined ? '(none)' : pattern.startsWith('/assets/') ? '/assets/*' : pattern;
    metrics.httpRequests.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}

export function registerMetrics(app: FastifyInstance, db: Database, metrics: Metrics): void {
  app.get(HTTP_ROUTES.metrics.path, async (request, reply) => {
    const user = await requireUser(db, request);
    if (user.role !== 'admin') throw new HttpError(403, 'auth/forbidden', 'Admins only.', { needs: 'admin' });
    reply.header('content-type', metrics.contentType).header('cache-control', 'no-store');
    return metrics.text();
  });
}

/** A plain HTTP server answering `GET /metrics`; resolves with the port it listens on. */
export async function serveMetrics(
  metrics: Metrics,
  at: { port: number; host: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : at.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
