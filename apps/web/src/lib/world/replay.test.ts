import { describe, expect, it } from 'vitest';
import type { Names } from './history.ts';
import type { LoggedEvent } from './link.ts';
import { replaySteps, replayTurns } from './replay.ts';

const names: Names = {
  area: (a) => String(a).toUpperCase(),
  player: (p) => (p == null ? 'someone' : `P-${String(p)}`),
  unit: () => 'tribe',
};

const log: LoggedEvent[] = [
  {
    seq: 1,
    turn: 1,
    event: { type: 'unitMoved', player: 'p1', unit: 'u1', path: ['cherusci', 'hermunduri'] },
  },
  {
    seq: 2,
    turn: 1,
    event: { type: 'tribeSplit', player: 'p1', tribe: 'u2', newTribe: 'u5', area: 'chatti' },
  },
  { seq: 3, turn: 1, event: { type: 'combatPhaseEnded', player: 'p1' } },
  { seq: 4, turn: 2, event: { type: 'unitMoved', player: 'p2', unit: 'u7', path: ['semnones'] } },
];

describe('replay of a turn', () => {
  it('lists the turns newest first and tells one turn step by step, where each happened', () => {
    expect(replayTurns(log)).toEqual([2, 1]);
    const steps = replaySteps(log, 1, names);
    // Events with no words (the end of a combat phase) are not steps.
    expect(steps.map((s) => s.seq)).toEqual([1, 2]);
    expect(steps[0]?.text).toBe('P-p1 moved tribe to HERMUNDURI.');
    expect(steps[0]?.highlight.route).toEqual({ from: 'cherusci', path: ['hermunduri'] });
    expect(steps[0]?.areas).toEqual(['cherusci', 'hermunduri']);
    expect(steps[1]?.highlight).toEqual({ selectedArea: 'chatti' });
  });

  it('shows only what the viewer was sent: a turn of another viewer’s log is not invented', () => {
    expect(replaySteps(log, 2, names).map((s) => s.text)).toEqual(['P-p2 moved tribe to SEMNONES.']);
    expect(replaySteps(log, 3, names)).toEqual([]);
  });
});

describe('a turn rebuilt by the server', () => {
  it('starts from the board as the turn began and redraws it after each worded order', async () => {
    const { rebuiltSteps } = await import('./replay.ts');
    const start = { turn: 1, units: { u1: { kind: 'tribe', owner: 'p1', area: 'cherusci' } } };
    const steps = rebuiltSteps(
      {
        turn: 2,
        start: { seq: 9, view: start as never },
        steps: [
          // A sealed order: no words, but its change shows from the next step on.
          { seq: 10, ops: [{ op: 'replace', path: '/turn', value: 2 }], events: [] },
          {
            seq: 11,
            ops: [{ op: 'replace', path: '/units/u1/area', value: 'hermunduri' }],
            events: [
              { type: 'unitMoved', player: 'p1', unit: 'u1', path: ['cherusci', 'hermunduri'] } as never,
            ],
          },
        ],
      },
      // Today the unit is something else (the tribe combined since): the replay names it as it was.
      { ...names, unit: () => 'barbarian infantry' },
    );
    expect(steps.map((s) => s.seq)).toEqual([9, 11]);
    expect(steps[0]?.text).toBe('The board as turn 2 began.');
    const before = steps[0]?.view as unknown as typeof start | undefined;
    expect(before?.units.u1.area).toBe('cherusci');
    const after = steps[1]?.view as unknown as typeof start;
    expect(after.units.u1.area).toBe('hermunduri');
    expect(after.turn).toBe(2);
    expect(steps[1]?.text).toBe('P-p1 moved tribe to HERMUNDURI.');
    expect(steps[1]?.areas).toEqual(['cherusci', 'hermunduri']);
  });
});
