/**
 * The soak's server: the compiled server (`npm start`'s apps/server/dist/main.js) in this very
 * process, started with --expose-gc and an IPC channel to the soak, which asks for a sample at
 * each interval. A sample is what only the process itself can tell: resident memory, the heap
 * right after a full collection, the memory V8 tracks outside its heap (Buffers, ArrayBuffers and
 * what native code such as zlib reports to it), the event-loop delay since the last sample (measured before the
 * collection, which pauses the loop itself) and the open handles by kind.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

process.on('message', (m) => {
  if (m?.type !== 'sample') return;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const loop = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) };
  globalThis.gc?.();
  const mem = process.memoryUsage();
  const handles = {};
  for (const kind of process.getActiveResourcesInfo()) handles[kind] = (handles[kind] ?? 0) + 1;
  process.send?.({
    type: 'sample',
    rss: mem.rss,
    heapAfterGc: mem.heapUsed,
    external: mem.external,
    loop,
    handles,
  });
  delay.reset();
});
// The soak's stop request: the server's own SIGTERM handling (main.ts) shuts it down cleanly.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

await import(new URL('../../apps/server/dist/main.js', import.meta.url).href);
