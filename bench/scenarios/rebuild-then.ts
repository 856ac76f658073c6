/**
 * Today's `npm run rebuild` against the rebuild of the code before the long-world work, measured
 * in the same run on the same machine (long-world target: today's time ≤ 1/5 of the earlier's).
 * The two commands are timed in interleaved rounds after a discarded warm-up (E T, T E, E T, …, as
 * every other pair of the suite), and the check divides the medians of all their times: a single
 * run of each, minutes apart, measured the load of those minutes as much as the code.
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
import { interleaved, type Paired } from '../lib/rounds.ts';
import { median } from '../lib/stats.ts';
import { type RebuildRun, timeRebuild } from './rebuild.ts';

/** Today's rebuild as the suite ran it, and the world it rebuilt as it was restored. */
export interface TodayRebuild {
  run: RebuildRun | null;
  /** Why there is no run, when there is none. */
  reason?: string;
  /** The game turn and log version of today's 300-turn world when it was restored. */
  turn: number;
  version: number;
  /** Times today's rebuild again, on the same world and database (the interleaved rounds). */
  again?: () => Promise<RebuildRun>;
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

export async function rebuildThenScenario(today: TodayRebuild, rounds: number): Promise<Check[]> {
  console.log(`[bench] ${EARLIER_LABEL}: its tree from git and its install (cached in .data/bench-earlier)`);
  const tree = await prepareEarlierTree();
  if (!tree.ok) return [notMeasured(tree.reason)];
  console.log(
    `[bench] ${EARLIER_LABEL}: its own world (built by its own bench/fixtures once, a few minutes; then cached) restored into a fresh database`,
  );
  const db = await freshDatabase('earlier');
  let world: EarlierWorld;
  let runs: Paired<RebuildRun> | null = null;
  try {
    try {
      world = await earlierWorld(tree.root, db);
    } catch (e) {
      return [notMeasured(`its world could not be built or restored (${oneLine(e)})`)];
    }
    console.log(
      `[bench] ${EARLIER_LABEL}: world at turn ${world.turn}, ${world.orders} orders, ${world.snapshots} snapshots (${world.builtNow ? `built now in ${world.buildSeconds} s` : 'from its cache'}; restored in ${world.restoreSeconds} s); timing its npm run rebuild and today's in ${rounds} interleaved rounds (load average ${loadAverage().join(' ')})`,
    );
    const earlier = () => timeRebuild(tree.root, db, world.worldId);
    const again = today.again;
    // Without today's world there is nothing to pair: the earlier command still runs once, for
    // its memory row.
    runs = again ? await interleaved(rounds, { A: earlier, B: again }) : { A: [await earlier()], B: [] };
  } finally {
    await db.drop();
  }
  const then = runs.A.find((r) => r.code !== 0) ?? runs.A[0];
  if (!then) return [notMeasured('the earlier rebuild did not run')];
  const failedToday = runs.B.find((r) => r.code !== 0);

  const detail = {
    note: "each world was built by its own code (the engines differ, so the games may differ); today's was also played on by this run's rounds before its rebuild, on the server's database with the run's other worlds, the earlier one alone in a database of its own",
    today: { ...today.run, turnAtRestore: today.turn, versionAtRestore: today.version },
    earlier: { commit: EARLIER_LABEL, ...then, world },
    rounds: runs.A.map((a, i) => ({
      earlier: { seconds: a.seconds, peakMb: a.peakMb, load: a.load },
      today: runs.B[i]
        ? { seconds: runs.B[i].seconds, peakMb: runs.B[i].peakMb, load: runs.B[i].load }
        : null,
    })),
  };
  const earlierRows: Check[] = [
    {
      ...absoluteCheck(
        'LW',
        'turn 300',
        `npm run rebuild of ${EARLIER_LABEL}: peak memory, the highest of its runs (today's is above)`,
        Math.max(...runs.A.map((r) => r.peakMb)),
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
  if (failedToday)
    return [notMeasured(`today's rebuild exited ${failedToday.code} in a round`), ...earlierRows];
  if (runs.B.length === 0) return [notMeasured("today's rebuild could not be run again"), ...earlierRows];

  const played = today.run.orders - today.version;
  const todayS = median(runs.B.map((r) => r.seconds));
  const thenS = median(runs.A.map((r) => r.seconds));
  const times = (xs: RebuildRun[]) => xs.map((r) => r.seconds.toFixed(2)).join(' ');
  console.log(
    `[bench] rebuild per round, s — today: ${times(runs.B)}; ${EARLIER_LABEL}: ${times(runs.A)}; medians ${todayS.toFixed(2)} and ${thenS.toFixed(2)}, ratio ${(todayS / thenS).toFixed(3)}; peak MB today ${Math.max(...runs.B.map((r) => r.peakMb)).toFixed(0)}, earlier ${Math.max(...runs.A.map((r) => r.peakMb)).toFixed(0)}`,
  );
  return [
    ratioCheck('LW', 'turn 300', WHAT, todayS, thenS, ' s', TARGET, detail),
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
