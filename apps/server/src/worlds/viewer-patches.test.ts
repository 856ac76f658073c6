/**
 * Each viewer's patches of a world's latest orders: applied to the viewer's view before them, they
 * give its view after them; each is made once per version and viewer; the spectators' is the one
 * the commit made for the log; older versions than the memory holds have none.
 */
import { createEngine, type GameState, type PlayerId, simplePolicy, simSetup } from '@bke/engine';
import { applyPatch } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { diffViews } from './diff.ts';
import { ViewerPatches } from './viewer-patches.ts';

const engine = createEngine();

/** A game of `players` played by the simulator's policy: the state after each of `n` orders. */
function played(
  n: number,
  players = 2,
): { start: GameState; states: GameState[]; events: ReturnType<typeof step>[] } {
  const created = engine.createGame(simSetup('viewer-patches', players));
  if (!created.ok) throw new Error(created.error.code);
  const policy = simplePolicy('viewer-patches');
  const states: GameState[] = [];
  const events: ReturnType<typeof step>[] = [];
  let s = created.value;
  for (let i = 0; i < n; i++) {
    const p = engine.waitingFor(s)[0]!;
    const r = step(s, p, policy.choose(engine, s, p) ?? engine.timeoutOrders(s, p)[0]);
    s = r.state;
    states.push(s);
    events.push(r);
  }
  return { start: created.value, states, events };
}

function step(s: GameState, p: PlayerId, order: unknown) {
  const r = engine.applyOrder(s, p, order);
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('ViewerPatches', () => {
  it("takes each viewer's own view from one version to another, once per version and viewer", () => {
    const { start, states, events } = played(40);
    const memory = new ViewerPatches(engine, 'w', 0, start, 100);
    states.forEach((s, i) => {
      memory.push(i + 1, s, events[i]!.events);
    });
    for (const viewer of ['p1', 'p2', null] as (PlayerId | null)[]) {
      const patches = memory.patches(10, 40, viewer);
      expect(patches?.map((p) => p.to)).toEqual(Array.from({ length: 30 }, (_, i) => 11 + i));
      let view: unknown = plain(engine.view(states[9]!, viewer));
      for (const p of patches ?? []) view = applyPatch(view, p.ops);
      expect(view).toEqual(plain(engine.view(states[39]!, viewer)));
      // Asked again (another socket, a catch-up): the same messages, not new ones.
      expect(memory.patches(10, 40, viewer)?.every((p, i) => p === patches?.[i])).toBe(true);
    }
  });

  it("gives each seat exactly its own view's change, also where only that seat may look (4.5, 13.3)", () => {
    // Three players, long enough for what only one seat sees to change (a plan stays its maker's
    // until carried out, 4.5; bids are sealed, 13.3): a seat's patch, built from the spectators'
    // and the seat's own part, must be the difference of its two full views.
    const { start, states, events } = played(200, 3);
    const memory = new ViewerPatches(engine, 'w', 0, start, 200);
    states.forEach((s, i) => {
      memory.push(i + 1, s, events[i]!.events);
    });
    const seats = start.players.map((p) => p.id);
    let privateChanges = 0;
    let prev = start;
    states.forEach((s, i) => {
      const spectators = memory.patches(i, i + 1, null)![0]!.ops;
      for (const seat of seats) {
        const [patch] = memory.patches(i, i + 1, seat)!;
        const before = plain(engine.view(prev, seat));
        const after = plain(engine.view(s, seat));
        expect(applyPatch(before, patch!.ops)).toEqual(after);
        const own = diffViews(engine.view(prev, seat).realm, engine.view(s, seat).realm);
        const open = diffViews(engine.view(prev, null).realm, engine.view(s, null).realm);
        if (JSON.stringify(own) !== JSON.stringify(open)) privateChanges++;
      }
      // Nothing a seat alone may see is in what spectators get.
      expect(applyPatch(plain(engine.view(prev, null)), spectators)).toEqual(plain(engine.view(s, null)));
      prev = s;
    });
    expect(privateChanges).toBeGreaterThan(0);
  });

  it("gives spectators the commit's own patch, forgets what a failed transaction wrote, and holds only so much", () => {
    const { start, states, events } = played(12);
    const memory = new ViewerPatches(engine, 'w', 0, start, 5);
    let before = engine.view(start, null);
    states.forEach((s, i) => {
      const after = engine.view(s, null);
      memory.push(i + 1, s, events[i]!.events, diffViews(before, after));
      before = after;
    });
    expect(memory.version).toBe(12);
    expect(memory.oldest).toBe(7);
    expect(memory.patches(6, 12, null)).toBeUndefined();
    expect(memory.patches(7, 12, 'p1' as PlayerId)).toHaveLength(5);
    const spectators = memory.patches(11, 12, null)![0]!;
    expect(spectators.ops).toEqual(diffViews(engine.view(states[10]!, null), engine.view(states[11]!, null)));
    memory.truncate(10);
    expect(memory.version).toBe(10);
    expect(memory.patches(10, 12, null)).toBeUndefined();
  });
});
