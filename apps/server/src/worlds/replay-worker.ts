/**
 * A replay thread of the server (replay-pool.ts): plays the past turns it is handed, one after
 * another (replay-play.ts), so that a turn's orders through the engine never take the main thread.
 * Compiled beside main.js as replay-worker.js; loads the engine and the map, never the database.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { getEngine } from './engine.ts';
import type { ReplayAnswer, ReplayAsk } from './replay-messages.ts';
import { playReplay } from './replay-play.ts';

const port = parentPort;
if (!port) throw new Error('replay-worker runs as a worker thread of the server');
const engine = getEngine();

port.on('message', (m: ReplayAsk) => {
  const began = performance.now();
  playReplay(engine, m.input).then(
    (replay) =>
      port.postMessage({
        id: m.id,
        replay,
        seconds: (performance.now() - began) / 1000,
      } satisfies ReplayAnswer),
    (e: unknown) =>
      port.postMessage({
        id: m.id,
        failed: e instanceof Error ? e.message : String(e),
      } satisfies ReplayAnswer),
  );
});
