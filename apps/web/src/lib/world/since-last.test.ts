import type { SinceLast } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { replayHref } from './replay-href.ts';
import { headline, lineWords, worthShowing } from './since-last.ts';

const names = {
  player: (p: unknown) => `Player ${p}`,
  area: (a: unknown) => `Area ${a}`,
  unit: (u: unknown) => `${u}`,
};

describe('since you were last here in words', () => {
  it('names the other side, the place, the odds and the result of a battle', () => {
    expect(
      lineWords(
        {
          kind: 'battle',
          turn: 4,
          seq: 90,
          role: 'defender',
          against: 'p2',
          area: 'a7',
          odds: '3-1',
          result: 'DE',
        },
        'p1',
        names,
      ),
    ).toBe('Player p2 attacked you in Area a7 at 3-1: DE.');
    expect(
      lineWords(
        { kind: 'stage', turn: 5, seq: 99, player: 'p1', stage: 'ended', reason: 'collapsed' },
        'p1',
        names,
      ),
    ).toBe('You collapsed.');
  });
  it('says how long the player was away and the VP balance, and links to the replay at the moment', () => {
    const s: SinceLast = {
      player: 'p1',
      fromVersion: 10,
      toVersion: 400,
      fromTurn: 2,
      toTurn: 12,
      turnsPassed: 10,
      vpWon: 7,
      vpLost: 2,
      lines: [],
      more: 0,
    };
    expect(headline(s)).toBe(
      '10 game turns passed (turn 2 to turn 12) since you were last here; you won 7 VP and lost 2.',
    );
    expect(replayHref('w 1', { turn: 3, seq: 41 })).toBe('#/world/w%201/replay/3/41');
  });
  it('is not shown to a seat never marked seen: its player took the seat on the page and has not left', () => {
    const s: SinceLast = {
      player: 'p1',
      fromVersion: null,
      toVersion: 12,
      fromTurn: 0,
      toTurn: 1,
      turnsPassed: 1,
      vpWon: 0,
      vpLost: 0,
      lines: [],
      more: 0,
    };
    expect(worthShowing(s)).toBe(false);
    expect(worthShowing({ ...s, fromVersion: 3 })).toBe(true);
    expect(worthShowing({ ...s, fromVersion: 3, turnsPassed: 0 })).toBe(false);
  });
});
