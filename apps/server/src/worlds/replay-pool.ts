/**
 * The threads that replay past turns for the HTTP route (replay-worker.ts). A replay plays up to
 * several game turns of orders through the engine (from the nearest kept snapshot), with a view and
 * a diff per order: on the main thread, eight anonymous replays at once held every other request
 * (health among them) for a quarter of a second. Here at most `threads` replays play at once, each
 * on a thread of its own, at most `queue` more wait, and one beyond that is refused at once with
 * `world/replay_busy` and the seconds to wait (also `Retry-After`), before anything is read.
 *
 * One pool per process, started on the first replay (a process nobody asks for a replay starts no
 * thread); idle threads do not keep a process alive. A thread that dies fails the replays it held
 * (answered http/internal) and is started again on the next.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../http/errors.ts';
import type { ReplayAnswer, ReplayAsk } from './replay-messages.ts';
import type { ReplayInput, TurnReplay } from './replay-play.ts';

export interface ReplaySettings {
  /** Replays played at once, each on a thread of its own. */
  threads: number;
  /** Replays that may wait for a thread; one more is answered `world/replay_busy`. */
  queue: number;
}

/**
 * One thread less than the cores, at least one, at most two (the password threads take the
 * others); four waiting per thread: a replay takes a fraction of a second, so a longer queue only
 * makes people wait for an answer they would sooner retry.
 */
export function defaultReplays(cores = availableParallelism()): ReplaySettings {
  const threads = Math.min(2, Math.max(1, cores - 1));
  return { threads, queue: 4 * threads };
}

/**
 * The TypeScript source when the server runs from sources; compiled, replay-worker.js beside
 * main.js (build.mjs), one folder up when this code landed in one of the bundle's shared chunks.
 */
const SCRIPT = import.meta.url.endsWith('.ts')
  ? new URL('./replay-worker.ts', import.meta.url)
  : new URL(
      import.meta.url.includes('/chunks/') ? '../replay-worker.js' : './replay-worker.js',
      import.meta.url,
    );

/** As for the rebuild's workers (range-workers.ts): the engine's states are short-lived. */
const LIMITS = { maxYoungGenerationSizeMb: 6 };

interface Waiting {
  resolve(r: TurnReplay | null): void;
  reject(e: Error): void;
}

class ReplayThread {
  readonly worker: Worker;
  readonly waiting = new Map<number, Waiting>();
  broken: Error | null = null;

  constructor(onSeconds: (s: number) => void) {
    // From sources (tests, tsx) the TypeScript worker runs through tsx's loader, registered first.
    this.worker = SCRIPT.pathname.endsWith('.ts')
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
             .then((tsx) => { tsx.register(); return import(${JSON.stringify(SCRIPT.href)}); });`,
          { eval: true, resourceLimits: LIMITS },
        )
      : new Worker(SCRIPT, { resourceLimits: LIMITS });
    this.worker.unref();
    this.worker.on('message', (a: ReplayAnswer) => {
      const w = this.waiting.get(a.id);
      this.waiting.delete(a.id);
      if ('failed' in a) w?.reject(new Error(a.failed));
      else {
        onSeconds(a.seconds);
        w?.resolve(a.replay);
      }
    });
    const fail = (e: Error) => {
      this.broken ??= e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a replay worker exited (${code})`)));
  }
}

/** What the pool has done in this process, for the metrics and the tests. */
export interface ReplayStats {
  threads: number;
  queue: number;
  /** Replays being read, waiting or playing now. */
  inFlight: number;
  /** Replays played on a thread, and refused as busy, since the process started. */
  done: number;
  busy: number;
}

let settings = defaultReplays();
let threads: ReplayThread[] = [];
let next = 1;
let inFlight = 0;
let done = 0;
let busy = 0;
/** A running mean of one replay's time on its thread (s), for the wait a busy answer suggests. */
let meanSeconds = 0.3;

/** Sets the pool's size (from the configuration); threads already started end after their replays. */
export function configureReplays(s: ReplaySettings): void {
  settings = { threads: Math.max(1, s.threads), queue: Math.max(0, s.queue) };
  const old = threads;
  threads = [];
  for (const t of old) if (t.waiting.size === 0) void t.worker.terminate();
}

export function replayStats(): ReplayStats {
  return { ...settings, inFlight, done, busy };
}

function play(input: ReplayInput): Promise<TurnReplay | null> {
  threads = threads.filter((t) => !t.broken);
  while (threads.length < settings.threads)
    threads.push(new ReplayThread((s) => (meanSeconds = 0.8 * meanSeconds + 0.2 * s)));
  const t = [...threads].sort((a, b) => a.waiting.size - b.waiting.size)[0];
  if (!t) throw new Error('no replay thread');
  const ask: ReplayAsk = { id: next++, input };
  return new Promise((resolve, reject) => {
    t.waiting.set(ask.id, { resolve, reject });
    t.worker.postMessage(ask);
  });
}

/**
 * Reads a replay's input with `read` and plays it on a thread; null when `read` finds nothing to
 * replay. Throws `world/replay_busy` (503) before reading anything when every thread and queue
 * place is taken.
 */
export async function replayOnThread(read: () => Promise<ReplayInput | null>): Promise<TurnReplay | null> {
  if (inFlight >= settings.threads + settings.queue) {
    busy++;
    const retryAfterSeconds = Math.max(1, Math.ceil((inFlight / settings.threads) * meanSeconds));
    throw new HttpError(503, 'world/replay_busy', 'The server is busy replaying turns; try again shortly.', {
      retryAfterSeconds,
    });
  }
  inFlight++;
  try {
    const input = await read();
    if (!input) return null;
    const replay = await play(input);
    done++;
    return replay;
  } finally {
    inFlight--;
  }
}
