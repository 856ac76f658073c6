// @vitest-environment node
import { completeRecordOf, type GameState, simSetup, simulate } from '@bke/engine';
import { describe, expect, it } from 'vitest';
import { engine, freshSeed, startingGame } from './sandbox.ts';

const setup = simSetup('board-record', 3);
const run = simulate(engine, { ...setup }, 2);
const created = engine.createGame(setup);
if (!created.ok) throw new Error(created.error.code);
const full = created.value as GameState;
const record = completeRecordOf(
  engine,
  { ...setup, rulesVersion: full.rulesVersion, options: full.options } as never,
  run.log,
  run.final,
);

describe("the board's starting game", () => {
  it("plays a complete record up to an order, and starts from a spectator's view of it", () => {
    const upTo = Math.floor(run.log.length / 2);
    const r = startingGame({ kind: 'record', record, upTo }, 'seed-a');
    if (!r.ok) throw new Error(r.error.message);
    let state = created.value as GameState;
    for (const o of run.log.slice(0, upTo)) {
      const a = engine.applyOrder(state, o.actor, o.order);
      if (!a.ok) throw new Error(a.error.code);
      state = a.value.state;
    }
    // The same board, as a spectator sees it (who may take back is the world's undo window, which the board has not).
    const seen = (g: GameState) => ({ ...engine.view(g, null), canUndo: [] });
    expect(engine.hash(seen(r.value) as never)).toBe(engine.hash(seen(state) as never));
    // The record's own dice stay in the record: the board rolls from its own seed.
    expect(r.value.rng).not.toEqual(state.rng);
  });

  it('refuses a record that is not complete, and a link that is garbage, by code', () => {
    const viewer = { ...record, kind: 'viewer' };
    const a = startingGame({ kind: 'record', record: viewer, upTo: 3 }, 's');
    expect(a.ok ? 'opened' : a.error.code).toBe('position/unplayable');
    const b = startingGame({ kind: 'link', raw: { format: 'bke-position', version: 1, position: {} } }, 's');
    expect(b.ok ? 'opened' : b.error.code).toBe('position/invalid');
  });

  it('draws a fresh seed for each board', () => {
    expect(freshSeed()).toMatch(/^[0-9a-f]{12}$/);
    expect(freshSeed()).not.toBe(freshSeed());
  });
});
