/**
 * Runs the real, compiled server for end-to-end tests on its own port and its own fresh database: a
 * new database on the DATABASE_URL server when set, else an embedded PostgreSQL in a temporary folder.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../scripts/lib/server-flags.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function admin(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** A port nobody listens on now, so concurrent runs on one machine never meet each other's server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(port: number, mail: { smtpUrl?: string } = {}): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '0',
    // The first admin, created by main.ts at start-up (e2e/tests/moderation.spec.ts logs in with it).
    BKE_ADMIN_USERNAME: 'e2e_admin',
    BKE_ADMIN_PASSWORD: 'e2e-admin-password',
    // Every person of these tests signs up and logs in from 127.0.0.1, a dozen within a minute in
    // one spec: as many as a household behind one address, not an attack. The per-address limit
    // itself is tested in apps/server/test/limits.int.test.ts.
    AUTH_ATTEMPTS_BURST: '60',
    // The same address creates a world in most specs, more than the day's 20 of a real network;
    // the per-address world limit is tested in apps/server/test/shared-limits.int.test.ts.
    WORLDS_PER_ADDRESS_PER_DAY: '500',
    // Players' webhooks may point at a receiver on this machine (e2e/tests/account.spec.ts).
    WEBHOOKS_ALLOW_PRIVATE: '1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Mail goes to the test's own SMTP server (global-setup.ts), else to the log.
    ...(mail.smtpUrl ? { SMTP_URL: mail.smtpUrl, MAIL_FROM: 'BKE Online <no-reply@127.0.0.1>' } : {}),
  };
  let cleanup = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `bke_e2e_${randomBytes(4).toString('hex')}`;
    await admin(process.env.DATABASE_URL, `CREATE DATABASE "${name}"`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    cleanup = () =>
      admin(process.env.DATABASE_URL as string, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'bke-e2e-'));
    env.DATA_DIR = dir;
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  // The compiled server, as `npm start` runs it (built now unless it is up to date).
  const built = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/lib/bootstrap.mjs').then((m) => m.bootstrap({ web: false }))"],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('building the server failed');
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, '--enable-source-maps', 'apps/server/dist/main.js'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health/ready`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the server was not ready (/api/health/ready) within 90 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await cleanup();
    },
  };
}
