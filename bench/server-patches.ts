/**
 * Metrics 4 and 5 (shared/reference/performance.md), over a game played by the engine's simulator
 * and replayed through the server's patch producer (apps/server/src/worlds/diff.ts):
 *  #4 bytes of each `world/patch` message against the full public view's JSON
 *     (p50 ≤ 2 %, p99 ≤ 10 %, none over 14 KB);
 *  #5 CPU to produce the patches against JSON.stringify of the same views (≤ 0.35×), and the same
 *     with every state doubled in size (≤ 2.3× the undoubled cost: catches a quadratic diff).
 * Rounds are interleaved A B A B; the ratio is the median of the per-round ratios.
 */
import { createEngine, type GameState, type PlayerId, simSetup, simulate } from '@bke/engine';
import { loadMap } from '@bke/map';
import { diffViews } from '@bke/server';
import { check, median, quantile, report } from './_server-lib.ts';

const TURNS = Number(process.env.BENCH_TURNS ?? 30);
const ROUNDS = 7;

const engine = createEngine(loadMap());
const run = simulate(engine, simSetup('bench-patches', 6), TURNS);
let created = engine.createGame(simSetup('bench-patches', 6));
if (!created.ok) throw new Error('setup');
let state: GameState = created.value;
const pairs: { before: unknown; after: unknown; events: unknown[] }[] = [];
for (const { actor, order } of run.log) {
  const r = engine.applyOrder(state, actor as PlayerId, order);
  if (!r.ok) throw new Error(`replay failed: ${r.error.code}`);
  pairs.push({
    before: engine.view(state, null),
    after: engine.view(r.value.state, null),
    events: r.value.events,
  });
  state = r.value.state;
}
created = { ok: true, value: state };

// #4: bytes of each patch (its JSON Patch ops) and of the whole message as sent (ops + engine
// events + envelope; the events are the log's facts and would be sent with a full state too).
const ratios: number[] = [];
const msgRatios: number[] = [];
let biggest = 0;
for (const [i, p] of pairs.entries()) {
  const ops = JSON.stringify(diffViews(p.before, p.after));
  const msg = JSON.stringify({
    worldId: 'x'.repeat(36),
    from: i,
    to: i + 1,
    ops: diffViews(p.before, p.after),
    events: p.events,
  });
  biggest = Math.max(biggest, msg.length);
  const full = JSON.stringify(p.after).length;
  ratios.push(ops.length / full);
  msgRatios.push(msg.length / full);
}

// #5: CPU, interleaved rounds.
type Pair = { before: unknown; after: unknown };
function doubled(p: Pair): Pair {
  const b = p.before as Record<string, Record<string, unknown>>;
  const a = p.after as Record<string, Record<string, unknown>>;
  const grow = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [`dup-${k}`, v]));
  const out = { before: { ...b } as Record<string, unknown>, after: { ...a } as Record<string, unknown> };
  for (const key of ['units', 'neutrals', 'cities']) {
    const extra = grow(b[key] ?? {});
    const nb = { ...b[key], ...extra };
    out.before[key] = nb;
    out.after[key] = a[key] === b[key] ? nb : { ...a[key], ...extra };
  }
  return out;
}
const big = pairs.map(doubled);
const time = (fn: () => void) => {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
const stringifyAll = (ps: Pair[]) =>
  time(() => {
    for (const p of ps) JSON.stringify(p.after);
  });
const diffAll = (ps: Pair[]) =>
  time(() => {
    for (const p of ps) diffViews(p.before, p.after);
  });
const vsStringify: number[] = [];
const vsSize: number[] = [];
const abs = { diff: [] as number[], stringify: [] as number[], diffDoubled: [] as number[] };
for (let i = 0; i < ROUNDS; i++) {
  const s = stringifyAll(pairs);
  const d = diffAll(pairs);
  const dd = diffAll(big);
  abs.stringify.push(s);
  abs.diff.push(d);
  abs.diffDoubled.push(dd);
  vsStringify.push(d / s);
  vsSize.push(dd / d);
}

const pct = (x: number) => x * 100;
const checks = [
  check('4', 'patch (ops) bytes / full view bytes, p50', pct(quantile(ratios, 0.5)), 100, 0.02, '%'),
  check('4', 'patch (ops) bytes / full view bytes, p99', pct(quantile(ratios, 0.99)), 100, 0.1, '%'),
  {
    ...check(
      '4',
      'whole message (ops + events) / full view, p50',
      pct(quantile(msgRatios, 0.5)),
      100,
      0.02,
      '%',
    ),
    target: 'info',
    pass: true,
  },
  {
    ...check(
      '4',
      'whole message (ops + events) / full view, p99',
      pct(quantile(msgRatios, 0.99)),
      100,
      0.1,
      '%',
    ),
    target: 'info',
    pass: true,
  },
  check('4', 'largest patch message vs 14 KB', biggest, 14 * 1024, 1, ' B'),
  check(
    '5',
    'patch CPU vs JSON.stringify, whole game',
    median(abs.diff),
    median(abs.stringify),
    0.35,
    ' ms',
    median(vsStringify),
  ),
  check(
    '5',
    'patch CPU, states doubled vs undoubled',
    median(abs.diffDoubled),
    median(abs.diff),
    2.3,
    ' ms',
    median(vsSize),
  ),
];
console.log(
  `game: ${pairs.length} orders over ${TURNS} turns, final view ${JSON.stringify(engine.view(state, null)).length} B`,
);
process.exit(report('server-patches', checks, { orders: pairs.length, turns: TURNS }));
