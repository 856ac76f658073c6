/** Shared helpers of the server benchmarks: statistics, interleaving, host facts, reporting. */
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
};
export const median = (xs: number[]) => quantile(xs, 0.5);

export interface Check {
  metric: string;
  what: string;
  value: number;
  baseline: number;
  ratio: number;
  target: string;
  pass: boolean;
  unit?: string;
}

export function check(
  metric: string,
  what: string,
  value: number,
  baseline: number,
  limit: number,
  unit = '',
  /** The ratio when it is not value / baseline (e.g. the median of interleaved per-round ratios). */
  ratioOverride?: number,
): Check {
  const ratio = ratioOverride ?? value / baseline;
  return { metric, what, value, baseline, ratio, target: `≤ ${limit}`, pass: ratio <= limit, unit };
}

export function hostFacts() {
  const file = path.join(tmpdir(), `bke-fsync-${process.pid}`);
  const fd = openSync(file, 'w');
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    writeSync(fd, 'x'.repeat(512));
    const t = performance.now();
    fsyncSync(fd);
    times.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(file, { force: true });
  return { nproc: availableParallelism(), node: process.version, fsyncMsP50: median(times) };
}

/** Prints the checks and writes bench/results/<name>.json; returns the exit code. */
export function report(name: string, checks: Check[], extra: Record<string, unknown> = {}): number {
  for (const c of checks) {
    const v = (x: number) => `${x.toFixed(x < 10 ? 3 : 1)}${c.unit ?? ''}`;
    console.log(
      `${c.pass ? 'PASS' : 'FAIL'}  #${c.metric} ${c.what}: ${v(c.value)} vs baseline ${v(c.baseline)} → ratio ${c.ratio.toFixed(3)} (target ${c.target})`,
    );
  }
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const out = { name, at: new Date().toISOString(), host: hostFacts(), checks, ...extra };
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(out, null, 2)}\n`);
  return checks.every((c) => c.pass) ? 0 : 1;
}
