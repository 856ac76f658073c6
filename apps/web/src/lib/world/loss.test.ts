import type { LegalOrder } from '@bke/protocol';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LossExplained from './LossExplained.svelte';
import type { LoggedEvent } from './link.ts';
import { lastLoss, lossWords } from './loss.ts';
import StartContest from './StartContest.svelte';
import { logKey } from './timeline.ts';

afterEach(cleanup);

const names = {
  player: (p: unknown) => (p === 'bot' ? 'Alaric' : String(p)),
  area: (a: unknown) => String(a).toUpperCase(),
  unit: (u: unknown) => `unit ${String(u)}`,
};
/** An event of order `seq`, keyed in the log as the world page keys it (several events per order). */
const ev = (seq: number, turn: number, event: object): LoggedEvent =>
  ({ seq: logKey(seq, 0), turn, event }) as LoggedEvent;
const log: LoggedEvent[] = [
  ev(1, 11, { type: 'cycleEnded', player: 'other', reason: 'eliminated', vp: 3 }),
  ev(2, 12, {
    type: 'combatResolved',
    attacker: 'me',
    defender: 'bot',
    target: 'rhenus',
    attackers: ['u1'],
    defenders: ['u9'],
    neutral: null,
    attack: 6,
    defence: 2,
    odds: '3-1',
    rawColumn: 6,
    shift: 0,
    shifts: { attackerLeader: 0, defenderLeader: 0, fortified: false },
    dice: [1, 3],
    result: 'EX',
  }),
  ev(3, 12, {
    type: 'combatUnitsEliminated',
    player: 'bot',
    units: ['u9'],
    area: 'rhenus',
    cause: 'exchange',
  }),
  ev(4, 12, {
    type: 'combatUnitsEliminated',
    player: 'me',
    units: ['u1'],
    area: 'belgica',
    cause: 'exchange',
  }),
  ev(5, 12, { type: 'cycleEnded', player: 'me', reason: 'eliminated', vp: 42 }),
];

describe('the loss explained (14.3)', () => {
  it('finds the combat that took the last units and says where, against whom, at which odds, which result', () => {
    const story = lastLoss(log, 'me');
    expect(story).toMatchObject({ turn: 12, vp: 42, combat: { seq: logKey(2, 0) } });
    const words = lossWords(story!, 'me', names).join(' ');
    expect(words).toContain(
      'In turn 12 you attacked Alaric in RHENUS at 3-1; the dice showed 1 and 3: exchange',
    );
    expect(words).toContain('a horde with no units has finished its cycle (rule 14.3)');
    expect(lastLoss(log, 'nobody')).toBeNull();
  });

  it('shows what is kept and what comes next, and opens the replay at the step of the combat on one click', async () => {
    const onreplay = vi.fn();
    render(LossExplained, { log, player: 'me', names, onreplay });
    expect(screen.getByTestId('loss-kept').textContent).toContain('the 42 victory points of that cycle');
    expect(screen.getByTestId('loss-next').textContent).toContain('pick a new start position');
    await fireEvent.click(screen.getByTestId('loss-replay'));
    // The replay is opened at the order (the world's version), not at the log's key of the event.
    expect(onreplay).toHaveBeenCalledWith({ turn: 12, seq: 2 });
  });

  it('says which start areas are contested, and by whom (4.2, 7.1)', () => {
    const start = {
      type: 'chooseStart',
      position: 'GERMAN 1',
      areas: ['rhenus', 'belgica'],
      contested: [{ area: 'rhenus', by: ['bot'] }],
    } as Extract<LegalOrder, { type: 'chooseStart' }>;
    render(StartContest, { start, areaName: names.area, playerName: (p: string | null) => names.player(p) });
    expect(screen.getByTestId('start-contested-GERMAN 1').textContent).toContain(
      'RHENUS is next to Alaric (BELGICA is clear)',
    );
  });
});
