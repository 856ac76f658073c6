import { describe, expect, it } from 'vitest';
import { newlyWaitedFor, timeLeft, turnMessage } from './turns.ts';

describe('turn messages', () => {
  it('say the time left in words a player reads at a glance', () => {
    expect(timeLeft(-5)).toBe('0 s');
    expect(timeLeft(50_000)).toBe('50 s');
    expect(timeLeft(40 * 60_000)).toBe('40 min');
    expect(timeLeft(3 * 3600_000 + 12 * 60_000)).toBe('3 h 12 min');
    expect(timeLeft(4 * 3600_000)).toBe('4 h');
    expect(timeLeft(5 * 86_400_000)).toBe('5 days');
  });

  it('name the world, the turn, the step, the deadline and link to the world', () => {
    const state = { turn: 7, step: { kind: 'playerTurn', player: 'p2', phase: 'movement' } } as never;
    const m = turnMessage(
      { id: 'w 1', name: 'Long Winter' },
      state,
      new Date('2026-11-22T08:30:00Z'),
      'https://bke.example.org/',
    );
    expect(m.text).toBe(
      'Your move in Long Winter: turn 7, movement. Deadline 2026-11-22 08:30 UTC. https://bke.example.org/#/world/w%201',
    );
    expect(m.data).toMatchObject({
      turn: 7,
      step: 'playerTurn',
      url: 'https://bke.example.org/#/world/w%201',
    });
    expect(turnMessage({ id: 'w', name: 'X' }, state, null, null).text).toBe(
      'Your move in X: turn 7, movement.',
    );
  });

  it('tell a player of a wait that began after they were in the world, not of the one their joining began', () => {
    const players = (...ids: string[]) => ({ players: ids.map((id) => ({ id })) }) as never;
    // The creator's join began the first turn: the page they are opening shows their move.
    expect(newlyWaitedFor(new Set(['p1']), new Set(), players())).toEqual([]);
    // A later step waits for p1 and p2 again; p1 was waited for already.
    expect(newlyWaitedFor(new Set(['p1', 'p2']), new Set(['p1']), players('p1', 'p2'))).toEqual(['p2']);
    // The state before the commit is no longer held: everyone newly waited for is told.
    expect(newlyWaitedFor(new Set(['p1', 'p2']), new Set(), undefined)).toEqual(['p1', 'p2']);
  });
});
