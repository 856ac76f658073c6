import { describe, expect, it } from 'vitest';
import { localDay, localTime, nextLocalHour } from './local-time.ts';

/*
 * The expected instants were read from the tz database's own transition list (`zdump -v -c
 * 2026,2027 <zone>`), not computed with the library under test. 2026's clock changes:
 *   America/New_York     8 Mar 02:00 EST → 03:00 EDT (07:00Z)   1 Nov 02:00 EDT → 01:00 EST (06:00Z)
 *   America/Los_Angeles  8 Mar 02:00 PST → 03:00 PDT (10:00Z)   1 Nov 02:00 PDT → 01:00 PST (09:00Z)
 *   Europe/Berlin       29 Mar 02:00 CET → 03:00 CEST (01:00Z) 25 Oct 03:00 CEST → 02:00 CET (01:00Z)
 *   Australia/Sydney     4 Oct 02:00 AEST → 03:00 AEDT (3 Oct 16:00Z)
 *                        5 Apr 03:00 AEDT → 02:00 AEST (4 Apr 16:00Z)
 *   Asia/Kolkata        none (+05:30 all year)
 */

type Case = [zone: string, hour: number, now: string, next: string, after: string];

// Spring forward: the chosen hour does not exist that night; the digest goes when the clocks jump.
const SPRING: Case[] = [
  ['America/New_York', 2, '2026-03-07T07:00:00Z', '2026-03-08T07:00:00Z', '2026-03-09T06:00:00Z'],
  ['America/Los_Angeles', 2, '2026-03-07T10:00:00Z', '2026-03-08T10:00:00Z', '2026-03-09T09:00:00Z'],
  ['Europe/Berlin', 2, '2026-03-28T01:00:00Z', '2026-03-29T01:00:00Z', '2026-03-30T00:00:00Z'],
  ['Australia/Sydney', 2, '2026-10-02T16:00:00Z', '2026-10-03T16:00:00Z', '2026-10-04T15:00:00Z'],
  // An hour clear of the change: a day of 23 hours.
  ['America/New_York', 9, '2026-03-07T14:00:00Z', '2026-03-08T13:00:00Z', '2026-03-09T13:00:00Z'],
  ['Europe/Berlin', 9, '2026-03-28T08:00:00Z', '2026-03-29T07:00:00Z', '2026-03-30T07:00:00Z'],
];

// Fall back: the chosen hour happens twice; the digest goes at the first, and not again that day.
const FALL: Case[] = [
  ['America/New_York', 1, '2026-10-31T05:00:00Z', '2026-11-01T05:00:00Z', '2026-11-02T06:00:00Z'],
  ['America/Los_Angeles', 1, '2026-10-31T08:00:00Z', '2026-11-01T08:00:00Z', '2026-11-02T09:00:00Z'],
  ['Europe/Berlin', 2, '2026-10-24T00:00:00Z', '2026-10-25T00:00:00Z', '2026-10-26T01:00:00Z'],
  ['Australia/Sydney', 2, '2026-04-03T15:00:00Z', '2026-04-04T15:00:00Z', '2026-04-05T16:00:00Z'],
  // An hour clear of the change: a day of 25 hours.
  ['America/New_York', 9, '2026-10-31T13:00:00Z', '2026-11-01T14:00:00Z', '2026-11-02T14:00:00Z'],
  ['Australia/Sydney', 9, '2026-04-03T22:00:00Z', '2026-04-04T23:00:00Z', '2026-04-05T23:00:00Z'],
];

// No daylight saving: the other zones' change days move nothing.
const STEADY: Case[] = [
  ['Asia/Kolkata', 2, '2026-03-07T20:30:00Z', '2026-03-08T20:30:00Z', '2026-03-09T20:30:00Z'],
  ['Asia/Kolkata', 2, '2026-10-31T20:30:00Z', '2026-11-01T20:30:00Z', '2026-11-02T20:30:00Z'],
  ['Asia/Kolkata', 2, '2026-03-28T20:30:00Z', '2026-03-29T20:30:00Z', '2026-03-30T20:30:00Z'],
];

