/**
 * A world that runs for weeks: the state holds the present, not the past. Its size depends on the
 * board and the players, never on the turn number (the record sheet's rows and the finished cycles
 * leave it as events; 14.3.3, 14.3.1–14.3.2 read running totals). Sizes only, no timing. Some
 * 90,000 orders take minutes on a busy machine, so this runs with the integration tests.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, simSetup, simulate } from '../../src/index.ts';

describe('a long game on the real map', () => {
  it('6 players × 2,000 turns: the state is at most 60 KB at turn 300 and no more than 1.2× that at turn 2,000', () => {
    const engine = createEngine();
    const bytes = new Map<number, number>();
    let cycles = 0;
    const run = simulate(engine, simSetup('long-world', 6), 2000, undefined, undefined, (s) => {
      if (!bytes.has(s.turn)) bytes.set(s.turn, JSON.stringify(s).length);
    });
    for (const p of run.final.players) cycles += p.finished.count;
    const at300 = bytes.get(300)!;
    const at2000 = bytes.get(2000)!;
    expect(run.summary.turnsPlayed).toBe(2000);
    // Many cycles ended on the way: their history would have grown the state.
    expect(cycles).toBeGreaterThan(100);
    expect(at300).toBeLessThanOrEqual(60_000);
    expect(at2000).toBeLessThanOrEqual(1.2 * at300);
  }, 900_000);
});
