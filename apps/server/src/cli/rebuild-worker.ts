/**
 * A worker thread of `npm run rebuild` (worlds/rebuild-parallel.ts): replays the stretches of a
 * world's log it is handed, one after another (worlds/rebuild-range.ts). Compiled beside rebuild.js
 * as rebuild-worker.js; loads the engine and the map, never the database.
 */
import { parentPort } from 'node:worker_threads';
import { getEngine } from '../worlds/engine.ts';
import { type RangeAnswer, type RangeMessage, RangeReplay } from '../worlds/rebuild-range.ts';

const port = parentPort;
if (!port) throw new Error('rebuild-worker runs as a worker thread of npm run rebuild');
const engine = getEngine();
let range: RangeReplay | null = null;
const answer = (a: RangeAnswer) => port.postMessage(a);

port.on('message', (m: RangeMessage) => {
  void (async () => {
    try {
      if (m.type === 'start') {
        range = new RangeReplay(engine, m.worldId, m);
        answer({ type: 'started' });
      } else if (!range) throw new Error(`${m.type} before a stretch started`);
      else if (m.type === 'page') {
        await range.page(m.rows, m.snapshots);
        answer({ type: 'paged' });
      } else {
        answer({ type: 'ended', result: range.end(m.last) });
        range = null;
      }
    } catch (e) {
      range = null;
      answer({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  })();
});
