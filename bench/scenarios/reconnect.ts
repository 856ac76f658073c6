/**
 * Metric 10: a client that lost its connection connects again, subscribes from the version it held
 * and is resynced (patches applied, or a full view); its view must then equal the server's full
 * view. Baseline: a bare connect that receives the full view on connection. One client reconnecting
 * over and over (p50 ≤ 1.3×, p99 ≤ 2×), and a storm of clients reconnecting within one second (no
 * client dropped, none out of sync).
 */
import { FIXTURE_LABEL, type FixtureName } from '../fixtures/fixture.ts';
import { absoluteCheck, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { pooled } from '../lib/stats.ts';
import type { Context } from './context.ts';

type Result = { lat: number[]; dropped: number; mismatched: number };

export async function reconnectScenario(ctx: Context, name: FixtureName, view: unknown): Promise<void> {
  const fixture = FIXTURE_LABEL[name];
  await ctx.bare.request('view', view);
  const one = (side: 'server' | 'bare') => async () => {
    const out: Result = { lat: [], dropped: 0, mismatched: 0 };
    for (let i = 0; i < (ctx.settings.quick ? 5 : 15); i++) {
      const r = await ctx.load.request<Result>('reconnect', {
        group: `${name}-${side}`,
        clients: 1,
        spreadMs: 0,
      });
      out.lat.push(...r.lat);
      out.dropped += r.dropped;
      out.mismatched += r.mismatched;
    }
    return out;
  };
  const r = await interleaved(ctx.settings.rounds, { A: one('bare'), B: one('server') });
  const a = pooled(r.A.map((x) => x.lat));
  const b = pooled(r.B.map((x) => x.lat));
  console.log(
    `  reconnect per round, p50 ms — server: ${b.rounds.map((x) => x.p50.toFixed(1)).join(' ')}; baseline: ${a.rounds.map((x) => x.p50.toFixed(1)).join(' ')}`,
  );
  const bad = r.B.reduce((n, x) => n + x.dropped + x.mismatched, 0);
  ctx.checks.push(
    ratioCheck(
      '10',
      fixture,
      'reconnect → resynced p50, 1 client',
      b.p50,
      a.p50,
      ' ms',
      { max: 1.3 },
      {
        samples: b.n,
        roundsP50: b.rounds.map((x) => Number(x.p50.toFixed(2))),
      },
    ),
    ratioCheck('10', fixture, 'reconnect → resynced p99, 1 client', b.p99, a.p99, ' ms', { max: 2 }),
    absoluteCheck('10', fixture, 'reconnects dropped or out of sync, 1 client', bad, '', { max: 0 }),
  );
  // The storm: every client of the fixture's worlds (up to the setting) within one second.
  const clients = ctx.settings.storm;
  const sa = await ctx.load.request<Result>('reconnect', { group: `${name}-bare`, clients, spreadMs: 1000 });
  const sb = await ctx.load.request<Result>('reconnect', {
    group: `${name}-server`,
    clients,
    spreadMs: 1000,
  });
  const n = sb.lat.length + sb.dropped;
  const pa = pooled([sa.lat]);
  const pb = pooled([sb.lat]);
  ctx.checks.push(
    ratioCheck('10', fixture, `reconnect storm p50, ${n} clients in 1 s`, pb.p50, pa.p50, ' ms', {
      max: 1.3,
    }),
    ratioCheck('10', fixture, `reconnect storm p99, ${n} clients in 1 s`, pb.p99, pa.p99, ' ms', { max: 2 }),
    absoluteCheck(
      '10',
      fixture,
      `storm clients dropped or out of sync (of ${n})`,
      sb.dropped + sb.mismatched,
      '',
      { max: 0 },
      {
        dropped: sb.dropped,
        mismatched: sb.mismatched,
        baselineDropped: sa.dropped,
      },
    ),
  );
}
