/**
 * The threads that hash passwords (piscina): a few worker threads, each running one scrypt at a
 * time, with a bounded queue in front of them. Node's own `crypto.scrypt` runs on libuv's four
 * threads, shared with file reads (static files), DNS and zlib: a handful of log-ins there held a
 * static file for seconds. Here hashing has threads of its own, at most `threads` hashes run at
 * once, at most `queue` wait, and a hash beyond that is refused at once with `auth/busy` and the
 * seconds to wait, instead of piling up behind the others.
 *
 * One pool per process, like the libuv pool it replaces: log-ins, resets, sign-ups and the admin
 * command all hash through it, and it starts on the first hash (a process that never hashes starts
 * no thread). Idle threads do not keep a process alive.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { HttpError } from '../http/errors.ts';

export interface HashingSettings {
  /** Hashes run at once, each on a thread of its own (each scrypt at OWASP's cost takes 128 MiB). */
  threads: number;
  /** Hashes that may wait for a thread; one more is answered `auth/busy`. */
  queue: number;
}

/**
 * One thread less than the cores (the event loop keeps one), at least two (libuv gave scrypt four:
 * on two cores one thread halved how many sign-ups a second got through), at most four: four
 * hashes at once already take 512 MiB. Thirty-two waiting per thread is about ten seconds of wait
 * at a third of a second per hash: a dozen people signing up at once still get in, and beyond
 * that a "try again in n seconds" is better than a log-in that seems to hang.
 */
export function defaultHashing(cores = availableParallelism()): HashingSettings {
  const threads = Math.min(4, Math.max(2, cores - 1));
  return { threads, queue: 32 * threads };
}

export interface ScryptTask {
  password: string;
  salt: Uint8Array;
  n: number;
  r: number;
  p: number;
  keylen: number;
  maxmem: number;
}

/** What the pool has done in this process, for the metrics and the tests. */
export interface HashingStats {
  threads: number;
  queue: number;
  /** Hashes running or waiting now. */
  inFlight: number;
  /** Hashes finished (verified or made), and refused as busy, since the process started. */
  done: number;
  busy: number;
}

/**
 * The worker's file: beside this one in the sources; in the build (build.mjs copies it to dist/),
 * this code may sit in dist/ itself or in a chunk under dist/chunks/.
 */
function workerFile(): string {
  const candidates = ['./scrypt-worker.mjs', '../scrypt-worker.mjs'].map((f) => new URL(f, import.meta.url));
  const found = candidates.find((u) => existsSync(u));
  if (!found)
    throw new Error('scrypt-worker.mjs is missing beside the server (apps/server/build.mjs copies it)');
  return fileURLToPath(found);
}

let settings = defaultHashing();
let pool: Piscina | null = null;
let inFlight = 0;
let done = 0;
let busy = 0;
/** A running mean of one hash's time on its thread (s), for the wait a busy answer suggests. */
let meanSeconds = 0.5;

/** Sets the pool's size (from the configuration); a pool already started ends after its hashes. */
export function configureHashing(s: HashingSettings): void {
  settings = { threads: Math.max(1, s.threads), queue: Math.max(0, s.queue) };
  const old = pool;
  pool = null;
  void old?.close();
}

export function hashingStats(): HashingStats {
  return { ...settings, inFlight, done, busy };
}

/** Runs one scrypt on the pool; throws `auth/busy` (503) when every thread and queue place is taken. */
export async function runScrypt(task: ScryptTask): Promise<Buffer> {
  if (inFlight >= settings.threads + settings.queue) {
    busy++;
    const retryAfterSeconds = Math.max(1, Math.ceil((inFlight / settings.threads) * meanSeconds));
    throw new HttpError(503, 'auth/busy', 'The server is busy checking passwords; try again shortly.', {
      retryAfterSeconds,
    });
  }
  pool ??= new Piscina({
    filename: workerFile(),
    minThreads: settings.threads,
    maxThreads: settings.threads,
    concurrentTasksPerWorker: 1,
    // The admission above keeps the queue within this; piscina's own bound is the backstop.
    maxQueue: Math.max(1, settings.queue),
    idleTimeout: 60_000,
  });
  inFlight++;
  try {
    const { key, seconds }: { key: Uint8Array; seconds: number } = await pool.run(task);
    done++;
    meanSeconds = 0.8 * meanSeconds + 0.2 * seconds;
    return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  } finally {
    inFlight--;
  }
}
