import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_VIEW } from '../../test/fixtures.ts';
import type { GameView, LegalOrder } from '../wire.ts';
import { NONE } from './choices.ts';
import OrdersPanel from './OrdersPanel.svelte';

const names = {
  areaName: (a: string) => a.toUpperCase(),
  unitLabel: (u: string) => `unit ${u}`,
  playerName: (p: string | null) => p ?? 'nobody',
};

function panel(legal: LegalOrder[], view: GameView = FIXTURE_VIEW) {
  const onorder = vi.fn();
  const onselect = vi.fn();
  render(OrdersPanel, { view, legal, selection: NONE, ...names, onorder, onselect });
  return { onorder, onselect };
}

const economic: GameView = { ...FIXTURE_VIEW, step: { kind: 'economic', pending: ['p1'] } };

describe('OrdersPanel', () => {
  it('economic phase: pillage a city, then confirm with Ready', async () => {
    const { onorder } = panel([{ type: 'pillage', area: 'rhenus' }, { type: 'endPhase' }], economic);
    await fireEvent.click(screen.getByRole('button', { name: 'Pillage RHENUS' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'pillage', area: 'rhenus' });
    await fireEvent.click(screen.getByRole('button', { name: /^Ready/ }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'endPhase' });
  });

  it('kingdom economy: combines the column and purchases offered into one plan', async () => {
    const base = { disband: ['u9'], garrisonDisband: [], purchases: [], adminPercent: 0 };
    const { onorder } = panel(
      [
        { type: 'realmPlan', plan: base },
        { type: 'realmPlan', plan: { ...base, adminPercent: 20 } },
        { type: 'realmPlan', plan: { ...base, purchases: [{ kind: 'infantry', area: 'lutetia' }] } },
        { type: 'realmPlan', plan: { ...base, purchases: [{ kind: 'cavalry', area: 'rhenus' }] } },
        { type: 'endPhase' },
      ],
      economic,
    );
    expect(screen.getByTestId('realm-plan').textContent).toContain('unit u9 will be disbanded');
    await fireEvent.click(screen.getByLabelText('20% column'));
    await fireEvent.click(screen.getByLabelText('Cavalry in RHENUS'));
    await fireEvent.click(screen.getByTestId('send-plan'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmPlan',
      plan: {
        disband: ['u9'],
        garrisonDisband: [],
        purchases: [{ kind: 'cavalry', area: 'rhenus' }],
        adminPercent: 20,
      },
    });
  });

  it('combat: shows the odds of each choice before the attack is confirmed', async () => {
    const combat: GameView = {
      ...FIXTURE_VIEW,
      step: { kind: 'playerTurn', player: 'p1', phase: 'combat', moved: [] },
    };
    const { onorder } = panel(
      [
        {
          type: 'combatAttack',
          target: 'rhenus',
          defender: 'p2',
          defenders: ['u4'],
          neutral: null,
          eligible: [
            { unit: 'u1', from: 'belgica', halved: false },
            { unit: 'u3', from: 'belgica', halved: true },
          ],
          choices: [
            { attackers: ['u1', 'u3'], odds: '2-1', shift: 0 },
            { attackers: ['u3'], odds: '1-1', shift: 0 },
          ],
        },
        { type: 'combatDone' },
      ],
      combat,
    );
    expect(screen.queryByTestId('attack-plan')).toBeNull();
    await fireEvent.click(screen.getByTestId('attack-rhenus'));
    const odds = screen.getAllByTestId('odds').map((o) => o.textContent);
    expect(odds).toEqual(['odds 2-1', 'odds 1-1']);
    expect(screen.getByTestId('attack-plan').textContent).toContain('Halved');
    await fireEvent.click(screen.getAllByRole('radio')[1] as HTMLElement);
    expect(screen.getByTestId('confirm-attack').textContent).toContain('1-1');
    await fireEvent.click(screen.getByTestId('confirm-attack'));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'combatAttack', target: 'rhenus', attackers: ['u3'] });
  });

  it('tells a spectator and a waiting player that there is nothing to decide', () => {
    panel([], { ...FIXTURE_VIEW, viewer: null });
    expect(screen.getByTestId('no-orders').textContent).toContain('watching');
  });

  it('retreat choices list the paths; advances offer to stay put', async () => {
    const { onorder } = panel([
      { type: 'combatRetreat', unit: 'u1', from: 'belgica', paths: [['lutetia']], eliminated: false },
    ]);
    await fireEvent.click(screen.getByRole('button', { name: '→ LUTETIA' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'combatRetreat', unit: 'u1', path: ['lutetia'] });
  });
});
