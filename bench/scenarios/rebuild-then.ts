/**
 * Today's `npm run rebuild` against the rebuild of the code before the long-world work, measured
 * in the same run on the same machine (long-world target: today's time ≤ 1/5 of the earlier's).
 * The earlier code is taken from git (../earlier/tree.ts); its own benchmark builds its own
 * 300-turn, six-player world into a database migrated by its own migrations (../earlier/world.ts),
 * and its own `npm run rebuild` is timed exactly as today's is (`timeRebuild`). Each world is built
 * by its own code: the engines differ, so the games may differ; both worlds' game turns and orders are
 * reported beside the times so that the reader can see they are comparable. When the earlier tree
 * cannot be prepared, the check fails with the reason; no figure is made up.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EARLIER_LABEL, prepareEarlierTree } from '../earlier/tree.ts';
import type { EarlierWorld } from '../earlier/world.ts';
import { freshDatabase } from '../lib/database.ts';
import { loadAverage } from '../lib/host.ts';
import { absoluteCheck, type Check, oneLine, ratioCheck } from '../lib/report.ts';
import { type RebuildRun, timeRebuild } from './rebuild.ts';

/** Today's rebuild as the suite ran it, and the world it rebuilt as it was restored. */
export interface TodayRebuild {
  run: RebuildRun | null;
  /** Why there is no run, when there is none. */
  reason?: string;
  /** The game turn and log version of today's 300-turn world when it was restored. */
  turn: number;
  version: number;
}

const TARGET = { max: 0.2 };
const WHAT = `npm run rebuild: time, today's ÷ ${EARLIER_LABEL}'s, same machine, same run`;

/** The ratio check failed with its reason: nothing was measured to divide. */
const notMeasured = (reason: string): Check =>
  absoluteCheck('LW', 'turn 300', `${WHAT} — not measured: ${reason}`, Number.NaN, '', TARGET);

/** The earlier tree's world, built (or found in its cache) and restored into `db` by that tree's code. */
function earlierWorld(root: string, db: unknown): Promise<EarlierWorld> {
  return new Promise((resolve, reject) => {
    // cwd is the earlier tree: `--import tsx` resolves to its tsx, and the child imports its files.
    const child = fork(fileURLToPath(new URL('../earlier/world.ts', import.meta.url)), [], {
      cwd: root,
      execArgv: ['--import', 'tsx', '--max-old-space-size=3072'],
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    child.once('message', (m: { ok: boolean; value?: EarlierWorld; error?: string }) => {
      answered = true;
      if (m.ok && m.value) resolve(m.value);
      else reject(new Error(m.error ?? 'no answer'));
    });
    child.once('exit', (code, signal) => {
      if (!answered) reject(new Error(`the earlier tree's world builder exited (${code ?? signal})`));
    });
    child.send(db as object);
  });
}

export async function rebuildThenScenario(today: TodayRebuild): Promise<Check[]> {
  console.log(`[bench] ${EARLIER_LABEL}: its tree from git and its install (cached in .data/bench-earlier)`);
  const tree = await prepareEarlierTree();
  if (!tree.ok) return [notMeasured(tree.reason)];
  console.log(
    `[bench] ${EARLIER_LABEL}: its own world (built by its own bench/fixtures once, a few minutes; then cached) restored into a fresh database`,
  );
  const db = await freshDatabase('earlier');
  let world: EarlierWorld;
  let then: RebuildRun;
  try {
    try {
      world = await earlierWorld(tree.root, db);
    } catch (e) {
      return [notMeasured(`its world could not be built or restored (${oneLine(e)})`)];
    }
    console.log(
      `[bench] ${EARLIER_LABEL}: world at turn ${world.turn}, ${world.orders} orders, ${world.snapshots} snapshots (${world.builtNow ? `built now in ${world.buildSeconds} s` : 'from its cache'}; restored in ${world.restoreSeconds} s); timing its npm run rebuild (load average ${loadAverage().join(' ')})`,
    );
    then = await timeRebuild(tree.root, db, world.worldId);
  } finally {
    await db.drop();
  }

  const detail = {
    note: "each world was built by its own code (the engines differ, so the games may differ); today's was also played on by this run's rounds before its rebuild, on the server's database with the run's other worlds, the earlier one alone in a database of its own",
    today: { ...today.run, turnAtRestore: today.turn, versionAtRestore: today.version },
    earlier: { commit: EARLIER_LABEL, ...then, world },
  };
  const earlierRows: Check[] = [
    {
      ...absoluteCheck(
        'LW',
        'turn 300',
        `npm run rebuild of ${EARLIER_LABEL}: peak memory (today's is above)`,
        then.peakMb,
        ' MB',
        { min: 0 },
      ),
      target: 'info',
    },
  ];
  if (then.code !== 0)
    return [
      notMeasured(`the earlier rebuild exited ${then.code} (${then.report.slice(0, 120)})`),
      ...earlierRows,
    ];
  if (!today.run)
    return [
      notMeasured(`today's rebuild did not run (${today.reason ?? 'no 300-turn world'})`),
      ...earlierRows,
    ];
  if (today.run.code !== 0) return [notMeasured(`today's rebuild exited ${today.run.code}`), ...earlierRows];

  const played = today.run.orders - today.version;
  console.log(
    `[bench] rebuild: today ${today.run.seconds.toFixed(1)} s, ${today.run.peakMb.toFixed(0)} MB (load ${today.run.load.join(' → ')}); ${EARLIER_LABEL} ${then.seconds.toFixed(1)} s, ${then.peakMb.toFixed(0)} MB (load ${then.load.join(' → ')}); ratio ${(today.run.seconds / then.seconds).toFixed(3)}`,
  );
  return [
    ratioCheck('LW', 'turn 300', WHAT, today.run.seconds, then.seconds, ' s', TARGET, detail),
    ...earlierRows,
    {
      ...ratioCheck(
        'LW',
        'turn 300',
        `orders each rebuild replayed, today's ÷ the earlier's: each world built by its own code, so the games may differ (at turn ${today.turn} and ${world.turn} when built; today's +${played} orders from this run's rounds; snapshots checked ${today.run.snapshotsChecked} and ${then.snapshotsChecked})`,
        today.run.orders,
        then.orders,
        '',
        { min: 0 },
      ),
      target: 'info',
    },
  ];
}
