/**
 * The real server as its own process (main.ts under tsx) on a fresh database, for tests whose
 * question is whether the process survives: an input that throws where nothing catches it ends a
 * process, which an in-process app would only report as a stray rejection.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase } from './test-database.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ServerProcess {
  base: string;
  /** The scratch database's URL (null on the embedded database). */
  databaseUrl: string | null;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What the process wrote to stderr (its warnings and errors), for failure messages. */
  stderr(): string;
  stop(): Promise<void>;
}

/** A loopback port nothing listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  let cleanup = async () => {};
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '0',
    DEADLINE_POLL_MS: '0',
    ...env,
  };
  let databaseUrl: string | null = null;
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL);
    childEnv.DATABASE_URL = scratch.url;
    databaseUrl = scratch.url;
    cleanup = scratch.drop;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'bke-proc-'));
    childEnv.DATA_DIR = dir;
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-20_000);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await cleanup();
      throw new Error(`the server exited with code ${child.exitCode}:\n${err}`);
    }
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health within 90 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    databaseUrl,
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => err,
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
