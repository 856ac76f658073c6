/**
 * Metrics 3 and 11, and the server's CPU per durable order: every world's players send their next
 * order as soon as the previous one is acknowledged (saturation), about 200 clients.
 *  #3 durable orders per server CPU-second against the bare echo's round trips per CPU-second
 *     (≥ 0.20×), and durable orders per second against the bare server's `pg` commits per second
 *     with one INSERT per echo at the same load and pool size (≥ 0.6×);
 *  #11 event-loop delay p99 of the server against the bare echo+INSERT server under the same load
 *     (≤ 1.5×).
 */
import { FIXTURE_LABEL, type FixtureName } from '../fixtures/fixture.ts';
import { absoluteCheck, droppedSocketsCheck, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { median, pooled } from '../lib/stats.ts';
import { type Context, cpuOf } from './context.ts';

interface Round {
  /** Orders (or echoes) per CPU-second of the measured process. */
  perCpuSecond: number;
  /** Orders (or commits) per wall-clock second. */
  perSecond: number;
  cpuMsPerOrder: number;
  loopDelay: number[];
  /** The bare side's echo without a database, per bare CPU-second. */
  echoPerCpuSecond?: number;
  /** Orders refused or unanswered (after 30 s). */
  errors: number;
  /** Players' sockets lost (they rejoined). */
  dropped: number;
}

/** The load generator's answer to a `throughput` request (processes/load.ts). */
export type Throughput = { orders: number; errors: number; seconds: number; dropped: number };

export async function throughputScenario(ctx: Context, name: FixtureName): Promise<void> {
  const fixture = FIXTURE_LABEL[name];
  const worlds = Math.min(34, ctx.worlds[name].length);
  const { rounds, seconds } = ctx.settings;
  const measure = async (
    proc: typeof ctx.server,
    group: string,
    db: boolean,
  ): Promise<{ tp: Throughput; cpu: number; loop: number[] }> => {
    await proc.request('loopStart');
    const c0 = await cpuOf(proc);
    const tp = await ctx.load.request<Throughput>('throughput', { group, worlds, seconds, db });
    const cpu = (await cpuOf(proc)) - c0;
    const loop = await proc.request<number[]>('loopStop');
    // Orders that went unanswered: what the server was still busy with, for the output.
    if (tp.errors > 0 && proc === ctx.server)
      console.log(
        `  ${tp.errors} order(s) unanswered; server: ${JSON.stringify(await proc.request('diagnose'))}`,
      );
    return { tp, cpu, loop };
  };
  const r = await interleaved<Round>(rounds, {
    A: async () => {
      const echo = await measure(ctx.bare, `${name}-bare`, false);
      const withDb = await measure(ctx.bare, `${name}-bare`, true);
      return {
        perCpuSecond: withDb.tp.orders / (withDb.cpu / 1000),
        perSecond: withDb.tp.orders / withDb.tp.seconds,
        cpuMsPerOrder: withDb.cpu / withDb.tp.orders,
        loopDelay: withDb.loop,
        echoPerCpuSecond: echo.tp.orders / (echo.cpu / 1000),
        errors: echo.tp.errors + withDb.tp.errors,
        dropped: echo.tp.dropped + withDb.tp.dropped,
      };
    },
    B: async () => {
      const m = await measure(ctx.server, `${name}-server`, true);
      return {
        perCpuSecond: m.tp.orders / (m.cpu / 1000),
        perSecond: m.tp.orders / m.tp.seconds,
        cpuMsPerOrder: m.cpu / Math.max(1, m.tp.orders),
        loopDelay: m.loop,
        errors: m.tp.errors,
        dropped: m.tp.dropped,
      };
    },
  });
  const load = `${worlds} worlds × 6 players, saturating`;
  const echoPerCpu = median(r.A.map((x) => x.echoPerCpuSecond ?? Number.NaN));
  const serverPerCpu = median(r.B.map((x) => x.perCpuSecond));
  const commits = median(r.A.map((x) => x.perSecond));
  const orders = median(r.B.map((x) => x.perSecond));
  const loopA = pooled(r.A.map((x) => x.loopDelay));
  const loopB = pooled(r.B.map((x) => x.loopDelay));
  const cpuPerOrder = median(r.B.map((x) => x.cpuMsPerOrder));
  const perRound = (xs: Round[], f: (x: Round) => number) => xs.map((x) => Number(f(x).toFixed(1)));
  console.log(
    `  per round — server orders/CPU-s: ${perRound(r.B, (x) => x.perCpuSecond).join(' ')}; echo/CPU-s: ${perRound(r.A, (x) => x.echoPerCpuSecond ?? Number.NaN).join(' ')}; orders/s: ${perRound(r.B, (x) => x.perSecond).join(' ')}; bare commits/s: ${perRound(r.A, (x) => x.perSecond).join(' ')}`,
  );
  ctx.checks.push(
    ratioCheck(
      '3',
      fixture,
      `durable orders per server CPU-s vs echo per CPU-s, ${load}`,
      serverPerCpu,
      echoPerCpu,
      '/cpu-s',
      { min: 0.2 },
      {
        rounds: perRound(r.B, (x) => x.perCpuSecond),
        baselineRounds: perRound(r.A, (x) => x.echoPerCpuSecond ?? Number.NaN),
      },
    ),
    ratioCheck(
      '3',
      fixture,
      `durable orders/s vs bare pg commits/s (a commit per order), ${load}`,
      orders,
      commits,
      '/s',
      { min: 0.6 },
      {
        rounds: perRound(r.B, (x) => x.perSecond),
        baselineRounds: perRound(r.A, (x) => x.perSecond),
      },
    ),
    ratioCheck(
      '11',
      fixture,
      `event-loop delay p99 under #3 load`,
      loopB.p99,
      loopA.p99,
      ' ms',
      { max: 1.5 },
      {
        p50: loopB.p50,
        baselineP50: loopA.p50,
        roundsP99: loopB.rounds.map((x) => Number(x.p99.toFixed(2))),
      },
    ),
  );
  const errors = r.B.reduce((n, x) => n + x.errors, 0);
  const baselineErrors = r.A.reduce((n, x) => n + x.errors, 0);
  if (errors > 0 || baselineErrors > 0)
    ctx.checks.push(
      absoluteCheck(
        '3',
        fixture,
        `orders refused or unanswered, ${load}`,
        errors,
        '',
        { max: 0 },
        {
          baseline: baselineErrors,
        },
      ),
    );
  const lost = droppedSocketsCheck('3', fixture, load, r);
  if (lost) ctx.checks.push(lost);
  ctx.figures[`cpu per order ${name}`] = cpuPerOrder;
  ctx.figures[`throughput ${name}`] = { echoPerCpu, serverPerCpu, commits, orders, cpuPerOrder, rounds: r };
}

/** The long-world CPU targets, once both fixtures ran: flat with age, and 5× under 7 ms. */
export function cpuByAge(ctx: Context): void {
  const young = ctx.figures['cpu per order turn1'] as number | undefined;
  const old = ctx.figures['cpu per order turn300'] as number | undefined;
  if (young === undefined || old === undefined) return;
  ctx.checks.push(
    ratioCheck('LW', 'turn 300', 'server CPU per durable order vs turn 1 (saturating)', old, young, ' ms', {
      max: 1.3,
    }),
    absoluteCheck('LW', 'turn 300', 'server CPU per durable order (≥ 5× better than 7 ms)', old, ' ms', {
      max: 1.4,
    }),
  );
}
