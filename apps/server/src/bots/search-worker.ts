/**
 * A worker thread of the bot driver (search-pool.ts): runs the Expert's search over a movement
 * phase (the engine's `expertSearch`) within the budget it is handed, so that the search never
 * takes the server's main thread, where every world's queue runs. Compiled beside main.js as
 * bot-search-worker.js; loads the engine and the map, never the database.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { budget, expertSearch } from '@bke/engine';
import { getEngine } from '../worlds/engine.ts';
import type { SearchAnswer, SearchAsk } from './search-messages.ts';

const port = parentPort;
if (!port) throw new Error('bot-search-worker runs as a worker thread of the server');
const engine = getEngine();

port.on('message', (m: SearchAsk) => {
  let answer: SearchAnswer;
  try {
    const clock = budget(() => performance.now(), m.budgetMs);
    answer = { id: m.id, plan: expertSearch(engine, m.state, m.player, clock, m.seed) };
  } catch (e) {
    answer = { id: m.id, failed: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(answer);
});
