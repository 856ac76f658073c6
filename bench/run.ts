/**
 * `npm run bench`: the benchmark suite (the twelve metrics of bench/README.md, and the
 * long-world figures), every figure a ratio to a bare baseline measured in the same run.
 *
 * Processes: this one only orchestrates. The server under test, the bare baseline server and the
 * load generator each run in a child process of their own (processes/), and so do the fixture
 * builder and the engine, patch and ORM measurements (micro/). Rounds: a warm-up round discarded,
 * then A B B A A … (A the baseline, B the server), medians and p99 over all samples pooled.
 * Worlds: six players at game turn 1, and the same world after 300 game turns (fixtures/).
 * Results: a short table, and JSON under bench/results/ with the host facts and load averages.
 * Exits 1 when a target fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type GameState, type PlayerId } from '@bke/engine';
import { ensureFixtures } from './fixtures/ensure.ts';
import { type FixtureName, type FixtureSet, ROOT, readFixtures } from './fixtures/fixture.ts';
import { SERVER_UNDER_TEST, startChild } from './lib/child.ts';
import { databaseKind, freshDatabase } from './lib/database.ts';
import { hostFacts, loadAverage } from './lib/host.ts';
import { absoluteCheck, type Check, oneLine, printTable, ratioCheck } from './lib/report.ts';
import type { Started } from './processes/server.ts';
import type { Context, Settings } from './scenarios/context.ts';
import { latencyScenario, openGroups } from './scenarios/latency.ts';
import { idleConnections, idleGames, manyIdleConnections } from './scenarios/memory.ts';
import { processesScenario } from './scenarios/processes.ts';
import { rebuildScenario, timeRebuild } from './scenarios/rebuild.ts';
import { rebuildThenScenario, type TodayRebuild } from './scenarios/rebuild-then.ts';
import { reconnectScenario } from './scenarios/reconnect.ts';
import { cpuByAge, throughputScenario } from './scenarios/throughput.ts';

const USAGE = `usage: npm run bench [-- --quick] [-- --only=memory,reconnect]
  Runs every benchmark metric on two worlds (6 players at turn 1, and after 300 turns) with the
  server under test, a bare baseline server and the load generator in separate processes, and
  prints PASS/FAIL per target (exit 1 on a FAIL). Results: bench/results/*.json (git-ignored).
  --quick   a short pass (shorter rounds, fewer worlds) to run before a commit
  --only=<steps>  only these steps, comma-separated: memory (#7 #8), latency (#1 #2 #4),
            throughput (#3 #11), reconnect (#10), processes (#3 on three processes of one
            site against one; PostgreSQL only), rebuild (the rebuilds and the moderator's
            rollback), micro (#5 #6 #9 #12 and the growth figures); a partial run, for working on them
  Database: DATABASE_URL's PostgreSQL when set (each run makes and drops its own databases), else
  the embedded PostgreSQL. The worlds are built once and cached in .data/bench-fixtures.
  BENCH_CPU_PROFILE=<folder>: the server under test writes its V8 CPU profile there.
  BENCH_TAIL=1: each latency step also prints what its slowest 1 % of orders waited on (late
  sends, transit, the world's queue, the pool, the append, garbage collection, a blocked loop).
  The full suite also times npm run rebuild of the code before the long-world work (481e9ca), taken
  from git into .data/bench-earlier/ with its own install and its own 300-turn world built by its own
  benchmark (minutes the first time, then cached): today's rebuild time over that one is a target.
  Without that commit in the history (a shallow clone) or its install, the check fails and says why.`;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const STEPS = ['memory', 'latency', 'throughput', 'reconnect', 'processes', 'rebuild', 'micro'] as const;
type Step = (typeof STEPS)[number];
const onlyArg = argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : [...STEPS];
const unknown = [
  ...argv.filter((a) => a !== '--quick' && a !== onlyArg),
  ...only.filter((s) => !(STEPS as readonly string[]).includes(s)),
];
if (unknown.length > 0) {
  console.error(`unknown argument ${unknown[0]}\n${USAGE}`);
  process.exit(2);
}
const quick = argv.includes('--quick');
const runs = (step: Step) => only.includes(step);

const settings: Settings = quick
  ? {
      quick,
      rounds: 5,
      seconds: 1.5,
      levels: { turn1: [1, 34], turn300: [1, 6] },
      idleWorlds: { turn1: 100, turn300: 6 },
      idleConnections: 200,
      idleStep: 2000,
      storm: 200,
    }
  : {
      quick,
      rounds: 5,
      seconds: 3,
      // About 1, 200 and 1000 clients (six per world); the 300-turn world stops at about 200.
      levels: { turn1: [1, 34, 167], turn300: [1, 34] },
      idleWorlds: { turn1: 1000, turn300: 40 },
      idleConnections: 1000,
      idleStep: 10_000,
      storm: 1000,
    };

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const started = Date.now();
const host = hostFacts();
console.log(
  `[bench] ${quick ? 'quick pass' : 'full suite'} on ${databaseKind() === 'postgres' ? 'DATABASE_URL' : 'the embedded PostgreSQL'}; ${host.cores} cores, Node ${host.node}, fsync p50 ${host.fsyncMsP50} ms, load average ${host.loadAverage.join(' ')}`,
);

const checks: Check[] = [];
const figures: Record<string, unknown> = {};
const loads: { at: string; step: string; load: number[] }[] = [];
let shown = 0;
const mark = (step: string) => {
  // The verdicts of the step that ended, at once: a run stopped later keeps them in its output.
  if (checks.length > shown) printTable(checks.slice(shown));
  shown = checks.length;
  loads.push({ at: new Date().toISOString(), step, load: loadAverage() });
  console.log(`[bench] ${step} (load average ${loadAverage().join(' ')})`);
};

const fixtureFile = await ensureFixtures();
const set: FixtureSet = readFixtures(fixtureFile);
const engine = createEngine();

const serverDb = await freshDatabase('server');
const bareDb = await freshDatabase('bare');
const server = startChild(SERVER_UNDER_TEST, here('./processes/server.ts'));
const bare = startChild('bare baseline', here('./processes/bare.ts'));
const load = startChild('load generator', here('./processes/load.ts'));
// Stopped by hand: the children and this run's databases go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void Promise.allSettled([server.stop(), bare.stop(), load.stop()])
      .then(() => Promise.allSettled([serverDb.drop(), bareDb.drop()]))
      .finally(() => process.exit(130));
  });
let fullWorld = '';
let exitCode = 1;
try {
  const copies = {
    turn1: Math.max(settings.idleWorlds.turn1, ...settings.levels.turn1),
    turn300: Math.max(settings.idleWorlds.turn300, ...settings.levels.turn300),
  };
  mark(`restoring ${copies.turn1} + ${copies.turn300} worlds into the server's database`);
  const s = await server.request<Started>('start', { db: serverDb, fixtures: fixtureFile, copies });
  const b = await bare.request<{ url: string }>('start', { db: bareDb });
  figures.restoreSeconds = s.restoreSeconds;
  fullWorld = s.worlds.turn300[0]?.worldId ?? '';
  const ctx: Context = {
    settings,
    server,
    bare,
    load,
    serverUrl: s.url,
    bareUrl: b.url,
    worlds: s.worlds,
    fixtures: set.fixtures,
    checks,
    figures,
  };
  if (runs('memory')) {
    for (const name of ['turn1', 'turn300'] as FixtureName[]) {
      mark(`#7 idle games, ${name}`);
      await idleGames(ctx, name);
    }
    const spectatorView = (name: FixtureName) => engine.view(set.fixtures[name].state as GameState, null);
    for (const name of ['turn1', 'turn300'] as FixtureName[]) {
      mark(`#8 idle connections, ${name}`);
      await idleConnections(ctx, name, spectatorView(name));
    }
    mark(`#8 ${settings.idleStep} idle connections on one process, turn1`);
    await manyIdleConnections(ctx, 'turn1', spectatorView('turn1'));
  }
  for (const name of ['turn1', 'turn300'] as FixtureName[]) {
    if (!runs('latency') && !runs('throughput') && !runs('reconnect')) break;
    mark(`opening the players' sockets, ${name}`);
    await openGroups(ctx, name);
    for (const worlds of runs('latency') ? settings.levels[name] : []) {
      mark(`#1 #2 #4 latency and bytes, ${name}, ${worlds} world(s)`);
      await latencyScenario(ctx, name, worlds);
    }
    if (runs('throughput')) {
      mark(`#3 #11 throughput, ${name}`);
      await throughputScenario(ctx, name);
    }
    if (runs('reconnect')) {
      mark(`#10 reconnects, ${name}`);
      const view = engine.view(set.fixtures[name].state as GameState, 'p1' as PlayerId);
      await reconnectScenario(ctx, name, view);
    }
    await load.request('close', `${name}-server`);
    await load.request('close', `${name}-bare`);
  }
  if (runs('throughput')) cpuByAge(ctx);
  if (runs('processes')) {
    mark('#3 three processes of one site against one, turn1');
    await processesScenario(ctx, serverDb);
  }
  figures.cpuMsPerProcess = {
    server: await server.request<number>('cpu'),
    bare: await bare.request<number>('cpu'),
    load: await load.request<number>('cpu'),
  };
  exitCode = 0;
} catch (e) {
  console.error('[bench] failed:', e);
  checks.push(absoluteCheck('—', '—', `the run itself (${oneLine(e)})`, 1, '', { max: 0 }));
} finally {
  await Promise.all([server.stop(), bare.stop(), load.stop()]);
}

const today: TodayRebuild = {
  run: null,
  reason: 'the run failed before it',
  turn: set.fixtures.turn300.turn,
  version: set.fixtures.turn300.version,
};
if (fullWorld && runs('rebuild')) {
  mark('rebuild of the 300-turn world');
  try {
    const r = await rebuildScenario(serverDb, fullWorld);
    checks.push(...r.checks);
    today.run = r.run;
  } catch (e) {
    today.reason = oneLine(e);
    checks.push(absoluteCheck('LW', 'turn 300', `npm run rebuild (${today.reason})`, 1, '', { max: 0 }));
  }
  // After the rebuild, which the rollbacks would change: each round rolls the world back a turn.
  mark("a moderator's list of turns and rollback on the 300-turn world");
  const moderator = startChild('moderator', here('./processes/moderator.ts'));
  try {
    checks.push(
      ...(await moderator.request<Check[]>('run', {
        db: serverDb,
        worldId: fullWorld,
        rounds: settings.rounds,
      })),
    );
  } catch (e) {
    checks.push(absoluteCheck('LW', 'turn 300', `moderator rollback (${oneLine(e)})`, 1, '', { max: 0 }));
  } finally {
    await moderator.stop();
  }
}
await bareDb.drop();
// The earlier code path's own world and rebuild: minutes the first time, under a minute when cached.
// Today's rebuild is timed again in its rounds, on the server's database, dropped after them.
if (!runs('rebuild')) console.log('[bench] the rebuilds are not in this partial run');
else if (quick)
  console.log('[bench] the rebuild against the code before the long-world work runs in the full suite');
else {
  mark("rebuild by the code before the long-world work, interleaved with today's");
  if (today.run) today.again = () => timeRebuild(ROOT, serverDb, fullWorld);
  checks.push(...(await rebuildThenScenario(today, settings.rounds)));
}
await serverDb.drop();

if (runs('micro')) await microAndGrowth();

/** #5 #6 #9 #12, each in a process of its own, and how the world grew while it was built. */
async function microAndGrowth(): Promise<void> {
  const micro = async (name: string, file: string, payload: unknown) => {
    mark(name);
    const child = startChild(name, here(file));
    try {
      checks.push(...(await child.request<Check[]>('run', payload)));
    } catch (e) {
      checks.push(absoluteCheck('—', '—', `${name} (${oneLine(e)})`, 1, '', { max: 0 }));
    } finally {
      await child.stop();
    }
  };
  await micro('#5 #6 patch production and application', './micro/patches.ts', {
    file: fixtureFile,
    orders: quick ? 60 : 200,
    rounds: settings.rounds,
  });
  await micro('#9 engine', './micro/engine.ts', {
    file: fixtureFile,
    orders: quick ? 300 : 800,
    rounds: settings.rounds,
  });
  const ormDb = await freshDatabase('orm');
  await micro('#12 ORM on the hot path', './micro/orm.ts', {
    db: ormDb,
    perRound: quick ? 100 : 300,
    rounds: settings.rounds,
  });
  await ormDb.drop();

  // How the world grew while it was built: state size and database bytes per game turn by age.
  const at = (turn: number) =>
    set.growth.reduce((best, g) => (Math.abs(g.turn - turn) < Math.abs(best.turn - turn) ? g : best));
  const stored = (g: (typeof set.growth)[number]) => Object.values(g.stored).reduce((a, b) => a + b, 0);
  const perTurn = (turn: number) => {
    const i = set.growth.indexOf(at(turn));
    const a = set.growth[i - 1];
    const b = set.growth[i];
    return a && b ? (stored(b) - stored(a)) / Math.max(1, b.turn - a.turn) : Number.NaN;
  };
  // Ten-turn windows ending at turn 100 and at turn 300 (the last point, turn 301, is the fixture's head).
  const lastTurn = at(300).turn;
  checks.push(
    ratioCheck(
      'LW',
      'growth',
      `engine state JSON at turn ${lastTurn} vs turn ${at(100).turn}`,
      at(lastTurn).stateBytes,
      at(100).stateBytes,
      ' B',
      { max: 1.2 },
    ),
    ratioCheck(
      'LW',
      'growth',
      `database bytes per game turn at turn ${lastTurn} vs turn ${at(100).turn}`,
      perTurn(lastTurn),
      perTurn(100),
      ' B',
      { max: 1.2 },
      {
        bytesByTurn: set.growth.map((g) => [g.turn, stored(g)]),
      },
    ),
  );
}

const after = loadAverage();
printTable(checks);
// Figures shown for information have no target: they are counted apart.
const targeted = checks.filter((c) => c.target !== 'info');
const failed = targeted.filter((c) => !c.pass);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  `\nbench: ${targeted.length - failed.length} of ${targeted.length} within target, ${failed.length} failed (and ${checks.length - targeted.length} figures for information); ${minutes} min; load average ${host.loadAverage[0]} at the start, ${after[0]} at the end — a shared machine: figures are noisy`,
);
const dir = path.join(ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const result = {
  at: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  only,
  minutes: Number(minutes),
  database: databaseKind(),
  host: { ...host, loadAverageAtEnd: after },
  loadAverages: loads,
  settings,
  fixtures: { key: set.key, builtAt: set.builtAt, buildSeconds: set.buildSeconds, growth: set.growth },
  checks,
  figures,
};
const name = `bench-${quick ? 'quick' : 'full'}-${result.at.replace(/[:.]/g, '-')}.json`;
writeFileSync(path.join(dir, name), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  path.join(dir, `latest-${quick ? 'quick' : 'full'}.json`),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(`results: bench/results/${name}`);
process.exit(failed.length > 0 || exitCode !== 0 ? 1 : 0);
