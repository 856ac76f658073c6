/**
 * Worker threads for the Expert's searches (search-worker.ts). A search takes its whole budget
 * (up to seconds in a correspondence world) on a thread of its own, so the main thread's world
 * queues, sockets and other bots go on meanwhile. Threads start on the first search; a search goes
 * to the thread with the fewest waiting; a thread that dies fails its searches (the driver then
 * plays the strong strategy for that decision) and is started again on the next.
 */
import { Worker } from 'node:worker_threads';
import type { GameState, Plan, PlayerId } from '@bke/engine';
import type { SearchAnswer, SearchAsk } from './search-messages.ts';

/**
 * The TypeScript source when the server runs from sources; compiled, bot-search-worker.js beside
 * main.js (build.mjs), one folder up when this code landed in one of the bundle's shared chunks.
 */
const SCRIPT = import.meta.url.endsWith('.ts')
  ? new URL('./search-worker.ts', import.meta.url)
  : new URL(
      import.meta.url.includes('/chunks/') ? '../bot-search-worker.js' : './bot-search-worker.js',
      import.meta.url,
    );

/** As for the rebuild's workers (worlds/range-workers.ts): the engine's states are short-lived. */
const LIMITS = { maxYoungGenerationSizeMb: 6 };

class SearchThread {
  readonly worker: Worker;
  readonly waiting = new Map<number, { resolve(p: Plan): void; reject(e: Error): void }>();
  broken: Error | null = null;

  constructor() {
    // From sources (tests, tsx) the TypeScript worker runs through tsx's loader, registered first.
    this.worker = SCRIPT.pathname.endsWith('.ts')
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
             .then((tsx) => { tsx.register(); return import(${JSON.stringify(SCRIPT.href)}); });`,
          { eval: true, resourceLimits: LIMITS },
        )
      : new Worker(SCRIPT, { resourceLimits: LIMITS });
    this.worker.unref();
    this.worker.on('message', (a: SearchAnswer) => {
      const w = this.waiting.get(a.id);
      this.waiting.delete(a.id);
      if ('failed' in a) w?.reject(new Error(a.failed));
      else w?.resolve(a.plan);
    });
    const fail = (e: Error) => {
      this.broken ??= e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a bot search worker exited (${code})`)));
  }
}

export class SearchPool {
  private threads: SearchThread[] = [];
  private next = 1;

  constructor(private readonly size: number) {}

  search(state: GameState, player: PlayerId, budgetMs: number, seed: string): Promise<Plan> {
    this.threads = this.threads.filter((t) => !t.broken);
    while (this.threads.length < Math.max(1, this.size)) this.threads.push(new SearchThread());
    const t = [...this.threads].sort((a, b) => a.waiting.size - b.waiting.size)[0]!;
    const ask: SearchAsk = { id: this.next++, state, player, budgetMs, seed };
    return new Promise((resolve, reject) => {
      t.waiting.set(ask.id, { resolve, reject });
      t.worker.postMessage(ask);
    });
  }

  async stop(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