describe('the next digest hour', () => {
  it.each([
    ...SPRING.map((c) => ['spring forward', ...c] as const),
    ...FALL.map((c) => ['fall back', ...c] as const),
    ...STEADY.map((c) => ['no clock change', ...c] as const),
  ])('%s, %s at %i:00: from %s to %s, then %s', (_, zone, hour, now, next, after) => {
    const first = nextLocalHour(new Date(now), zone, hour);
    expect(first.toISOString()).toBe(new Date(next).toISOString());
    // The digest runner asks again at the instant it sends.
    expect(nextLocalHour(first, zone, hour).toISOString()).toBe(new Date(after).toISOString());
  });

  it('is strictly later than now, and the same day when the hour is still ahead', () => {
    const now = new Date('2026-03-08T06:59:59Z'); // 01:59:59 EST in New York, the last second before the gap
    expect(nextLocalHour(now, 'America/New_York', 2).toISOString()).toBe('2026-03-08T07:00:00.000Z');
    const at = new Date('2026-11-01T05:00:00Z');
    expect(nextLocalHour(at, 'America/New_York', 1).getTime()).toBeGreaterThan(at.getTime());
    // Between the two 01:00s of the fall-back night: the second one is not another digest.
    const between = new Date('2026-11-01T05:30:00Z');
    expect(nextLocalHour(between, 'America/New_York', 1).toISOString()).toBe('2026-11-02T06:00:00.000Z');
  });

  /** The wall clock in `timeZone` as the platform's own formatter reads it, independent of the library. */
  function wall(at: Date, timeZone: string) {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(at);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return {
      day: `${get('year')}-${get('month')}-${get('day')}`,
      hour: Number(get('hour')),
      minute: get('minute'),
    };
  }

  it.each(['America/New_York', 'America/Los_Angeles', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata'])(
    'goes once on every day of the year in %s, at the chosen hour or when a gap ends',
    (zone) => {
      for (const hour of [0, 1, 2, 3, 9, 23]) {
        let at = nextLocalHour(new Date('2026-01-01T00:00:00Z'), zone, hour);
        const days = new Set<string>();
        while (at.getTime() < Date.parse('2027-01-01T00:00:00Z')) {
          const w = wall(at, zone);
          expect(days.has(w.day), `${zone} ${hour}:00 twice on ${w.day}`).toBe(false);
          days.add(w.day);
          expect(w.minute).toBe('00');
          // Only the spring-forward gap moves it: to the hour after, the moment the clocks jump.
          if (w.hour !== hour) expect(w.hour, at.toISOString()).toBe(hour + 1);
          const next = nextLocalHour(at, zone, hour);
          expect(next.getTime() - at.getTime()).toBeGreaterThanOrEqual(22 * 3600_000);
          expect(next.getTime() - at.getTime()).toBeLessThanOrEqual(26 * 3600_000);
          at = next;
        }
        expect(days.size).toBeGreaterThanOrEqual(364);
      }
    },
  );
});

describe('times as the player reads them', () => {
  it('name the day of a moment in its time zone', () => {
    expect(localDay(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('2026-03-08');
    expect(localDay(new Date('2026-10-03T16:00:00Z'), 'Australia/Sydney')).toBe('2026-10-04');
    expect(localDay(new Date('2026-03-08T18:29:59Z'), 'Asia/Kolkata')).toBe('2026-03-08');
    expect(localDay(new Date('2026-03-08T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-03-09');
  });

  it('write a deadline in the offset in force at that moment', () => {
    expect(localTime(new Date('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toBe('Sun 29 Mar, 01:59 CET');
    expect(localTime(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('Sun 29 Mar, 03:00 CEST');
    expect(localTime(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('Sun 8 Mar, 03:00 GMT-4');
    expect(localTime(new Date('2026-11-01T06:00:00Z'), 'America/New_York')).toBe('Sun 1 Nov, 01:00 GMT-5');
    expect(localTime(new Date('2026-10-03T16:00:00Z'), 'Australia/Sydney')).toBe('Sun 4 Oct, 03:00 GMT+11');
    expect(localTime(new Date('2026-03-08T07:00:00Z'), 'Asia/Kolkata')).toBe('Sun 8 Mar, 12:30 GMT+5:30');
  });

  it('refuse a time zone that does not exist rather than guess one', () => {
    expect(() => localTime(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => nextLocalHour(new Date(), 'Mars/Olympus_Mons', 2)).toThrow(RangeError);
  });
});
