/**
 * Health for load balancers and orchestrators. Liveness says the process answers and touches
 * nothing else (a database outage must not get every process restarted); readiness says whether to
 * send it traffic: the database answers and the process is not shutting down.
 */
import { type Health, HTTP_ROUTES, type Liveness } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';

export const SERVER_VERSION = '0.1.0';

export function registerHealth(app: FastifyInstance, db: Database, stopping: () => boolean): void {
  app.get(
    HTTP_ROUTES.healthLive.path,
    async (): Promise<Liveness> => ({
      status: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
    }),
  );
  const ready = async (_request: unknown, reply: { status(code: number): unknown }): Promise<Health> => {
    const up = await db.ping();
    const status = stopping() ? 'stopping' : up ? 'ok' : 'degraded';
    reply.status(status === 'ok' ? 200 : 503);
    return {
      status,
      version: SERVER_VERSION,
      uptimeSeconds: Math.round(process.uptime()),
      database: { kind: db.kind, up },
    };
  };
  app.get(HTTP_ROUTES.healthReady.path, ready);
  app.get(HTTP_ROUTES.health.path, ready);
}
