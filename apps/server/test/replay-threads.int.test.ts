/**
 * Past turns are replayed on the server's replay threads, never on its main thread, where every
 * request, socket and world queue runs: while replays are answered over HTTP, the main thread's
 * engine plays no order at all, and what the thread answers is what the replay in place gives (the
 * same views for the same viewer: nothing more is shown). The threads take a bounded number of
 * replays: one beyond them is refused at once with `world/replay_busy`, its wait in the body and in
 * `Retry-After`.
 *
 * Why no timing: on a shared machine a wall-clock bound on health's answer measures the machine's
 * load as much as the server. Counting the engine's orders played on this thread (the in-process
 * server's main thread) says structurally whether a replay can hold it.
 */
import { simplePolicy } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../src/app.ts';
import { getEngine } from '../src/worlds/engine.ts';
import { replayTurn } from '../src/worlds/replay.ts';
import { configureReplays, replayStats } from '../src/worlds/replay-pool.ts';
import { serveApp } from './helpers/app.ts';
import { playBots, worldOfBots } from './helpers/bot-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let worldId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { replays: { burst: 1000, perMinute: 6000 } },
    replays: { threads: 1, queue: 2 },
    // The bots' seats are played by the test (playBots), so no order is played here meanwhile.
    bots: false,
  }));
  ({ worldId } = await worldOfBots(t.db, app.hub, {
    account: 'archivist',
    name: 'Replayed on threads',
    seed: 'replay-threads',
    victory: 'basic',
    level: 'easy',
  }));
  await playBots(app.hub, worldId, simplePolicy('threads'), (turn) => turn >= 4);
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const replay = async (turn: number) => {
  const r = await fetch(`${base}/api/worlds/${worldId}/replay/${turn}`);
  return {
    status: r.status,
    retryAfter: r.headers.get('retry-after'),
    body: (await r.json()) as {
      error?: { code: string; retryAfterSeconds?: number };
    },
  };
};

describe('replays of past turns', () => {
  it('play on a replay thread: the main thread plays no order, and the answer is the replay in place', async () => {
    const expected = await Promise.all(
      [1, 2, 3].map((turn) => replayTurn(t.db, app.hub.engine, worldId, turn, [])),
    );
    for (const e of expected) expect(e?.steps.length).toBeGreaterThan(0);
    const before = replayStats().done;
    // Calls through to the engine: it only counts the orders this thread plays.
    const played = vi.spyOn(getEngine(), 'applyOrder');
    try {
      const answers = await Promise.all([1, 2, 3].map(replay));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map((a) => a.body)).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(played).not.toHaveBeenCalled();
    } finally {
      played.mockRestore();
    }
    expect(replayStats().done - before).toBe(3);
  });

  it('refuses a replay beyond the threads and their queue with world/replay_busy and Retry-After', async () => {
    // A fresh pool: its thread starts with the first replay, so the burst arrives while it loads.
    configureReplays({ threads: 1, queue: 0 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => replay(2)));
    const busy = answers.filter((a) => a.status === 503);
    const served = answers.filter((a) => a.status === 200);
    expect(busy.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(0);
    for (const b of busy) {
      expect(b.body.error).toMatchObject({
        code: 'world/replay_busy',
        retryAfterSeconds: expect.any(Number),
      });
      expect(b.retryAfter).toBe(String(b.body.error?.retryAfterSeconds));
    }
    const expected = JSON.parse(JSON.stringify(await replayTurn(t.db, app.hub.engine, worldId, 2, [])));
    for (const s of served) expect(s.body).toEqual(expected);
    // Once the burst is over, replays are served again.
    expect((await replay(2)).status).toBe(200);
  });

  it('answers a turn the world never began as not found, on the thread or not', async () => {
    const r = await replay(999);
    expect(r.status).toBe(404);
    expect(r.body.error?.code).toBe('world/not_found');
  });
});
