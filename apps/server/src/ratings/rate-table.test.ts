/**
 * Ratings against the published reference: the openskill.js README's worked examples of the
 * Plackett-Luce model (four newcomers finishing 4th, 1st, 3rd, 2nd; and the same four by score with
 * a tie), which the library's own tests also assert. Then what this project adds: bots anchored at
 * their ladder rating, ties shared, and an account rated once per table.
 */
import { BOT_RATINGS } from '@bke/engine/ratings';
import { describe, expect, it } from 'vitest';
import { type ResultSeat, rankedTable } from './ranked-table.ts';
import { NEWCOMER, rateTable } from './rate-table.ts';
import { botBelief, displayRating, isProvisional } from './scale.ts';

const person = (userId: string, rank: number) => ({
  playerId: `p-${userId}`,
  userId,
  bot: null,
  rank,
  score: 0,
});

describe('openskill reference examples (openskill.js README, "Artificial Ranking")', () => {
  it('four newcomers ranked 4, 1, 3, 2', () => {
    const changes = rateTable([person('a', 4), person('b', 1), person('c', 3), person('d', 2)], new Map());
    // The README's digits (mu, sigma); it prints them cut to three decimals, so each is within 0.001.
    const published: Record<string, [number, number]> = {
      a: [20.963, 8.084],
      b: [27.795, 8.263],
      c: [24.689, 8.084],
      d: [26.553, 8.179],
    };
    for (const [userId, [mu, sigma]] of Object.entries(published)) {
      const c = changes.find((x) => x.userId === userId);
      expect(Math.abs((c?.after.mu ?? 0) - mu)).toBeLessThanOrEqual(0.001);
      expect(Math.abs((c?.after.sigma ?? 0) - sigma)).toBeLessThanOrEqual(0.001);
    }
    expect(changes.every((c) => c.before.mu === NEWCOMER.mu && c.before.sigma === NEWCOMER.sigma)).toBe(true);
  });

  it('scores 37, 19, 37, 42: the tie shares a rank and a rating', () => {
    const seats: ResultSeat[] = [37, 19, 37, 42].map((vp, i) => ({
      playerId: `p${i + 1}`,
      userId: `u${i + 1}`,
      bot: null,
      bestCycleVp: vp,
      totalVp: vp,
      turnsPlayed: 30,
    }));
    const table = rankedTable(seats, 'basic');
    expect(table.map((e) => [e.playerId, e.rank])).toEqual([
      ['p4', 1],
      ['p1', 2],
      ['p3', 2],
      ['p2', 4],
    ]);
    // Published: 24.689, 22.826, 24.689, 27.795.
    const after = Object.fromEntries(rateTable(table, new Map()).map((c) => [c.userId, c.after.mu]));
    expect(after.u1).toBe(after.u3);
    for (const [u, mu] of Object.entries({ u1: 24.689, u2: 22.826, u3: 24.689, u4: 27.795 }))
      expect(Math.abs((after[u] ?? 0) - mu)).toBeLessThanOrEqual(0.001);
  });
});

describe('bots anchored at the ladder', () => {
  it('a bot level enters at its ladder rating, and the result does not move it', () => {
    const expert = BOT_RATINGS.levels.expert;
    expect(expert).toBeDefined();
    expect(displayRating(botBelief('expert').mu)).toBe(expert?.rating);
    const table = [
      person('a', 1),
      { playerId: 'p2', userId: null, bot: 'expert' as const, rank: 2, score: 0 },
    ];
    const changes = rateTable(table, new Map());
    expect(changes.map((c) => c.userId)).toEqual(['a']);
  });

  it('beating a stronger level gains more than beating a gentler one', () => {
    const beat = (bot: 'novice' | 'expert') =>
      rateTable([person('a', 1), { playerId: 'p2', userId: null, bot, rank: 2, score: 0 }], new Map())[0]
        ?.after.mu ?? 0;
    expect(beat('expert')).toBeGreaterThan(beat('novice'));
  });
});

describe('provisional ratings', () => {
  it('a newcomer is provisional; many results and a narrow belief are not', () => {
    expect(isProvisional({ ...NEWCOMER, results: 0 })).toBe(true);
    expect(isProvisional({ sigma: 6, results: 4 })).toBe(true);
    expect(isProvisional({ sigma: 7.5, results: 12 })).toBe(true);
    expect(isProvisional({ sigma: 6, results: 12 })).toBe(false);
  });
});
