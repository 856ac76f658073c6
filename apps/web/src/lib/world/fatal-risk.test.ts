import type { LegalOrder } from '@bke/protocol';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AttackPlan from './AttackPlan.svelte';
import { chanceInWords, hordeRiskWords } from './fatal-risk.ts';

afterEach(cleanup);

const risk = {
  kind: 'hordeMayEnd',
  section: '14.3',
  chance: 7 / 36,
  by: [{ result: 'EX', chance: 7 / 36 }],
} as const;

describe('the end of the horde in words (14.3)', () => {
  it('says two-dice chances as the plainest fraction', () => {
    expect(chanceInWords(6 / 36)).toBe('1 in 6');
    expect(chanceInWords(7 / 36)).toBe('7 in 36');
    expect(chanceInWords(15 / 36)).toBe('5 in 12');
    expect(chanceInWords(1)).toBe('certain');
  });

  it('names the odds, the chance, the result, and what is kept', () => {
    const words = hordeRiskWords({ ...risk, by: [...risk.by] }, '3-1');
    expect(words).toContain('This attack at 3-1 can end your horde: 7 in 36 (an exchange: 7 in 36)');
    expect(words).toContain('victory points are kept and you pick a new start (rule 14.3)');
  });

  it('the attack plan shows the warning before the attack is confirmed, only for the choice that carries it', async () => {
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
            { result: 'DE', chance: 26 / 36 },
          ],
          consequences: [{ ...risk, by: [...risk.by] }],
        },
      ],
    } as Extract<LegalOrder, { type: 'combatAttack' }>;
    const onorder = vi.fn();
    render(AttackPlan, {
      attacks: [attack],
      areaName: (a: string) => a.toUpperCase(),
      unitLabel: (u: string) => `unit ${u}`,
      playerName: (p: string | null) => p ?? 'nobody',
      onorder,
    });
    expect(screen.queryByTestId('fatal-risk')).toBeNull();
    await fireEvent.click(screen.getByTestId('attack-rhenus'));
    expect(screen.getByTestId('fatal-risk').textContent).toContain(
      'This attack at 3-1 can end your horde: 7 in 36',
    );
    expect(onorder).not.toHaveBeenCalled();
  });
});
