/**
 * The benchmark's processes talk over Node's IPC channel: the parent sends `{ id, type, payload }`,
 * the child answers `{ id, ok, value | error }`. Each child is started with `fork`, so the server
 * under test, the bare baseline and the load generator never share an event loop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../scripts/lib/server-flags.mjs';

interface Request {
  id: number;
  type: string;
  payload: unknown;
}
interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface Child {
  readonly name: string;
  readonly pid: number;
  request<T = unknown>(type: string, payload?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** The name the server under test's child goes by. */
export const SERVER_UNDER_TEST = 'server under test';

/** The name of the server under test's `n`th process when the site runs several (n from 2). */
export const serverProcess = (n: number) => `${SERVER_UNDER_TEST}, process ${n}`;

const isServer = (name: string) => name === SERVER_UNDER_TEST || name.startsWith(`${SERVER_UNDER_TEST},`);

/** Forks `script` (TypeScript, through tsx) with the garbage collector exposed (memory metrics). */
export function startChild(name: string, script: string, env: Record<string, string> = {}): Child {
  // BENCH_CPU_PROFILE=<folder>: the server under test writes a V8 CPU profile there when it stops
  // (open it in Chrome's DevTools), to see where its time per order goes.
  const profile = process.env.BENCH_CPU_PROFILE?.trim();
  const profiled = profile && isServer(name) ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  // The server under test runs with the flags the product's server runs with.
  const serverFlags = isServer(name) ? SERVER_NODE_FLAGS : [];
  const proc: ChildProcess = fork(script, [], {
    execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=3072', ...serverFlags, ...profiled],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let exited: Error | null = null;
  proc.on('message', (m: Reply) => {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.ok) w.resolve(m.value);
    else w.reject(new Error(`${name}: ${m.error}`));
  });
  proc.on('exit', (code, signal) => {
    exited = new Error(`${name} exited (${code ?? signal})`);
    for (const w of waiting.values()) w.reject(exited);
    waiting.clear();
  });
  return {
    name,
    pid: proc.pid ?? -1,
    request<T>(type: string, payload?: unknown) {
      if (exited) return Promise.reject(exited);
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        proc.send({ id, type, payload } satisfies Request);
      });
    },
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.send({ id: 0, type: 'exit', payload: null });
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

type Handler = (payload: never) => unknown;

/** In a child: answers the parent's requests with `handlers`; `exit` runs `onExit` and ends the process. */
export function serve(handlers: Record<string, Handler>, onExit: () => Promise<void> = async () => {}): void {
  if (!process.send) throw new Error('this script runs as a child of bench/run.ts');
  process.on('message', async (m: Request) => {
    if (m.type === 'exit') {
      await onExit().catch(() => {});
      process.exit(0);
    }
    const h = handlers[m.type];
    try {
      if (!h) throw new Error(`unknown request ${m.type}`);
      const value = await h(m.payload as never);
      process.send?.({ id: m.id, ok: true, value } satisfies Reply);
    } catch (e) {
      process.send?.({ id: m.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

/** CPU time of this process in milliseconds (user + system), from `process.cpuUsage()`. */
export const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Heap and outside-heap memory after a full collection (bytes); needs --expose-gc. */
function settledMemory(): { heap: number; external: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external + m.arrayBuffers, rss: m.rss };
}

/**
 * Event-loop delay samples: a timer due every `everyMs` records how late it fired. Raw samples
 * (not Node's histogram) so that rounds can be pooled like every other figure.
 */
class LoopDelay {
  private samples: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  start(everyMs = 5): void {
    this.stop();
    this.samples = [];
    let due = performance.now() + everyMs;
    const tick = () => {
      const now = performance.now();
      this.samples.push(Math.max(0, now - due));
      due = now + everyMs;
      this.timer = setTimeout(tick, everyMs);
    };
    this.timer = setTimeout(tick, everyMs);
  }
  stop(): number[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.samples;
  }
}

/** The requests every measured process answers: its CPU time, its memory, its event-loop delay. */
export function probeHandlers(): Record<string, Handler> {
  const loop = new LoopDelay();
  return {
    cpu: () => cpuMs(),
    memory: () => settledMemory(),
    loopStart: () => loop.start(),
    loopStop: () => loop.stop(),
  };
}
