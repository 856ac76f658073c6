import type { WorldEvent } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { botReport } from './bot-report.ts';

const names = {
  player: (p: unknown) => (p === 'p1' ? 'Ana' : String(p)),
  area: (a: unknown) => (a === 'dacia' ? 'Dacia' : String(a)),
  unit: () => 'tribe',
};

describe('what a bot did for me', () => {
  it('tells each order by its events in the History words, never by ids', () => {
    const lines = botReport(
      [
        {
          seq: 7,
          turn: 3,
          bot: 'easy',
          order: { type: 'move' },
          events: [
            { type: 'unitMoved', player: 'p1', unit: 'u491', path: ['dacia'] } as unknown as WorldEvent,
          ],
        },
        { seq: 8, turn: 3, bot: 'easy', order: { type: 'endPhase' }, events: [] },
      ],
      names,
    );
    expect(lines.map((l) => `${l.turn}: ${l.text}`)).toEqual([
      '3: Ana moved tribe to Dacia.',
      '3: Ended the phase.',
    ]);
    expect(lines.some((l) => l.text.includes('u491'))).toBe(false);
  });
});
