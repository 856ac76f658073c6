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
  /** How often this process looks for due deadlines, in ms (0: never; another process does). */
  DEADLINE_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * Behind a reverse proxy or load balancer: which `X-Forwarded-For` hops to believe, so that rate
   * limits and logs see the player's address rather than the proxy's. `true` trusts every hop, a
   * number that many hops, otherwise a comma-separated list of proxy addresses or CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*)$/,
      'TRUST_PROXY: true, false, a hop count, or addresses/CIDRs',
    )
    .optional(),
  /** The site's public address (https://bke.example.org): links in turn notifications. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Lets players' webhooks point at private addresses (a receiver on this machine; tests). */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** Creates this admin account at start-up when no account of that name exists (with the password). */
  BKE_ADMIN_USERNAME: z.string().min(3).max(24).optional(),
  BKE_ADMIN_PASSWORD: z.string().min(8).max(200).optional(),
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  logPretty: boolean;
  deadlinePollMs: number;
  admin: { username: string; password: string } | null;
  /** Fastify's `trustProxy`. */
  trustProxy: boolean | number | string;
  notifications: { publicUrl: string | null; allowPrivate: boolean };
}

function trustProxyOf(v: string | undefined): Config['trustProxy'] {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v.replace(/\s+/g, '');
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
    deadlinePollMs: e.DEADLINE_POLL_MS,
    admin:
      e.BKE_ADMIN_USERNAME && e.BKE_ADMIN_PASSWORD
        ? { username: e.BKE_ADMIN_USERNAME, password: e.BKE_ADMIN_PASSWORD }
        : null,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    notifications: { publicUrl: e.PUBLIC_URL ?? null, allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === '1' },
  };
}
