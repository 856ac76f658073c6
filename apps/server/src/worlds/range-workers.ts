/**
 * The worker threads of a rebuild that replays stretches of a log side by side
 * (rebuild-parallel.ts), answering each message in turn (rebuild-range.ts says what). Started once
 * per command, before the database is even open, so that they load the engine and the map while
 * this thread connects; every world of `--all` reuses them.
 */
import { Worker } from 'node:worker_threads';
import type { RangeAnswer, RangeMessage } from './rebuild-range.ts';

/**
 * A worker's young generation, where the engine's short-lived states are made and collected: V8
 * would grow it to 48 MB per thread. At 6 MB, a 300-turn world's rebuild peaked at about 175 MB of
 * resident memory with two workers (about 235 MB unbounded), as fast within the noise.
 */
const LIMITS = { maxYoungGenerationSizeMb: 6 };

export class RangeWorker {
  private readonly worker: Worker;
  /** Those waiting for an answer, in the order they asked: the worker answers each message in turn. */
  private readonly waiting: { resolve(a: RangeAnswer): void; reject(e: Error): void }[] = [];
  private broken: Error | null = null;

  constructor(script: URL) {
    // The sources (tests, `tsx`) run the TypeScript worker through tsx's loader, registered in the
    // worker first; the compiled rebuild-worker.js needs nothing.
    this.worker = script.pathname.endsWith('.ts')
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
             .then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); });`,
          { eval: true, resourceLimits: LIMITS },
        )
      : new Worker(script, { resourceLimits: LIMITS });
    this.worker.on('message', (a: RangeAnswer) => {
      const w = this.waiting.shift();
      if (a.type === 'failed') w?.reject(new Error(a.message));
      else w?.resolve(a);
    });
    const fail = (e: Error) => {
      this.broken ??= e;
      for (const w of this.waiting.splice(0)) w.reject(e);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a rebuild worker exited (${code})`)));
  }

  /**
   * Sends `m`; resolves with the worker's answer to it, rejects when the worker fails or is gone.
   * Several may be under way: a page is sent while the one before it replays, so the worker never
   * waits for this thread between two pages.
   */
  request(m: RangeMessage): Promise<RangeAnswer> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(m);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** `count` workers running `script` (cli/rebuild-worker.ts, or rebuild-worker.js compiled beside rebuild.js). */
export function startRangeWorkers(count: number, script: URL): RangeWorker[] {
  return Array.from({ length: Math.max(1, count) }, () => new RangeWorker(script));
}

export async function stopRangeWorkers(workers: readonly RangeWorker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.stop()));
}
