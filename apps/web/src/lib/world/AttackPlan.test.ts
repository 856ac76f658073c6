import type { LegalOrder } from '@bke/protocol';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AttackPlan from './AttackPlan.svelte';

afterEach(cleanup);

const attack = {
  type: 'combatAttack',
  target: 'rhenus',
  defender: 'p2',
  defenders: ['u4'],
  neutral: null,
  eligible: [{ unit: 'u1', from: 'belgica', halved: false }],
  choices: [
    {
      attackers: ['u1'],
      odds: '3-1',
      shift: 0,
      outcomes: [
        { result: 'AR1', chance: 3 / 36 },
        { result: 'EX', chance: 7 / 36 },
        { result: 'DR1', chance: 5 / 36 },
        { result: 'DR2', chance: 11 / 36 },
        { result: 'DR3', chance: 4 / 36 },
        { result: 'DE', chance: 6 / 36 },
      ],
    },
  ],
} as Extract<LegalOrder, { type: 'combatAttack' }>;

describe('AttackPlan', () => {
  it('shows the chance of each result before the attack is confirmed, and sends only on confirm', async () => {
    const onorder = vi.fn();
    render(AttackPlan, {
      attacks: [attack],
      areaName: (a: string) => a.toUpperCase(),
      unitLabel: (u: string) => `unit ${u}`,
      playerName: (p: string | null) => p ?? 'nobody',
      onorder,
    });
    await fireEvent.click(screen.getByTestId('attack-rhenus'));
    const chances = screen.getByTestId('combat-chances');
    expect(screen.getByTestId('chance-DE').textContent).toBe('17 %');
    expect(screen.getByTestId('chance-AR1').textContent).toBe('8 %');
    expect(chances.textContent).toContain('The defender gives way 72 %, both sides lose 19 %');
    expect(chances.textContent).toContain('your attack fails 8 %');
    expect(chances.textContent).toContain('defender eliminated (DE)');
    expect(onorder).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('confirm-attack'));
    expect(onorder).toHaveBeenCalledWith({ type: 'combatAttack', target: 'rhenus', attackers: ['u1'] });
  });
});
