/** Server configuration, read once from the environment and checked with zod. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { DatabaseConfig } from './db/database.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Where the embedded database keeps its files when DATABASE_URL is not set. */
  DATA_DIR: z.string().min(1).optional(),
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: z.enum(['0', '1']).optional(),
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  logPretty: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'embedded', dataDir: path.resolve(REPO_ROOT, e.DATA_DIR ?? '.data/pglite') },
    webDist: path.resolve(REPO_ROOT, e.WEB_DIST ?? 'apps/web/dist'),
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY ? e.LOG_PRETTY === '1' : Boolean(process.stdout.isTTY),
  };
}
