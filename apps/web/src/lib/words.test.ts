import { describe, expect, it } from 'vitest';
import { errorWords, eventWords, stepWords, unitWords } from './words.ts';

const names = {
  player: (id: unknown) => ({ p1: 'Alaric', p2: 'Brenna' })[String(id)] ?? String(id),
  area: (id: unknown) => ({ rhenus: 'Rhenus', belgica: 'Belgica' })[String(id)] ?? String(id),
  unit: () => 'tribe',
};

describe('words', () => {
  it('turns a combat into a sentence with odds, dice and result', () => {
    const s = eventWords(
      {
        type: 'combatResolved',
        attacker: 'p1',
        defender: 'p2',
        target: 'rhenus',
        odds: '3-2',
        dice: [4, 3],
        result: 'DR2',
      },
      names,
    );
    expect(s).toBe(
      'Alaric attacked Brenna in Rhenus at 3-2, rolled 4+3 = 7: defender retreats 2 areas (DR2).',
    );
  });

  it('names a neutral defender', () => {
    const s = eventWords(
      {
        type: 'combatResolved',
        attacker: 'p1',
        defender: null,
        target: 'rhenus',
        odds: '1-1',
        dice: [1, 1],
        result: 'AE',
      },
      names,
    );
    expect(s).toContain('the neutral garrison');
    expect(s).toContain('attacker eliminated');
  });

  it('words pillage and kingdom events and hides bookkeeping', () => {
    expect(eventWords({ type: 'cityPillaged', player: 'p1', area: 'rhenus', loot: 9, digit: 7 }, names)).toBe(
      'Alaric pillaged Rhenus for 9; it yields nothing until a turn ending in 7.',
    );
    expect(eventWords({ type: 'phaseStarted', player: 'p1', phase: 'movement' }, names)).toBeNull();
  });

  it('turns error codes into words, falling back to the server message', () => {
    expect(errorWords('order/not_your_turn')).toBe('It is not your turn to act.');
    expect(errorWords('world/unheard_of', 'Odd.')).toBe('Odd.');
    expect(errorWords('x/y')).toContain('x/y');
  });

  it('names phases and counters', () => {
    expect(stepWords({ kind: 'playerTurn', player: 'p1', phase: 'combination', moved: [] })).toBe(
      'Tribal combination',
    );
    expect(unitWords('barbarianHorse').face).toBe('3-4');
    expect(unitWords('tribe', { options: { cfg: { tribeStrength: 2, tribeMA: 1 } } }).face).toBe('(2)-1');
  });
});
