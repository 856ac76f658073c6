import { describe, expect, it } from 'vitest';
import {
  allLines,
  back,
  canBack,
  canForward,
  current,
  forward,
  goTo,
  lineShown,
  type Move,
  play,
  startLines,
} from './lines.ts';

const move = (order: string, dice: number[] | null = null): Move<string> => ({ actor: 'p1', order, dice });

describe("the analysis board's lines", () => {
  it('plays forward, steps back and forward again along the same line', () => {
    let l = startLines<string, string>('start');
    l = play(l, move('a'), 'A', []);
    l = play(l, move('b'), 'AB', []);
    expect(current(l).state).toBe('AB');
    expect(canForward(l)).toBe(false);
    l = back(back(l));
    expect(current(l).state).toBe('start');
    expect(canBack(l)).toBe(false);
    l = forward(l);
    expect(current(l).state).toBe('A');
    l = forward(l);
    expect(current(l).state).toBe('AB');
    expect(allLines(l)).toHaveLength(1);
  });

  it('branches when another move is played from a position that has a continuation', () => {
    let l = startLines<string, string>('start');
    l = play(l, move('attack', [6, 6]), 'won', []);
    l = back(l);
    l = play(l, move('attack', [1, 1]), 'lost', []);
    expect(allLines(l).map((n) => n.state)).toEqual(['won', 'lost']);
    // Forward from the start now follows the line last played.
    l = forward(back(l));
    expect(current(l).state).toBe('lost');
    // Switching to the other line, then stepping back and forward, stays on it.
    l = goTo(l, allLines(l)[0]!.id);
    expect(current(l).state).toBe('won');
    l = forward(back(l));
    expect(current(l).state).toBe('won');
    expect(lineShown(l).map((n) => n.state)).toEqual(['start', 'won']);
  });

  it('walks an existing line when the same move (same dice) is played again, instead of doubling it', () => {
    let l = startLines<string, string>('start');
    l = play(l, move('a', [3, 4]), 'A', []);
    l = back(l);
    l = play(l, move('a', [3, 4]), 'A again', []);
    expect(l.nodes).toHaveLength(2);
    expect(current(l).state).toBe('A');
    l = back(l);
    l = play(l, move('a', [4, 3]), 'A other dice', []);
    expect(l.nodes).toHaveLength(3);
  });

  it('shows the whole line through a position stepped back to', () => {
    let l = startLines<string, string>('s');
    l = play(l, move('a'), 'A', []);
    l = play(l, move('b'), 'AB', []);
    l = back(l);
    expect(lineShown(l).map((n) => n.state)).toEqual(['s', 'A', 'AB']);
    expect(() => goTo(l, 99)).toThrow();
  });
});
