/** A benchmark's verdicts: one `Check` per target, printed as a short table and kept in the JSON result. */
import { loadAverage } from './host.ts';

export interface Check {
  /** The metric's number in bench/README.md (1–12), or a long-world figure ("LW"). */
  metric: string;
  /** Which fixture it ran on: "turn 1", "turn 300", or "—" for what has none. */
  fixture: string;
  what: string;
  value: number;
  baseline: number | null;
  unit: string;
  /** value / baseline, or the value itself where the target is absolute. */
  ratio: number;
  target: string;
  pass: boolean;
  /** The 1-minute load average when the figure was taken. */
  load: number;
  /** Per-round figures (the spread behind a pooled one), and anything else worth keeping. */
  detail?: Record<string, unknown>;
}

type Bound = { max: number } | { min: number };

/** A ratio check: `value / baseline` within the bound. */
export function ratioCheck(
  metric: string,
  fixture: string,
  what: string,
  value: number,
  baseline: number,
  unit: string,
  bound: Bound,
  detail?: Record<string, unknown>,
): Check {
  const ratio = value / baseline;
  return finish({ metric, fixture, what, value, baseline, unit, ratio, detail }, bound, '×');
}

/** An absolute check: the value itself within the bound. */
export function absoluteCheck(
  metric: string,
  fixture: string,
  what: string,
  value: number,
  unit: string,
  bound: Bound,
  detail?: Record<string, unknown>,
): Check {
  return finish({ metric, fixture, what, value, baseline: null, unit, ratio: value, detail }, bound, unit);
}

/**
 * Players' sockets lost to the heartbeat in a round, on the server (B) and the baseline (A): a
 * failing check when any were, none when both kept every socket.
 */
export function droppedSocketsCheck(
  metric: string,
  fixture: string,
  load: string,
  rounds: { A: readonly { dropped: number }[]; B: readonly { dropped: number }[] },
): Check | null {
  const dropped = rounds.B.reduce((n, x) => n + x.dropped, 0);
  const baseline = rounds.A.reduce((n, x) => n + x.dropped, 0);
  if (dropped === 0 && baseline === 0) return null;
  return absoluteCheck(
    metric,
    fixture,
    `players' sockets lost mid-round (heartbeat), ${load}`,
    dropped,
    '',
    {
      max: 0,
    },
    { baseline },
  );
}

function finish(c: Omit<Check, 'target' | 'pass' | 'load'>, bound: Bound, unit: string): Check {
  const ok = Number.isFinite(c.ratio) && ('max' in bound ? c.ratio <= bound.max : c.ratio >= bound.min);
  const target = 'max' in bound ? `≤ ${bound.max}${unit}` : `≥ ${bound.min}${unit}`;
  return { ...c, target, pass: ok, load: loadAverage()[0] };
}

const num = (x: number | null) =>
  x === null || !Number.isFinite(x)
    ? String(x)
    : Math.abs(x) >= 100
      ? x.toFixed(0)
      : Math.abs(x) >= 10
        ? x.toFixed(1)
        : x.toFixed(3);

export function printTable(checks: readonly Check[]): void {
  const rows = checks.map((c) => [
    c.target === 'info' ? 'INFO' : c.pass ? 'PASS' : 'FAIL',
    `#${c.metric}`,
    c.fixture,
    c.what,
    `${num(c.value)}${c.unit}`,
    c.baseline === null ? '' : `${num(c.baseline)}${c.unit}`,
    c.baseline === null ? '' : `${num(c.ratio)}×`,
    c.target,
    c.load.toFixed(2),
  ]);
  const head = ['', 'metric', 'fixture', 'what', 'value', 'baseline', 'ratio', 'target', 'load'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((x, i) => x.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

/** An error in one line for the table (a child's error carries its whole stack). */
export const oneLine = (e: unknown, max = 100): string =>
  (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, max) ?? '';
