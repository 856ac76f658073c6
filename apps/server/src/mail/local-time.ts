/**
 * Times in the player's own time zone (an IANA name), with the platform's time-zone data (Intl):
 * a deadline as the player reads it, and when the daily digest is next due.
 */

/** "Tue 24 Nov, 14:00 CET": a moment as someone in `timeZone` reads it. */
export function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  })
    .format(at)
    .replace(/^(\w+) (\d+ \w+),? /, '$1 $2, ');
}

/** The wall-clock parts of `at` in `timeZone`. */
function partsIn(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { y: n('year'), m: n('month'), d: n('day'), h: n('hour'), min: n('minute'), s: n('second') };
}

/** "2026-11-24": the calendar day of `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  const p = partsIn(at, timeZone);
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: Date, timeZone: string): number {
  const p = partsIn(at, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The moment a wall-clock time in `timeZone` happens (the later one across a clock change's gap). */
function atWallClock(y: number, m: number, d: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - offsetAt(new Date(guess), timeZone);
  return new Date(guess - offsetAt(new Date(first), timeZone));
}

/** The next time after `now` that it is `hour`:00 in `timeZone`. */
export function nextLocalHour(now: Date, timeZone: string, hour: number): Date {
  const p = partsIn(now, timeZone);
  for (let day = 0; day < 3; day++) {
    const noon = new Date(Date.UTC(p.y, p.m - 1, p.d + day, 12));
    const q = partsIn(noon, 'UTC');
    const at = atWallClock(q.y, q.m, q.d, hour, timeZone);
    if (at.getTime() > now.getTime()) return at;
  }
  return new Date(now.getTime() + 86_400_000);
}
