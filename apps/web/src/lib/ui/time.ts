/** Deadlines in words: "2 h 05 min left", "due now". */
export function formatCountdown(deadline: string | null, now: number): string {
  if (!deadline) return 'no deadline';
  const ms = Date.parse(deadline) - now;
  if (Number.isNaN(ms)) return 'no deadline';
  if (ms <= 0) return 'due now';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min left`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, '0')} s left`;
  return `${sec} s left`;
}

/** A reactive clock, ticking once a second while something shows a countdown. */
export function ticker(cb: (now: number) => void): () => void {
  cb(Date.now());
  const t = setInterval(() => cb(Date.now()), 1000);
  return () => clearInterval(t);
}

/**
 * A deadline as a local date and time with the zone, in the browser's language: "Tue 24 Nov,
 * 14:05 CET". Null without a deadline.
 */
export function formatDeadline(deadline: string | null, locale?: string, timeZone?: string): string | null {
  if (!deadline) return null;
  const t = Date.parse(deadline);
  if (Number.isNaN(t)) return null;
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(t);
}

/** The year the server stores for "until lifted" (a nullable column cannot say "forever"). */
const FOREVER_YEAR = 9999;

/** A moment as the reader's local date and time with its zone: "24 Nov 2026, 05:10 UTC". */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

/** "forever" for the far-future stand-in, else "until <local time>". */
export function untilWords(iso: string | null | undefined): string {
  if (!iso) return 'forever';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() >= FOREVER_YEAR) return 'forever';
  return `until ${localTime(iso)}`;
}
