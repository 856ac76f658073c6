import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({
    kind: z.enum(['postgres', 'embedded']),
    up: z.boolean(),
  }),
});
export type Health = z.infer<typeof healthSchema>;
