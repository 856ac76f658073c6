/**
 * Times in the player's own time zone (an IANA name): a deadline as the player reads it, and when
 * the daily digest is next due. Luxon does the calendar and daylight-saving arithmetic on the
 * platform's time-zone data (Intl); the offsets are its, not ours.
 *
 * Across a clock change the wall-clock hour a player chose may not exist or may happen twice:
 * - spring forward (02:00 → 03:00 in New York): 02:00 does not exist, so the digest goes when the
 *   clocks jump, at 03:00 of the new offset, the same instant 02:00 of the old one would have been;
 * - fall back (02:00 → 01:00 in New York): 01:00 happens twice, and the digest goes at the first.
 */
import { DateTime } from 'luxon';

function zoned(at: Date, timeZone: string): DateTime<true> {
  const dt = DateTime.fromJSDate(at, { zone: timeZone });
  // Time zones are checked when they are stored (the protocol's schema); an unknown one here is a bug.
  if (!dt.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}`);
  return dt;
}

/** "Tue 24 Nov, 14:00 CET": a moment as someone in `timeZone` reads it. */
export function localTime(at: Date, timeZone: string): string {
  return zoned(at, timeZone).setLocale('en-GB').toFormat('ccc d LLL, HH:mm ZZZZ');
}

/** "2026-11-24": the calendar day of `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  return zoned(at, timeZone).toISODate();
}

/** The first moment of `day` at which the wall clock in its zone reads `hour`:00 (see above). */
function hourOfDay(day: DateTime<true>, hour: number): DateTime {
  const wall = day.set({ hour, minute: 0, second: 0, millisecond: 0 });
  // Two candidates when the hour happens twice; one (the shifted hour) when it falls in a gap.
  const candidates = wall.getPossibleOffsets();
  return candidates.reduce((a, b) => (b.toMillis() < a.toMillis() ? b : a), wall);
}

/**
 * The next time after `now` that it is `hour`:00 in `timeZone`, at most once per calendar day:
 * after the first 01:00 of a fall-back night, the next is the following day's.
 */
export function nextLocalHour(now: Date, timeZone: string, hour: number): Date {
  const today = zoned(now, timeZone).startOf('day');
  for (let days = 0; days < 3; days++) {
    const at = hourOfDay(today.plus({ days }), hour);
    if (at.toMillis() > now.getTime()) return at.toJSDate();
  }
  throw new Error(`no ${hour}:00 in ${timeZone} within three days of ${now.toISOString()}`);
}
