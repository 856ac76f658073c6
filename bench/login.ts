/**
 * `npm run bench:login`: what password hashing does to everything else. In separate processes — the
 * server under test (the real app, on its own database, with the turn-1 benchmark world and a web
 * build holding a 125 kB script), the load generator (the world's six players sending orders at 20
 * a second) and the log-in clients (processes/logins.ts) — it measures, in rounds interleaved so
 * that a change of the machine's load falls on every side:
 *  - a static file's time (one request every 50 ms) and order → acknowledgement while 8 and 32
 *    log-ins are kept in flight, each as a ratio to the same with no log-in;
 *  - one log-in at a time while 16 bogus password resets from one address are kept in flight, as a
 *    ratio to one log-in at a time without them (target ≤ 2×); the resets never wait a refusal's
 *    Retry-After, and the server's budget of made-up links per address is at its default.
 * Medians and p99 over all samples of all measured rounds pooled; the load average beside each.
 * `--quick`: three measured rounds of 3 s instead of five of 6 s.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ensureFixtures } from './fixtures/ensure.ts';
import { ROOT, readFixtures } from './fixtures/fixture.ts';
import { SERVER_UNDER_TEST, startChild } from './lib/child.ts';
import { databaseKind, freshDatabase } from './lib/database.ts';
import { hostFacts, loadAverage } from './lib/host.ts';
import { type Check, printTable, ratioCheck } from './lib/report.ts';
import { interleaving, pooled } from './lib/stats.ts';
import type { Started } from './processes/server.ts';

const USAGE = `usage: npm run bench:login [-- --quick]
  A static file's time and order → acknowledgement while 8 and 32 log-ins run, and a log-in while 16
  bogus password resets run, each as a ratio to the same without; on DATABASE_URL's PostgreSQL when
  set, else the embedded database. --quick: three measured rounds of 3 s instead of five of 6 s.`;
const flags = z.array(z.enum(['--quick', '--help', '-h'])).safeParse(process.argv.slice(2));
if (!flags.success) {
  console.error(`unknown argument\n${USAGE}`);
  process.exit(2);
}
if (flags.data.includes('--help') || flags.data.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const quick = flags.data.includes('--quick');
const rounds = quick ? 3 : 5;
const seconds = quick ? 3 : 6;
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const host = hostFacts();
console.log(
  `[bench:login] ${quick ? 'quick pass' : 'full run'} on ${databaseKind() === 'postgres' ? 'DATABASE_URL' : 'the embedded PostgreSQL'}; ${host.cores} cores, Node ${host.node}, load average ${host.loadAverage.join(' ')}`,
);

const ASSET = 'assets/index-bench.js';
const ASSET_BYTES = 125_000;
const webDist = mkdtempSync(path.join(tmpdir(), 'bke-bench-web-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>BKE Online</title>');
writeFileSync(path.join(webDist, ASSET), `/*${'x'.repeat(ASSET_BYTES - 4)}*/`);

const fixtureFile = await ensureFixtures();
const serverDb = await freshDatabase('login');
const server = startChild(SERVER_UNDER_TEST, here('./processes/server.ts'));
const load = startChild('load generator', here('./processes/load.ts'));
const clients = startChild('log-in clients', here('./processes/logins.ts'));
const stopAll = () =>
  Promise.allSettled([server.stop(), load.stop(), clients.stop()]).then(() => serverDb.drop());
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void stopAll().finally(() => process.exit(130)));

interface Sample {
  static: number[];
  ack: number[];
  load: number;
  checked: number;
  busy: number;
  other: number;
}

const checks: Check[] = [];
let exitCode = 1;
try {
  const s = await server.request<Started>('start', {
    db: serverDb,
    fixtures: fixtureFile,
    copies: { turn1: 1, turn300: 0 },
    webDist,
  });
  await load.request('script', { name: 'turn1', script: readFixtures(fixtureFile).fixtures.turn1.script });
  await load.request('open', {
    group: 'players',
    target: 'server',
    url: s.url,
    script: 'turn1',
    worlds: s.worlds.turn1.slice(0, 1),
  });

  // Static file and order → ack with 0, 8 and 32 log-ins in flight, rotating which goes first.
  const levels = [0, 8, 32] as const;
  const byLevel = new Map<number, Sample[]>(levels.map((l) => [l, []]));
  let turn = 0;
  for (const round of interleaving(rounds)) {
    // Each level goes first, second and third in turn.
    const k = turn++ % levels.length;
    for (const logins of [...levels.slice(k), ...levels.slice(0, k)]) {
      if (logins > 0) await clients.request('begin', { url: s.url, logins, resets: 0 });
      const [statics, orders] = await Promise.all([
        clients.request<number[]>('staticFile', { url: s.url, path: ASSET, seconds, bytes: ASSET_BYTES }),
        load.request<{ ack: number[]; errors: number }>('latency', {
          group: 'players',
          worlds: 1,
          ratePerWorld: 20,
          seconds,
        }),
      ]);
      const c =
        logins > 0
          ? await clients.request<{ checked: number; busy: number; other: number }>('end')
          : { checked: 0, busy: 0, other: 0 };
      if (!round.warmUp)
        byLevel.get(logins)?.push({ static: statics, ack: orders.ack, load: loadAverage()[0], ...c });
      console.log(
        `[bench:login] ${round.warmUp ? 'warm-up' : 'round'} with ${logins} log-ins: static p50 ${pooled([statics]).p50.toFixed(1)} ms, ack p50 ${pooled([orders.ack]).p50.toFixed(1)} ms; log-ins checked ${c.checked}, busy ${c.busy}, other ${c.other} (load ${loadAverage()[0]})`,
      );
    }
  }
  const base = byLevel.get(0) ?? [];
  const loadOf = (xs: Sample[]) => Math.max(...xs.map((x) => x.load));
  for (const logins of [8, 32]) {
    const with_ = byLevel.get(logins) ?? [];
    const detail = (pick: (x: Sample) => number[]) => ({
      rounds: pooled(with_.map(pick)).rounds.map((r) => +r.p50.toFixed(1)),
      baselineRounds: pooled(base.map(pick)).rounds.map((r) => +r.p50.toFixed(1)),
      loginsChecked: with_.reduce((n, x) => n + x.checked, 0),
      loginsBusy: with_.reduce((n, x) => n + x.busy, 0),
      otherAnswers: with_.reduce((n, x) => n + x.other, 0),
    });
    for (const [what, pick] of [
      ['static file', (x: Sample) => x.static],
      ['order → ack', (x: Sample) => x.ack],
    ] as const) {
      const v = pooled(with_.map(pick));
      const b = pooled(base.map(pick));
      for (const q of ['p50', 'p99'] as const) {
        const c = ratioCheck(
          'login',
          'turn 1',
          `${what} ${q}, ${logins} log-ins vs none`,
          v[q],
          b[q],
          ' ms',
          { max: Number.POSITIVE_INFINITY },
          detail(pick),
        );
        checks.push({ ...c, target: 'info', pass: true, load: loadOf(with_) });
      }
    }
  }

  // One log-in at a time, with and without 16 bogus resets in flight (A without, B with).
  const alone: number[][] = [];
  const withResets: number[][] = [];
  let resetLoad = 0;
  let resets = 0;
  let resetsHeld = 0;
  for (const round of interleaving(rounds)) {
    for (const side of round.order) {
      if (side === 'B') await clients.request('begin', { url: s.url, logins: 0, resets: 16 });
      const times = await clients.request<number[]>('login', { url: s.url, seconds });
      const c =
        side === 'B'
          ? await clients.request<{ resets: number; resetsHeld: number; other: number }>('end')
          : null;
      if (c && c.other > 0)
        throw new Error(`${c.other} bogus resets were answered neither link_invalid nor rate_limited`);
      if (!round.warmUp) {
        (side === 'A' ? alone : withResets).push(times);
        resets += c?.resets ?? 0;
        resetsHeld += c?.resetsHeld ?? 0;
        resetLoad = Math.max(resetLoad, loadAverage()[0]);
      }
      console.log(
        `[bench:login] ${round.warmUp ? 'warm-up' : 'round'} log-in ${side === 'A' ? 'alone' : 'with 16 bogus resets'}: p50 ${pooled([times]).p50.toFixed(0)} ms over ${times.length}${c ? `, ${c.resets} resets refused by their MAC, ${c.resetsHeld} for the address's spent budget` : ''} (load ${loadAverage()[0]})`,
      );
    }
  }
  const v = pooled(withResets);
  const b = pooled(alone);
  checks.push({
    ...ratioCheck(
      'login',
      '—',
      'a log-in p50, 16 bogus resets vs none',
      v.p50,
      b.p50,
      ' ms',
      { max: 2 },
      {
        rounds: v.rounds.map((r) => +r.p50.toFixed(0)),
        baselineRounds: b.rounds.map((r) => +r.p50.toFixed(0)),
        resetsRefusedByMac: resets,
        resetsRefusedForBudget: resetsHeld,
      },
    ),
    load: resetLoad,
  });

  console.log('');
  printTable(checks);
  const failed = checks.filter((c) => c.target !== 'info' && !c.pass);
  const after = loadAverage();
  console.log(
    `\nbench:login: ${failed.length === 0 ? 'within target' : `${failed.length} target(s) failed`}; load average ${host.loadAverage[0]} at the start, ${after[0]} at the end — a shared machine: figures are noisy`,
  );
  const out = path.join(ROOT, 'bench/results');
  mkdirSync(out, { recursive: true });
  const file = path.join(out, `login-${new Date().toISOString().replaceAll(':', '-')}.json`);
  writeFileSync(file, JSON.stringify({ host: { ...host, loadAverageAtEnd: after }, quick, checks }, null, 2));
  console.log(`results: ${path.relative(ROOT, file)}`);
  exitCode = failed.length === 0 ? 0 : 1;
} catch (e) {
  console.error('[bench:login] the run failed:', e);
} finally {
  await stopAll();
  rmSync(webDist, { recursive: true, force: true });
}
process.exit(exitCode);
