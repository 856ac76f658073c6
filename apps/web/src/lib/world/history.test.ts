import { describe, expect, it } from 'vitest';
import { FIXTURE_VIEW, given } from '../../test/fixtures.ts';
import { chronicleOfCycles, lastTurnSummary, logByTurn } from './history.ts';
import type { LoggedEvent } from './link.ts';

const names = {
  player: (id: unknown) => ({ p1: 'Alaric', p2: 'Brenna' })[String(id)] ?? String(id),
  area: (id: unknown) => String(id),
  unit: () => 'tribe',
};

const log: LoggedEvent[] = [
  {
    seq: 1,
    turn: 1,
    event: { type: 'cycleStarted', player: 'p1', position: 'HUN', area: 'alani', cycle: 1 },
  },
  { seq: 2, turn: 1, event: { type: 'phaseStarted', player: 'p1', phase: 'movement' } },
  { seq: 3, turn: 1, event: { type: 'vpGained', player: 'p1', vp: 3, total: 3 } },
  { seq: 4, turn: 1, event: { type: 'turnEnded', turn: 1 } },
  {
    seq: 5,
    turn: 2,
    event: given({
      type: 'combatResolved',
      attacker: 'p1',
      defender: null,
      target: 'x',
      odds: '1-1',
      dice: [3, 3],
      result: 'DE',
    }),
  },
];

describe('history', () => {
  it('groups sentences by turn, newest turn first, leaving out bookkeeping', () => {
    const turns = logByTurn(log, names);
    expect(turns.map((t) => t.turn)).toEqual([2, 1]);
    expect(turns[1]?.lines.map((l) => l.seq)).toEqual([1, 3, 4]);
  });

  it('summarises the last finished turn', () => {
    const s = lastTurnSummary(log, FIXTURE_VIEW, names);
    expect(s?.turn).toBe(1);
    expect(s?.vp).toEqual([{ player: 'Alaric', vp: 3 }]);
    expect(s?.milestones[0]).toContain('raises a new horde at HUN');
  });

  it('tells the rise and fall of each cycle in order', () => {
    const lines = chronicleOfCycles(
      [
        {
          playerId: 'p2',
          number: 1,
          position: 'PICT',
          startTurn: 3,
          kingdomTurn: 9,
          empireTurn: null,
          endTurn: 12,
          endReason: 'abandoned',
          vp: 40,
        },
        {
          playerId: 'p1',
          number: 1,
          position: 'HUN',
          startTurn: 1,
          kingdomTurn: null,
          empireTurn: null,
          endTurn: null,
          endReason: null,
          vp: 5,
        },
      ],
      names,
    );
    expect(lines.map((l) => l.turn)).toEqual([1, 3, 9, 12]);
    expect(lines[3]?.text).toBe('The PICT realm of Brenna was abandoned, with 40 victory points.');
  });
});
