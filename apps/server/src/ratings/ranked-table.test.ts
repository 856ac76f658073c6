/** The final table's order under each victory condition (14.3.1 best cycle, 14.3.2 average). */
import { describe, expect, it } from 'vitest';
import { isRatable, type ResultSeat, rankedTable } from './ranked-table.ts';

const seat = (playerId: string, bestCycleVp: number, totalVp: number, turnsPlayed: number): ResultSeat => ({
  playerId,
  userId: `u-${playerId}`,
  bot: null,
  bestCycleVp,
  totalVp,
  turnsPlayed,
});

describe('rankedTable', () => {
  const seats = [
    seat('p1', 120, 200, 40),
    seat('p2', 150, 150, 40),
    seat('p3', 90, 180, 30),
    seat('p4', 60, 60, 10),
  ];

  it('14.3.1: ranks by the best single cycle', () => {
    expect(rankedTable(seats, 'basic').map((e) => [e.playerId, e.rank])).toEqual([
      ['p2', 1],
      ['p1', 2],
      ['p3', 3],
      ['p4', 4],
    ]);
  });

  it('14.3.2: ranks by VP per turn played; under 20 turns ranks after every longer sample', () => {
    // p4 averages 6 VP a turn over 10 turns, above everyone, but 14.3.2 wants 20 turns for an average.
    expect(rankedTable(seats, 'advanced').map((e) => [e.playerId, e.rank, e.score])).toEqual([
      ['p3', 1, 6],
      ['p1', 2, 5],
      ['p2', 3, 3.75],
      ['p4', 4, 6],
    ]);
  });

  it('a table of bots alone, or of one seat, rates nobody', () => {
    const bots = rankedTable([seat('p1', 1, 1, 1), seat('p2', 2, 2, 2)], 'basic').map((e) => ({
      ...e,
      userId: null,
    }));
    expect(isRatable(bots)).toBe(false);
    expect(isRatable(rankedTable([seat('p1', 1, 1, 1)], 'basic'))).toBe(false);
  });
});
