import { describe, expect, it } from 'vitest';
import { formatCountdown, formatDeadline } from './time.ts';

describe('deadlines', () => {
  it('gives the deadline as a local date and time with its zone, beside the countdown', () => {
    const at = '2026-11-24T13:05:00Z';
    expect(formatDeadline(at, 'en-GB', 'Europe/Paris')).toBe('Tue 24 Nov, 14:05 CET');
    expect(formatDeadline(at, 'en-GB', 'UTC')).toBe('Tue 24 Nov, 13:05 UTC');
    expect(formatDeadline(null)).toBeNull();
    expect(formatCountdown(at, Date.parse('2026-11-24T12:05:00Z'))).toBe('1 h 00 min left');
  });
});
