import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { programWords } from './bot-mark.ts';
import ProgramMark from './ProgramMark.svelte';

describe('the program mark beside a bot account', () => {
  it('says in words that a program plays, and who runs it', () => {
    render(ProgramMark, { owner: 'alice', testid: 'program-p2' });
    const mark = screen.getByTestId('program-p2');
    expect(mark.textContent).toBe('(program, run by alice)');
    expect(mark.getAttribute('aria-hidden')).toBeNull();
  });

  it('still says "program" when the person who runs it is not known', () => {
    expect(programWords(undefined)).toBe('(program)');
    render(ProgramMark, { owner: undefined, testid: 'anon' });
    expect(screen.getByTestId('anon').textContent).toBe('(program)');
  });
});
