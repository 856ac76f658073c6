/**
 * Bots on the real server. Three measures:
 *  - a strong bot's decision time late in a game: six strong bots play in-process to turn 300, and
 *    every decision of turns 290–300 is timed; target p99 ≤ 50 ms. Baseline: the engine's own
 *    `legalOrders` for the same states (what any player's client asks for), for scale.
 *  - a world of six strong bots, then one of six Experts, each plays 100 game turns through the
 *    real server (the bot driver, the Experts' search threads, the world's queue, PostgreSQL); a
 *    probe queues an empty task on the world's queue every 20 ms and times how long it waits:
 *    target no wait over 200 ms. Baseline: the same probe on an idle world. The Experts' world has
 *    30 s a phase, so each search is given 100 ms; target: the searches as the driver waited for
 *    them, p99 within that budget + 10 %.
 * `npm run bench:bots` (on its own: it takes minutes). BOT_TURNS, BOT_EXPERT_TURNS (default 100
 * each) and BOT_LATE_TURN (default 300) shorten a run. Database: DATABASE_URL's PostgreSQL, else
 * the embedded one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createBot, createEngine, type GameState, type PlayerId, simSetup } from '@bke/engine';
import { buildApp, migrateDatabase, openDatabase } from '@bke/server';
import { freshDatabase } from './lib/database.ts';
import { hostFacts, loadAverage } from './lib/host.ts';
import { absoluteCheck, printTable } from './lib/report.ts';
import { quantile } from './lib/stats.ts';

const USAGE = `usage: npm run bench:bots   (no arguments; settings by environment)
  BOT_TURNS=100       game turns the six strong bots' world plays through the real server
  BOT_EXPERT_TURNS=100  game turns the six Experts' world plays through the real server
  BOT_LATE_TURN=300   the turn whose last ten turns' decisions are timed
  DATABASE_URL        PostgreSQL to use (else the embedded database)`;
const args = process.argv.slice(2);
if (args.length > 0) {
  const help = args.every((a) => a === '--help' || a === '-h');
  (help ? process.stdout : process.stderr).write(
    `${help ? '' : `bench:bots: unknown arguments ${args.join(' ')}\n`}${USAGE}\n`,
  );
  process.exit(help ? 0 : 2);
}
/** A whole number of turns from the environment, within bounds; anything else stops with the usage. */
function turnsFrom(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (/^\d{1,4}$/.test(raw) && n >= min && n <= 5000) return n;
  process.stderr.write(`bench:bots: ${name} must be a whole number from ${min} to 5000\n${USAGE}\n`);
  process.exit(2);
}
const TURNS = turnsFrom('BOT_TURNS', 100, 1);
const EXPERT_TURNS = turnsFrom('BOT_EXPERT_TURNS', 100, 1);
const LATE = turnsFrom('BOT_LATE_TURN', 300, 11);

/** Six strong bots to turn LATE; the decisions of the last ten turns timed. */
function lateDecisions() {
  const engine = createEngine();
  const created = engine.createGame(simSetup('bench-late', 6));
  if (!created.ok) throw new Error(created.error.code);
  let state: GameState = created.value;
  const bots = new Map(state.players.map((p) => [p.id, createBot('strong', `late:${p.id}`)]));
  const decisions: number[] = [];
  const legal: number[] = [];
  while (state.turn <= LATE) {
    const player = engine.waitingFor(state)[0] as PlayerId | undefined;
    if (!player) break;
    const timed = state.turn > LATE - 10;
    const t0 = performance.now();
    const order = bots.get(player)?.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0];
    if (timed) {
      decisions.push(performance.now() - t0);
      const t1 = performance.now();
      engine.legalOrders(state, player);
      legal.push(performance.now() - t1);
    }
    let r = engine.applyOrder(state, player, order);
    if (!r.ok) r = engine.applyOrder(state, player, engine.timeoutOrders(state, player)[0]);
    if (!r.ok) throw new Error(r.error.code);
    state = r.value.state;
  }
  return { decisions, legal, turn: state.turn };
}

