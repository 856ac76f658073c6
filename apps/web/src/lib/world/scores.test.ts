import { standingOf } from '@bke/engine';
import type { AdminResultRow, GameView, SheetLine } from '@bke/protocol';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { FIXTURE_VIEW, given, player } from '../../test/fixtures.ts';
import Scores from './Scores.svelte';
import { adminResultWords, ranked, standings, vpSeries } from './scores.ts';

describe('standings', () => {
  // 14.3.2 worked example (D-14): 426 VP in 27 turns, then 191 VP in 21 turns → 12.85 per turn.
  const players = [
    player('p1', 'Alaric', 'red', {
      finished: { count: 1, bestVp: 426, totalVp: 426 },
      cycle: given({ number: 2, position: 'TURK', stage: 'kingdom', startedTurn: 30, vp: 191 }),
      turnsPlayed: 48,
    }),
    player('p2', 'Brenna', 'blue', {
      cycle: given({ number: 1, position: 'PICT', stage: 'empire', startedTurn: 1, vp: 500 }),
      turnsPlayed: 48,
    }),
  ];
  // The standings are the engine's (the server's view carries them); the screen ranks and shows them.
  const view: GameView = {
    ...FIXTURE_VIEW,
    players,
    standings: players.map((p) => standingOf(given(p))),
  };

  it('basic: the best single cycle ranks first (14.3.1)', () => {
    const r = ranked(standings(view), 'basic');
    expect(r.map((s) => [s.player.name, s.bestCycle])).toEqual([
      ['Brenna', 500],
      ['Alaric', 426],
    ]);
  });

  it('advanced: total VP over turns played (14.3.2, D-14)', () => {
    const r = ranked(standings(view), 'advanced');
    expect(r[0]?.player.name).toBe('Alaric');
    expect(r[0]?.average).toBeCloseTo(12.85, 2);
  });
});

describe('vpSeries', () => {
  it('adds the cycles up over the turns from the ledger', () => {
    const row = (turn: number, cycle: number, vpTotal: number) => ({
      player: 'p1',
      cycle,
      turn,
      tax: 0,
      other: 0,
      vpTotal,
      available: 0,
      upkeep: 0,
      purchases: 0,
      administration: 0,
      treasury: 0,
      adminPercent: null,
      adminResult: null,
    });
    const s = vpSeries([row(1, 1, 5), row(2, 1, 12), row(3, 2, 3)], []);
    expect(s).toEqual([
      {
        player: 'p1',
        points: [
          { turn: 1, vp: 5 },
          { turn: 2, vp: 12 },
          { turn: 3, vp: 15 },
        ],
      },
    ]);
  });

  it('falls back to the running totals in the event log', () => {
    const s = vpSeries(
      [],
      [
        { seq: 1, turn: 1, event: { type: 'vpGained', player: 'p2', vp: 4, total: 4 } },
        { seq: 2, turn: 2, event: { type: 'vpGained', player: 'p2', vp: 6, total: 10 } },
      ],
    );
    expect(s[0]?.points).toEqual([
      { turn: 1, vp: 4 },
      { turn: 2, vp: 10 },
    ]);
  });
});

describe('column 11: the administration result (14.3.3, 10.6.2)', () => {
  // The sheet lines the server sends for these results: column 2 recorded on the first turn only.
  const sheetOf = (rows: readonly AdminResultRow[]): SheetLine[] =>
    rows.map(({ playerId, cycle, turn, ...adminResult }) => ({
      player: playerId,
      cycle,
      turn,
      tax: turn === 2 ? 5 : null,
      other: null,
      vpTotal: 5,
      available: null,
      upkeep: null,
      purchases: null,
      administration: null,
      treasury: null,
      adminPercent: null,
      adminResult,
    }));
  const results: AdminResultRow[] = [
    { playerId: 'p1', cycle: 1, turn: 2, roll: 7, result: 'goodRuler', rebellions: [], becameEmpire: false },
    {
      playerId: 'p1',
      cycle: 1,
      turn: 3,
      roll: 4,
      result: 'rebellion',
      rebellions: [3, 4],
      becameEmpire: false,
    },
    { playerId: 'p1', cycle: 1, turn: 4, roll: 11, result: 6, rebellions: [], becameEmpire: true },
  ];

  it('puts each result in words: the roll, the result, the rebellion rolls, the empire', () => {
    expect(results.map(adminResultWords)).toEqual([
      'Rolled 7: Good Ruler',
      'Rolled 4: Rebellion, rebellion rolls 3 and 4',
      'Rolled 11: number 6, became an empire',
    ]);
    expect(adminResultWords(null)).toBe('—');
    // A rebellion without an administration roll (a capital lost, 10.3): only the rebellion roll.
    expect(adminResultWords({ roll: 0, result: 'rebellion', rebellions: [9], becameEmpire: false })).toBe(
      'No administration roll; rebellion roll 9',
    );
    // A number not yet reached by the turns in the stage: nothing happens (10.6.2).
    expect(adminResultWords({ roll: 7, result: 5, rebellions: [], becameEmpire: false })).toBe(
      'Rolled 7: number 5, no change',
    );
  });

  it('shows them in the record sheet on the Scores tab', () => {
    const ledger = sheetOf(results);
    render(Scores, { view: FIXTURE_VIEW, log: [], ledger });
    // Newest turn first.
    expect(screen.getAllByTestId('admin-result').map((c) => c.textContent)).toEqual([
      'Rolled 11: number 6, became an empire',
      'Rolled 4: Rebellion, rebellion rolls 3 and 4',
      'Rolled 7: Good Ruler',
    ]);
  });

  it('opens the record sheet over the whole window and closes it with Escape', async () => {
    const ledger = sheetOf(results);
    render(Scores, { view: FIXTURE_VIEW, log: [], ledger });
    await fireEvent.click(screen.getByTestId('sheet-wide'));
    const dialog = screen.getByRole('dialog', { name: 'Turn record sheet' });
    expect(dialog.querySelector('[data-testid="record-sheet"]')).toBeTruthy();
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
