/**
 * Metrics 7 and 8, measured in the server's and the bare server's own processes after full
 * collections (heap plus memory outside it: buffers, sockets):
 *  #7 memory per idle game: the fixture's worlds loaded as a first subscribe loads them, against
 *     the JSON size of one world's state (≤ 3× + 20 KB); then the same worlds unloaded, and what
 *     of their memory the server still holds (≤ a quarter of what loading them took);
 *  #8 resident memory per idle connection, each a page watching a world (a spectator's
 *     subscription; on the bare Socket.IO server a socket in a room given the same view), against
 *     the bare server's (≤ 1.5×), at 1,000 connections and at 10,000 on one process.
 */
import { FIXTURE_LABEL, type FixtureName } from '../fixtures/fixture.ts';
import type { Child } from '../lib/child.ts';
import { absoluteCheck, ratioCheck } from '../lib/report.ts';
import type { Context } from './context.ts';

type Memory = { heap: number; external: number; rss: number };
const used = (m: Memory) => m.heap + m.external;

export async function idleGames(ctx: Context, name: FixtureName): Promise<void> {
  const ids = ctx.worlds[name].slice(0, ctx.settings.idleWorlds[name]).map((w) => w.worldId);
  const before = await ctx.server.request<Memory>('memory');
  await ctx.server.request('load', ids);
  const after = await ctx.server.request<Memory>('memory');
  const loaded = used(after) - used(before);
  const perGame = loaded / ids.length;
  // Nobody watches these worlds and nothing uses them: the product unloads such worlds after its
  // idle time (WORLD_IDLE_MINUTES, 10 by default), which the bench does not wait out. Unloaded here,
  // the latency steps that follow run with the heap of a server holding the worlds in play, not a
  // thousand worlds nobody looks at (a larger old generation makes the major collections, and so
  // the order→ack tail, longer); and the memory that comes back is measured.
  const unloaded = await ctx.server.request<number>('unload');
  const released = await ctx.server.request<Memory>('memory');
  const kept = (used(released) - used(before)) / loaded;
  const state = ctx.fixtures[name].stateBytes;
  ctx.checks.push(
    absoluteCheck(
      '7',
      FIXTURE_LABEL[name],
      `memory per idle game (${ids.length} games) vs 3 × state JSON (${state} B) + 20 KB`,
      perGame,
      ' B',
      { max: 3 * state + 20 * 1024 },
      {
        stateJsonBytes: state,
        rssPerGame: (after.rss - before.rss) / ids.length,
      },
    ),
  );
  // What stays after the unload: code compiled and library caches filled by the first loads (about
  // half a megabyte in a trial, however many worlds; loading and unloading the same worlds again
  // and again did not grow it further) and the collector's slack. A quarter of what loading took
  // leaves room for that at 100 worlds and still catches a cache that keeps each world's state (a
  // third or more of what a loaded world takes). Under a megabyte loaded the share is noise (it
  // came out negative): then it is a figure only.
  const releasedCheck = absoluteCheck(
    '7',
    FIXTURE_LABEL[name],
    `memory still held after unloading the ${ids.length} idle games, share of what loading took`,
    kept,
    '×',
    { max: 0.25 },
    { unloaded, loadedBytes: loaded, keptBytes: used(released) - used(before) },
  );
  ctx.checks.push(loaded >= 1_000_000 ? releasedCheck : { ...releasedCheck, target: 'info' });
}

/**
 * Resident memory per idle connection: `n` pages watching one world of the fixture — on the server
 * a spectator's subscription, on the bare Socket.IO server a socket in a room given the same full
 * view — each server as shipped (compression included). Resident memory, not the heap alone: the
 * memory a socket holds outside the heap (zlib's state, ws's buffers) is what limits a process.
 */
async function idleStep(ctx: Context, name: FixtureName, n: number) {
  const worldId = ctx.worlds[name][0]?.worldId ?? '';
  const per = async (proc: Child, url: string, target: 'server' | 'bare') => {
    const before = await proc.request<Memory>('memory');
    const held = await ctx.load.request<{ open: number; failed: number }>('idleOpen', {
      url,
      count: n,
      worldId,
      target,
    });
    const after = await proc.request<Memory>('memory');
    await ctx.load.request('idleClose');
    return {
      rss: (after.rss - before.rss) / n,
      bytes: (used(after) - used(before)) / n,
      ...held,
    };
  };
  const bare = await per(ctx.bare, ctx.bareUrl, 'bare');
  const server = await per(ctx.server, ctx.serverUrl, 'server');
  return { bare, server };
}

export async function idleConnections(ctx: Context, name: FixtureName, view: unknown): Promise<void> {
  await ctx.bare.request('view', view);
  const n = ctx.settings.idleConnections;
  const { bare, server } = await idleStep(ctx, name, n);
  ctx.checks.push(
    ratioCheck(
      '8',
      FIXTURE_LABEL[name],
      `resident memory per idle connection (${n} watching one world)`,
      server.rss,
      bare.rss,
      ' B',
      { max: 1.5 },
      { heapAndExternal: server.bytes, baselineHeapAndExternal: bare.bytes, failed: server.failed },
    ),
  );
}

/**
 * The large step: `settings.idleStep` idle pages on one process (10,000 in the full run), all of
 * them held, at a resident memory per connection within the same bound of the bare's.
 */
export async function manyIdleConnections(ctx: Context, name: FixtureName, view: unknown): Promise<void> {
  await ctx.bare.request('view', view);
  const n = ctx.settings.idleStep;
  const { bare, server } = await idleStep(ctx, name, n);
  ctx.checks.push(
    absoluteCheck(
      '8',
      FIXTURE_LABEL[name],
      `idle connections not held of ${n} on one process`,
      n - server.open,
      '',
      {
        max: 0,
      },
      { failed: server.failed, baselineOpen: bare.open },
    ),
    ratioCheck(
      '8',
      FIXTURE_LABEL[name],
      `resident memory per idle connection (${n} watching one world)`,
      server.rss,
      bare.rss,
      ' B',
      { max: 1.5 },
      { heapAndExternal: server.bytes, baselineHeapAndExternal: bare.bytes },
    ),
  );
}