/**
 * Six bots of `level` play TURNS game turns of one live world of `minutesPerPhase` through the real
 * server, while a probe times the world's queue.
 */
async function serverWorld(level: 'strong' | 'expert', minutesPerPhase: number, playTurns: number) {
  const fresh = await freshDatabase('bots');
  const db = await openDatabase(
    fresh.kind === 'postgres' ? { kind: 'postgres', url: fresh.url, poolSize: 5 } : fresh,
  );
  try {
    await migrateDatabase(db);
    const app = await buildApp({ db, webDist: '/nonexistent', deadlinePollMs: 0, bots: { aloneMs: 0 } });
    const user = await db.prisma.user.create({
      data: { username: 'bench', usernameKey: 'bench', passwordHash: 'x' },
    });
    const w = await app.hub.createWorld(user.id, {
      name: 'bots',
      deadline: { mode: 'live', minutesPerPhase },
    });
    if (!w.ok) throw new Error('world');
    const rt = await app.hub.get(w.worldId);
    if (!rt) throw new Error('no world');
    // Where a long wait comes from: the slowest commits (orders, ms), the slowest tasks on the
    // world's queue (where they were queued from) and the event loop's delays.
    const commits: { ms: number; orders: number; types: string }[] = [];
    const commit = rt.commit.bind(rt);
    rt.commit = async (batch, ...rest) => {
      const t = performance.now();
      const r = await commit(batch, ...rest);
      commits.push({
        ms: performance.now() - t,
        orders: batch.length,
        types: batch.map((b) => (b.order as { type?: string }).type).join(','),
      });
      return r;
    };
    const tasks: { ms: number; from: string }[] = [];
    const run = rt.run.bind(rt);
    rt.run = <T>(fn: () => Promise<T>) => {
      const from = (new Error().stack ?? '')
        .split('\n')
        .slice(2, 5)
        .map((l) => l.trim().replace(/\(.*\/(src|bench)\//, '('))
        .join(' < ');
      return run(async () => {
        const t = performance.now();
        try {
          return await fn();
        } finally {
          tasks.push({ ms: performance.now() - t, from });
        }
      });
    };
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // The idle probe first (baseline), then the bots are seated and play.
    const probe = async (until: () => boolean) => {
      const waits: number[] = [];
      while (!until()) {
        const t = performance.now();
        await rt.run(async () => {});
        waits.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
      return waits;
    };
    const idleEnd = performance.now() + 3000;
    const idle = await probe(() => performance.now() > idleEnd);
    const started = performance.now();
    for (let i = 0; i < 6; i++) {
      const r = await app.hub.addBot(w.worldId, level, user.id);
      if (!r.ok) throw new Error(r.error.code);
    }
    const cap = started + 30 * 60_000;
    const busy = await probe(() => rt.state.turn > playTurns || performance.now() > cap);
    const seconds = (performance.now() - started) / 1000;
    const orders = await db.prisma.worldOrder.count({ where: { worldId: w.worldId, kind: 'bot' } });
    const turns = rt.state.turn - 1;
    const decisions = [...(app.bots?.decisionTimes ?? [])];
    const searches = [...(app.bots?.searchTimes ?? [])];
    const budgetMs = app.bots?.expertBudgetMs(rt) ?? 0;
    loop.disable();
    await app.close();
    const slowest = [...commits].sort((a, b) => b.ms - a.ms).slice(0, 5);
    const slowTasks = [...tasks].sort((a, b) => b.ms - a.ms).slice(0, 3);
    const eventLoopMaxMs = loop.max / 1e6;
    return {
      idle,
      busy,
      seconds,
      orders,
      turns,
      decisions,
      searches,
      budgetMs,
      slowest,
      slowTasks,
      eventLoopMaxMs,
      commits: commits.length,
    };
  } finally {
    await db.close();
    await fresh.drop();
  }
}

const late = lateDecisions();
const lateLoad = loadAverage();
const p99 = quantile(late.decisions, 0.99);
const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(
  `late game: ${late.decisions.length} decisions of turns ${LATE - 9}–${LATE}: p50 ${ms(quantile(late.decisions, 0.5))}, p99 ${ms(p99)}, max ${ms(Math.max(...late.decisions))}; legalOrders alone p99 ${ms(quantile(late.legal, 0.99))} (load ${lateLoad.join(' ')})`,
);
const checks = [
  absoluteCheck(
    'bots',
    'turn 300',
    'strong bot decision p99',
    p99,
    ' ms',
    { max: 50 },
    {
      decisions: late.decisions.length,
      p50: quantile(late.decisions, 0.5),
      legalOrdersP99: quantile(late.legal, 0.99),
      load: lateLoad,
    },
  ),
];
// Strong bots in a world of 10 minutes a phase; Experts in one of 30 s a phase, where their
// search is given 100 ms (a three-hundredth of the phase, the least the driver gives).
for (const [level, minutes, turns] of [
  ['strong', 10, TURNS],
  ['expert', 0.5, EXPERT_TURNS],
] as const) {
  const world = await serverWorld(level, minutes, turns);
  const load = loadAverage();
  const stall = Math.max(...world.busy);
  const name = `six ${level} bots`;
  console.log(
    `${name}: ${world.turns} turns, ${world.orders} bot orders in ${world.seconds.toFixed(0)} s; queue wait p50 ${ms(quantile(world.busy, 0.5))}, p99 ${ms(quantile(world.busy, 0.99))}, max ${ms(stall)} (idle world max ${ms(Math.max(...world.idle))}); decisions p99 ${ms(quantile(world.decisions, 0.99))} (load ${load.join(' ')})`,
  );
  console.log(
    `${name}: ${world.commits} commits; event loop delay max ${ms(world.eventLoopMaxMs)}; slowest commits: ${world.slowest.map((c) => `${c.ms.toFixed(0)} ms (${c.orders}: ${c.types})`).join('; ')}`,
  );
  console.log(
    `${name}: slowest queue tasks: ${world.slowTasks.map((x) => `${x.ms.toFixed(0)} ms queued ${x.from}`).join('; ')}`,
  );
  checks.push(
    absoluteCheck(
      'bots',
      `6 ${level}`,
      `longest queue wait over ${world.turns} turns`,
      stall,
      ' ms',
      { max: 200 },
      {
        turns: world.turns,
        orders: world.orders,
        seconds: world.seconds,
        probeP50: quantile(world.busy, 0.5),
        probeP99: quantile(world.busy, 0.99),
        idleMax: Math.max(...world.idle),
        decisionP99: quantile(world.decisions, 0.99),
        load,
      },
    ),
  );
  if (level === 'expert') {
    console.log(
      `${name}: ${world.searches.length} searches of ${world.budgetMs} ms, as the driver waited for them: p50 ${ms(quantile(world.searches, 0.5))}, p99 ${ms(quantile(world.searches, 0.99))}, max ${ms(Math.max(...world.searches))}`,
    );
    checks.push(
      absoluteCheck(
        'bots',
        `6 ${level}`,
        `Expert search p99 (budget ${world.budgetMs} ms + 10 %)`,
        world.searches.length > 0 ? quantile(world.searches, 0.99) : Number.NaN,
        ' ms',
        { max: Math.round(world.budgetMs * 1.1) },
        { searches: world.searches.length, p50: quantile(world.searches, 0.5), load },
      ),
    );
  }
}
printTable(checks);
const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(
  path.join(dir, 'bots.json'),
  `${JSON.stringify({ at: new Date().toISOString(), host: hostFacts(), checks }, null, 2)}\n`,
);
process.exit(checks.every((c) => c.pass) ? 0 : 1);
