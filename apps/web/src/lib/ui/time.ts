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
