/**
 * `npm run rebuild` of the world that has run 300 game turns, as an operator runs it: its own
 * process on the server's database, timed, with its peak resident memory (long-world target:
 * ≤ 200 MB; the process's, its worker threads included). Runs after the server under test has
 * stopped (the embedded database is one process's).
 * `timeRebuild` times the command of any tree: today's here, the earlier code's in rebuild-then.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../fixtures/fixture.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { loadAverage } from '../lib/host.ts';
import { absoluteCheck, type Check } from '../lib/report.ts';

/** One timed rebuild: wall time, peak resident memory, exit code, and its report (the last line). */
export interface RebuildRun {
  seconds: number;
  peakMb: number;
  code: number | null;
  report: string;
  /** What the report says it replayed and checked (NaN when it printed no report). */
  orders: number;
  snapshotsChecked: number;
  /** The 1-minute load average before and after. */
  load: [number, number];
}

/**
 * The node arguments that run `npm run rebuild` of the tree at `root`, as its package.json says:
 * `tsx <file>` (the code before the long-world work) runs through that tree's tsx, `node <file>`
 * (today's launcher, which builds the compiled command when its sources changed and runs it in its
 * own process) as it is. npm's own start is left out of both.
 */
function rebuildCommand(root: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const [runner, file, ...rest] = (pkg.scripts?.rebuild ?? '').trim().split(/\s+/);
  if (!file || rest.length > 0 || (runner !== 'tsx' && runner !== 'node'))
    throw new Error(
      `${root}: npm run rebuild is "${pkg.scripts?.rebuild}", neither tsx <file> nor node <file>`,
    );
  return [...(runner === 'tsx' ? ['--import', 'tsx'] : []), path.join(root, file)];
}

/** `npm run rebuild <world>` of the tree at `root` (its own runner and code), on `db`. */
export async function timeRebuild(root: string, db: BenchDatabase, worldId: string): Promise<RebuildRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  else {
    delete env.DATABASE_URL;
    env.DATA_DIR = db.dataDir;
  }
  const loadBefore = loadAverage()[0];
  const t0 = performance.now();
  const { code, stderr, stdout } = await new Promise<{ code: number | null; stderr: string; stdout: string }>(
    (resolve) => {
      const p = spawn(
        process.execPath,
        ['--require', path.join(ROOT, 'bench/lib/max-rss.cjs'), ...rebuildCommand(root), worldId],
        { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => {
        out += d;
      });
      p.stderr.on('data', (d) => {
        err += d;
      });
      p.on('exit', (c) => resolve({ code: c, stderr: err, stdout: out }));
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  // The process's peak, the main thread's line (a worker thread's, should one print it, is lower).
  const peaks = [...stderr.matchAll(/BENCH_MAX_RSS_KB (\d+)/g)].map((m) => Number(m[1]));
  const kb = peaks.length > 0 ? Math.max(...peaks) : Number.NaN;
  const report = stdout.trim().split('\n').pop() ?? '';
  let parsed: { orders?: unknown; snapshotsChecked?: unknown } = {};
  try {
    parsed = JSON.parse(report);
  } catch {
    // No report: the figures below stay NaN and the exit code says why.
  }
  return {
    seconds,
    peakMb: kb / 1024,
    code,
    report: report || stderr.trim().split('\n').slice(-3).join(' / '),
    orders: typeof parsed.orders === 'number' ? parsed.orders : Number.NaN,
    snapshotsChecked: typeof parsed.snapshotsChecked === 'number' ? parsed.snapshotsChecked : Number.NaN,
    load: [loadBefore, loadAverage()[0]],
  };
}

export async function rebuildScenario(
  db: BenchDatabase,
  worldId: string,
): Promise<{ checks: Check[]; run: RebuildRun }> {
  // Once untimed with --help first: the launcher compiles the command when its sources changed, as
  // an operator's first run after an update would; the timed run is the one after it.
  spawnSync(process.execPath, [...rebuildCommand(ROOT), '--help'], { cwd: ROOT, stdio: 'ignore' });
  const run = await timeRebuild(ROOT, db, worldId);
  const checks: Check[] = [
    absoluteCheck(
      'LW',
      'turn 300',
      'npm run rebuild: peak memory',
      run.peakMb,
      ' MB',
      { max: 200 },
      { report: run.report },
    ),
    {
      ...absoluteCheck('LW', 'turn 300', 'npm run rebuild: time', run.seconds, ' s', { min: 0 }, { run }),
      target: 'info',
    },
    absoluteCheck(
      'LW',
      'turn 300',
      'npm run rebuild: exit code (0 = every snapshot and patch checks)',
      run.code ?? -1,
      '',
      { max: 0 },
    ),
  ];
  return { checks, run };
}
