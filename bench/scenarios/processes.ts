/**
 * Three processes of one site against one (PostgreSQL only: the embedded database admits a single
 * process). The load is #3's: every world's players send their next order as soon as the previous
 * one is acknowledged, the same number of worlds and players on each side. One side plays on the
 * server under test alone; the other on it and two more processes of the same database, which
 * reach each other through Socket.IO's PostgreSQL adapter as deployed processes do. Players are
 * sent to processes in two ways, each its own row:
 *  - by seat, player after player in turn: what the shipped proxy (deploy/haproxy.cfg, round
 *    robin with a sticky cookie) does, so every process holding a world plays each of its orders;
 *  - by world, all of a world's players to one process: what a proxy routing by world would do.
 * Target: durable orders per second with three processes ≥ 2.6× one process's. The CPU the
 * processes spend per order is printed beside it (three processes on a machine with fewer cores
 * share them, and then cannot triple anything).
 */
import { fileURLToPath } from 'node:url';
import { FIXTURE_LABEL } from '../fixtures/fixture.ts';
import { type Child, serverProcess, startChild } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { hostFacts } from '../lib/host.ts';
import { absoluteCheck, type Check, droppedSocketsCheck, ratioCheck } from '../lib/report.ts';
import { interleaved, type Paired } from '../lib/rounds.ts';
import { median } from '../lib/stats.ts';
import { type Context, cpuOf } from './context.ts';
import type { Throughput } from './throughput.ts';

interface Round {
  perSecond: number;
  /** CPU of every server process of the side, per order. */
  cpuMsPerOrder: number;
  errors: number;
  dropped: number;
}

const PROCESSES = 3;

export async function processesScenario(ctx: Context, serverDb: BenchDatabase): Promise<void> {
  const name = 'turn1';
  const fixture = FIXTURE_LABEL[name];
  if (serverDb.kind !== 'postgres') {
    ctx.checks.push({
      ...absoluteCheck(
        '3',
        fixture,
        'three processes: not measured (the embedded database admits one process)',
        0,
        '',
        {
          max: 0,
        },
      ),
      target: 'info',
    });
    return;
  }
  // Worlds no other step plays in (the latency groups take the first ones), the same count per group.
  const first = Math.max(...ctx.settings.levels[name]);
  const per = Math.min(34, Math.floor((ctx.worlds[name].length - first) / 3));
  const worlds = (k: number) => ctx.worlds[name].slice(first + k * per, first + (k + 1) * per);
  const url = (child: Child) => child.request<{ url: string }>('join', { db: serverDb }).then((r) => r.url);
  const others = Array.from({ length: PROCESSES - 1 }, (_, i) =>
    startChild(serverProcess(i + 2), fileURLToPath(new URL('../processes/server.ts', import.meta.url))),
  );
  const groups = ['procs-one', 'procs-world', 'procs-seat'];
  try {
    await ctx.load.request('script', { name, script: ctx.fixtures[name].script });
    const urls = [ctx.serverUrl, ...(await Promise.all(others.map(url)))];
    await ctx.load.request('open', {
      group: groups[0],
      target: 'server',
      url: ctx.serverUrl,
      script: name,
      worlds: worlds(0),
      seeFirst: true,
    });
    for (const [k, by] of [
      [1, 'world'],
      [2, 'seat'],
    ] as const)
      await ctx.load.request('open', {
        group: groups[k],
        target: 'server',
        url: ctx.serverUrl,
        spread: { urls, by },
        seeFirst: true,
        script: name,
        worlds: worlds(k),
      });
    const measure = async (group: string, servers: Child[]): Promise<Round> => {
      const cpu = async () => (await Promise.all(servers.map(cpuOf))).reduce((a, b) => a + b, 0);
      const c0 = await cpu();
      const tp = await ctx.load.request<Throughput>('throughput', {
        group,
        worlds: per,
        seconds: ctx.settings.seconds,
      });
      const spent = (await cpu()) - c0;
      return {
        perSecond: tp.orders / tp.seconds,
        cpuMsPerOrder: spent / Math.max(1, tp.orders),
        errors: tp.errors,
        dropped: tp.dropped,
      };
    };
    const all = [ctx.server, ...others];
    const pairs: Record<'world' | 'seat', Paired<Round>> = {
      world: await interleaved(ctx.settings.rounds, {
        A: () => measure(groups[0]!, [ctx.server]),
        B: () => measure(groups[1]!, all),
      }),
      seat: await interleaved(ctx.settings.rounds, {
        A: () => measure(groups[0]!, [ctx.server]),
        B: () => measure(groups[2]!, all),
      }),
    };
    const load = `${per} worlds × 6 players, saturating, ${hostFacts().cores} cores`;
    const said = { world: 'players sent by world', seat: 'players sent in turn (as the shipped proxy)' };
    for (const by of ['seat', 'world'] as const) {
      const r = pairs[by];
      const perRound = (xs: Round[], f: (x: Round) => number) => xs.map((x) => Number(f(x).toFixed(1)));
      console.log(
        `  ${said[by]} — orders/s per round, three: ${perRound(r.B, (x) => x.perSecond).join(' ')}; one: ${perRound(r.A, (x) => x.perSecond).join(' ')}; CPU ms per order, three: ${perRound(r.B, (x) => x.cpuMsPerOrder).join(' ')}; one: ${perRound(r.A, (x) => x.cpuMsPerOrder).join(' ')}`,
      );
      const checks: Check[] = [
        ratioCheck(
          '3',
          fixture,
          `durable orders/s, three processes vs one, ${said[by]}, ${load}`,
          median(r.B.map((x) => x.perSecond)),
          median(r.A.map((x) => x.perSecond)),
          '/s',
          { min: 2.6 },
          { rounds: perRound(r.B, (x) => x.perSecond), baselineRounds: perRound(r.A, (x) => x.perSecond) },
        ),
        {
          ...ratioCheck(
            '3',
            fixture,
            `server CPU per durable order, three processes vs one, ${said[by]}`,
            median(r.B.map((x) => x.cpuMsPerOrder)),
            median(r.A.map((x) => x.cpuMsPerOrder)),
            ' ms',
            { max: Number.POSITIVE_INFINITY },
          ),
          target: 'info',
        },
      ];
      const errors = r.B.reduce((n, x) => n + x.errors, 0) + r.A.reduce((n, x) => n + x.errors, 0);
      if (errors > 0)
        checks.push(
          absoluteCheck('3', fixture, `orders refused or unanswered, ${said[by]}`, errors, '', { max: 0 }),
        );
      const lost = droppedSocketsCheck('3', fixture, `three processes, ${said[by]}`, r);
      if (lost) checks.push(lost);
      ctx.checks.push(...checks);
    }
    ctx.figures['three processes'] = pairs;
  } finally {
    for (const g of groups) await ctx.load.request('close', g).catch(() => {});
    await Promise.all(others.map((c) => c.stop()));
  }
}
