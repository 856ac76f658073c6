/**
 * Real server processes for the tests that need them (several processes on one database, a process
 * killed): the compiled server (`npm start`'s), built first when its sources changed, each started
 * as its own OS process on a free port, its output kept for the failure message.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../src/root.ts';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:<port> once it listens. */
  base: string;
  /** Everything it printed. */
  readonly output: string[];
  /** Waits for /api/health/ready to answer 200. */
  ready(ms?: number): Promise<void>;
  /** SIGTERM (or another signal), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

let built = false;
/** Builds apps/server/dist unless it is up to date (the stamp scripts/lib/bootstrap.mjs keeps). */
export function ensureServerBuilt(): void {
  if (built) return;
  const r = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/lib/bootstrap.mjs').then((m) => m.bootstrap({ web: false }))"],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('building the server failed');
  built = true;
}

export function startServerProcess(env: Record<string, string>): ServerProcess {
  ensureServerBuilt();
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_PRETTY: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const proc: ServerProcess = {
    child,
    base: '',
    output,
    async ready(ms = 60_000) {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${output.join('')}`);
        if (proc.base) {
          const r = await fetch(`${proc.base}/api/health/ready`).catch(() => null);
          if (r?.status === 200) return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the server was not ready within ${ms} ms:\n${output.join('')}`);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      return exited;
    },
  };
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    const m = /running at http:\/\/localhost:(\d+)/.exec(text);
    if (m) proc.base = `http://127.0.0.1:${m[1]}`;
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return proc;
}
