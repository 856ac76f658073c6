import { describe, expect, it } from 'vitest';
import { botMarked } from './bot-mark.ts';

describe('botMarked', () => {
  it('marks a bot seat and leaves a person as named', () => {
    expect(botMarked('Strong bot 2', 'strong')).toBe('Strong bot 2 (bot)');
    expect(botMarked('alice', undefined)).toBe('alice');
  });
});
