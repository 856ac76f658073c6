import type { AdminResultRow } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { sheetLines } from './record-sheet.ts';

describe('the turn record sheet folded from the ledger (14.3.3)', () => {
  it('puts the cycle total in column 4, turn by turn, each cycle from zero', () => {
    const lines = sheetLines([
      { playerId: 'p1', cycle: 1, turn: 2, column: 'vp', value: 6 },
      { playerId: 'p1', cycle: 1, turn: 1, column: 'vp', value: 4 },
      { playerId: 'p1', cycle: 1, turn: 2, column: 'treasury', value: 10 },
      { playerId: 'p1', cycle: 2, turn: 3, column: 'vp', value: 2 },
    ]);
    expect(lines.map((r) => [r.cycle, r.turn, r.vpTotal, r.treasury])).toEqual([
      [1, 1, 4, null],
      [1, 2, 10, 10],
      [2, 3, 2, null],
    ]);
  });

  it('gives column 2 as the gain less column 3 when only the gain was recorded', () => {
    const [line] = sheetLines([
      { playerId: 'p1', cycle: 1, turn: 4, column: 'vp', value: 9 },
      { playerId: 'p1', cycle: 1, turn: 4, column: 'other', value: 3 },
    ]);
    expect([line?.tax, line?.other, line?.vpTotal]).toEqual([6, 3, 9]);
  });

  it('joins column 11 to the line of the same player, cycle and turn, with a line of its own if needed', () => {
    const results: AdminResultRow[] = [
      {
        playerId: 'p1',
        cycle: 1,
        turn: 2,
        roll: 7,
        result: 'goodRuler',
        rebellions: [],
        becameEmpire: false,
      },
      {
        playerId: 'p1',
        cycle: 1,
        turn: 3,
        roll: 4,
        result: 'rebellion',
        rebellions: [3, 4],
        becameEmpire: false,
      },
    ];
    const lines = sheetLines([{ playerId: 'p1', cycle: 1, turn: 2, column: 'tax', value: 5 }], results);
    expect(
      lines.map((r) => [r.turn, r.tax, r.adminResult?.roll ?? null, r.adminResult?.rebellions ?? null]),
    ).toEqual([
      [2, 5, 7, []],
      [3, null, 4, [3, 4]],
    ]);
  });
});
