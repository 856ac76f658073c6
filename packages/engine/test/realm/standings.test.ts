/**
 * Standings under both victory conditions (14.3.1 best single cycle, 14.3.2 VP per turn played),
 * as the engine computes them for every view.
 */
import { describe, expect, it } from 'vitest';
import { asPlayerId, createEngine, NO_FINISHED_CYCLES, simSetup, standingOf } from '../../src/index.ts';

const alaric = {
  id: asPlayerId('p1'),
  // D-14: 426 VP over 27 turns in a first cycle, then 191 VP so far over 21 turns in a second.
  finished: { count: 1, bestVp: 426, totalVp: 426 },
  cycle: { vp: 191 },
  turnsPlayed: 48,
};

describe('standings (14.3.1, 14.3.2)', () => {
  it('keeps the best single cycle and the VP per turn played (D-14: 12.85)', () => {
    const s = standingOf(alaric);
    expect(s).toMatchObject({ player: 'p1', bestCycle: 426, totalVp: 617, turnsPlayed: 48 });
    expect(s.average).toBeCloseTo(12.854, 3);
  });

  it('leaves a running cycle out when incomplete cycles do not count (AMBIG-56)', () => {
    const s = standingOf({ ...alaric, cycle: { vp: 500 } }, false);
    expect(s.bestCycle).toBe(426);
    expect(s.totalVp).toBe(426);
  });

  it('has no average before the first turn played', () => {
    expect(
      standingOf({ id: asPlayerId('p2'), finished: NO_FINISHED_CYCLES, cycle: null, turnsPlayed: 0 }),
    ).toEqual({
      player: 'p2',
      bestCycle: 0,
      totalVp: 0,
      turnsPlayed: 0,
      average: null,
    });
  });

  it('is carried in every view, one per player in seat order', () => {
    const engine = createEngine();
    const created = engine.createGame(simSetup('standings', 3));
    if (!created.ok) throw new Error(created.error.code);
    const view = engine.view(created.value, null);
    expect(view.standings.map((s) => s.player)).toEqual(created.value.players.map((p) => p.id));
    expect(view.standings).toEqual(created.value.players.map((p) => standingOf(p)));
  });
});
