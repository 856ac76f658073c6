import { z } from 'zod';

/** Readiness: whether this process should be sent traffic (a load balancer's health check). */
export const healthSchema = z.object({
  /** `stopping`: the process is shutting down and finishing what it has; send it nothing new. */
  status: z.enum(['ok', 'degraded', 'stopping']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({
    kind: z.enum(['postgres', 'embedded']),
    up: z.boolean(),
  }),
});
export type Health = z.infer<typeof healthSchema>;

/** Liveness: the process answers at all (an orchestrator restarts it when it does not). */
export const livenessSchema = z.object({
  status: z.literal('ok'),
  uptimeSeconds: z.number(),
});
export type Liveness = z.infer<typeof livenessSchema>;
