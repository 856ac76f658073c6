/** The arena's statistics and seat rotation, and one short seeded arena game. */
import { describe, expect, it } from 'vitest';
import { meanInterval, playArenaGame, ratioInterval, rotated } from '../../src/bot/arena-games.ts';
import { createEngine } from '../../src/index.ts';

describe('arena', () => {
  it('gives a mean with a 95% normal interval', () => {
    const i = meanInterval([1, 2, 3, 4, 5]);
    expect(i.mean).toBe(3);
    // sd = sqrt(2.5); half-width 1.96·sd/√5
    expect(i.high - i.mean).toBeCloseTo((1.96 * Math.sqrt(2.5)) / Math.sqrt(5), 9);
    expect(i.low).toBeCloseTo(3 - (i.high - 3), 9);
  });

  it('gives the ratio of paired means with a bootstrap interval around it', () => {
    const a = [10, 12, 14, 16, 18, 20];
    const b = [5, 6, 7, 8, 9, 10];
    const r = ratioInterval(a, b);
    expect(r.mean).toBe(2);
    expect(r.low).toBeCloseTo(2, 9); // every pair is exactly 2:1
    expect(r.high).toBeCloseTo(2, 9);
    const noisy = ratioInterval([10, 30, 12, 28], [10, 10, 10, 10]);
    expect(noisy.low).toBeLessThan(noisy.mean);
    expect(noisy.high).toBeGreaterThan(noisy.mean);
  });

  it('rotates seats from game to game', () => {
    expect(rotated(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotated(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
  });

  it('plays a seeded game and reports every seat with its contestant', () => {
    const engine = createEngine();
    const g = playArenaGame(engine, 'arena-test', ['strong', 'easy', 'sim'], 12);
    expect(g.turns).toBe(12);
    expect(g.seats.map((s) => s.contestant)).toEqual(['strong', 'easy', 'sim']);
    for (const s of g.seats) {
      expect(s.cycles).toBeGreaterThanOrEqual(1);
      expect(s.average).toBeGreaterThanOrEqual(0);
    }
    expect(playArenaGame(engine, 'arena-test', ['strong', 'easy', 'sim'], 12)).toEqual(g);
  }, 60_000);
});
