/**
 * `npm run rebuild` of the world that has run 300 game turns, as an operator runs it: its own
 * process on the server's database, timed, with its peak resident memory (long-world target:
 * ≤ 200 MB). Runs after the server under test has stopped (the embedded database is one process's).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../fixtures/fixture.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { absoluteCheck, type Check } from '../lib/report.ts';

export async function rebuildScenario(db: BenchDatabase, worldId: string): Promise<Check[]> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  else {
    delete env.DATABASE_URL;
    env.DATA_DIR = db.dataDir;
  }
  const t0 = performance.now();
  const { code, stderr, stdout } = await new Promise<{ code: number | null; stderr: string; stdout: string }>(
    (resolve) => {
      const p = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--require',
          path.join(ROOT, 'bench/lib/max-rss.cjs'),
          path.join(ROOT, 'apps/server/src/cli/rebuild.ts'),
          worldId,
        ],
        { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
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
  const kb = Number(/BENCH_MAX_RSS_KB (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const report = stdout.trim().split('\n').pop() ?? '';
  return [
    absoluteCheck(
      'LW',
      'turn 300',
      'npm run rebuild: peak memory',
      kb / 1024,
      ' MB',
      { max: 200 },
      { report },
    ),
    {
      ...absoluteCheck(
        'LW',
        'turn 300',
        'npm run rebuild: time (no earlier code path in this run to divide by)',
        seconds,
        ' s',
        { min: 0 },
      ),
      target: 'info',
    },
    absoluteCheck(
      'LW',
      'turn 300',
      'npm run rebuild: exit code (0 = every snapshot and patch checks)',
      code ?? -1,
      '',
      { max: 0 },
    ),
  ];
}
