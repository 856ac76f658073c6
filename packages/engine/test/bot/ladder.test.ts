/**
 * The arena's ladder: Bradley–Terry on the finishing order within each game (14.3.1 best-cycle
 * VP decides a pair), on the Elo scale with the mean at 1500, intervals from a bootstrap over games.
 */
import { describe, expect, it } from 'vitest';
import type { GameResult } from '../../src/bot/arena-games.ts';
import { bradleyTerry, ladder } from '../../src/bot/ladder.ts';

const game = (vp: Record<string, number>, n: number): GameResult => ({
  seed: `g${n}`,
  turns: 10,
  decisionMs: {},
  agreements: {},
  seats: Object.entries(vp).map(([contestant, bestCycleVp]) => ({
    contestant: contestant as never,
    bestCycleVp,
    average: 0,
    cycles: 1,
    kingdoms: 0,
  })),
});

describe('ladder', () => {
  it('orders contestants by who finished above whom, with the mean at 1500', () => {
    const games = Array.from({ length: 12 }, (_, i) =>
      // expert usually first, strong second, easy last; one upset in four.
      game(i % 4 === 3 ? { expert: 10, strong: 30, easy: 5 } : { expert: 40, strong: 20, easy: 5 }, i),
    );
    const r = bradleyTerry(games);
    expect(r.get('expert')!).toBeGreaterThan(r.get('strong')!);
    expect(r.get('strong')!).toBeGreaterThan(r.get('easy')!);
    expect((r.get('expert')! + r.get('strong')! + r.get('easy')!) / 3).toBeCloseTo(1500, 0);
    const rungs = ladder(games, 100);
    expect(rungs.map((x) => x.contestant)).toEqual(['expert', 'strong', 'easy']);
    for (const x of rungs) {
      expect(x.low).toBeLessThanOrEqual(x.rating + 1e-9);
      expect(x.high).toBeGreaterThanOrEqual(x.rating - 1e-9);
    }
    expect(rungs[0]!.meanBestCycleVp).toBeCloseTo((9 * 40 + 3 * 10) / 12, 5);
  });

  it('rates equals equally', () => {
    const games = Array.from({ length: 6 }, (_, i) => game(i % 2 ? { a: 1, b: 2 } : { a: 2, b: 1 }, i));
    const r = bradleyTerry(games);
    expect(r.get('a')!).toBeCloseTo(1500, 6);
    expect(r.get('b')!).toBeCloseTo(1500, 6);
  });
});
