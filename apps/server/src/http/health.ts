import type { Health } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';

export const SERVER_VERSION = '0.1.0';

/** GET /api/health: is the server up, and does the database answer? */
export function registerHealth(app: FastifyInstance, db: Database): void {
  app.get('/api/health', async (_request, reply): Promise<Health> => {
    const up = await db.ping();
    reply.status(up ? 200 : 503);
    return {
      status: up ? 'ok' : 'degraded',
      version: SERVER_VERSION,
      uptimeSeconds: Math.round(process.uptime()),
      database: { kind: db.kind, up },
    };
  });
}
