/**
 * Metric 10: a client that lost its connection connects again, subscribes from the version it held
 * and is resynced (patches applied, or a full view); its view must then equal the one a fresh
 * subscriber of the server gets. Baseline: a bare connect that looks one session up and receives
 * the full view. One client reconnecting over and over (p50 ≤ 1.5×); a storm of clients
 * reconnecting within one second, interleaved with the bare's storms over several rounds (p50 ≤ 2×,
 * p99 ≤ 3×); storms of clients behind by 10 and by 100 versions, who catch up (p50 and p99 ≤ 3×);
 * in each, no client dropped and none out of sync.
 */
import { FIXTURE_LABEL, type FixtureName } from '../fixtures/fixture.ts';
import { absoluteCheck, type Check, ratioCheck } from '../lib/report.ts';
import { interleaved, type Paired } from '../lib/rounds.ts';
import { pooled } from '../lib/stats.ts';
import type { Context } from './context.ts';

type Result = { lat: number[]; dropped: number; mismatched: number; behindBy?: number[] };

/** Storm rounds after the warm-up: each is a thousand reconnects per side and a check of each copy. */
const STORM_ROUNDS = 3;
/** Clients of the catch-up storms: about 34 worlds of six, each moved on by 10 or 100 orders first. */
const CATCH_UP_CLIENTS = 204;

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
  ctx.checks.push(
    ratioCheck(
      '10',
      fixture,
      'reconnect → resynced p50, 1 client',
      b.p50,
      a.p50,
      ' ms',
      { max: 1.5 },
      { samples: b.n, roundsP50: b.rounds.map((x) => Number(x.p50.toFixed(2))) },
    ),
    {
      ...ratioCheck('10', fixture, 'reconnect → resynced p99, 1 client', b.p99, a.p99, ' ms', { max: 2 }),
      target: 'info',
    },
    faults(fixture, 'reconnects dropped or out of sync, 1 client', r),
  );
  // The storms: every client of the fixture's worlds (up to the setting) within one second.
  const storm =
    (side: 'server' | 'bare', clients: number, behind = 0) =>
    () =>
      ctx.load.request<Result>('reconnect', { group: `${name}-${side}`, clients, spreadMs: 1000, behind });
  const stormRows = (label: string, s: Paired<Result>, bound: { p50: number; p99: number }): Check[] => {
    const pa = pooled(s.A.map((x) => x.lat));
    const pb = pooled(s.B.map((x) => x.lat));
    const n = (s.B[0]?.lat.length ?? 0) + (s.B[0]?.dropped ?? 0);
    console.log(
      `  ${label} per round, p50/p99 ms — server: ${pb.rounds.map((x) => `${x.p50.toFixed(0)}/${x.p99.toFixed(0)}`).join(' ')}; baseline: ${pa.rounds.map((x) => `${x.p50.toFixed(0)}/${x.p99.toFixed(0)}`).join(' ')}`,
    );
    return [
      ratioCheck(
        '10',
        fixture,
        `${label} p50, ${n} clients in 1 s`,
        pb.p50,
        pa.p50,
        ' ms',
        { max: bound.p50 },
        {
          rounds: s.B.length,
          roundsP50: pb.rounds.map((x) => Number(x.p50.toFixed(1))),
          baselineRoundsP50: pa.rounds.map((x) => Number(x.p50.toFixed(1))),
        },
      ),
      ratioCheck('10', fixture, `${label} p99, ${n} clients in 1 s`, pb.p99, pa.p99, ' ms', {
        max: bound.p99,
      }),
      faults(fixture, `${label}: clients dropped or out of sync (of ${n} per round)`, s),
      ...(label.includes('behind')
        ? [
            {
              ...absoluteCheck(
                '10',
                fixture,
                `${label}: versions the clients were behind, least`,
                Math.min(...s.B.flatMap((x) => x.behindBy ?? [])),
                '',
                { min: 0 },
              ),
              target: 'info',
            },
          ]
        : []),
    ];
  };
  const clients = ctx.settings.storm;
  const rounds = ctx.settings.quick ? 2 : STORM_ROUNDS;
  const s = await interleaved(rounds, { A: storm('bare', clients), B: storm('server', clients) });
  ctx.checks.push(...stormRows('reconnect storm', s, { p50: 2, p99: 3 }));
  for (const behind of [10, 100]) {
    const few = Math.min(clients, CATCH_UP_CLIENTS);
    const c = await interleaved(rounds, { A: storm('bare', few), B: storm('server', few, behind) });
    ctx.checks.push(...stormRows(`storm ${behind} versions behind`, c, { p50: 3, p99: 3 }));
  }
}

/** Reconnects dropped or out of sync on the server's side, over every round (none allowed). */
function faults(fixture: string, what: string, r: Paired<Result>): Check {
  const dropped = r.B.reduce((n, x) => n + x.dropped, 0);
  const mismatched = r.B.reduce((n, x) => n + x.mismatched, 0);
  return absoluteCheck(
    '10',
    fixture,
    what,
    dropped + mismatched,
    '',
    { max: 0 },
    {
      dropped,
      mismatched,
      baselineDropped: r.A.reduce((n, x) => n + x.dropped, 0),
    },
  );
}
