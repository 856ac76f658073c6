/**
 * Metrics 5 and 6, in a process of their own, over the orders the simulator plays from each
 * fixture (the server's patch producer, apps/server/src/worlds/diff.ts; the client's patch
 * applier, @bke/protocol):
 *  #5 CPU to produce the public patches against JSON.stringify of the same views (≤ 0.35×), and
 *     the same with every view doubled in size (≤ 2.3× the undoubled cost: catches a quadratic diff);
 *  #6 CPU to apply them, as the client does, against JSON.parse of the full view (≤ 0.15×).
 */
import { createEngine, type GameState, type PlayerId } from '@bke/engine';
import { applyPatch, type PatchOp } from '@bke/protocol';
import { diffViews } from '@bke/server';
import { FIXTURE_LABEL, type FixtureName, readFixtures } from '../fixtures/fixture.ts';
import { cpuMs, serve } from '../lib/child.ts';
import { absoluteCheck, type Check, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { median } from '../lib/stats.ts';

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

const timed = (fn: () => void) => {
  const c = cpuMs();
  fn();
  return cpuMs() - c;
};

async function run(req: { file: string; orders: number; rounds: number }): Promise<Check[]> {
  const set = readFixtures(req.file);
  const engine = createEngine();
  const checks: Check[] = [];
  for (const name of ['turn1', 'turn300'] as FixtureName[]) {
    const f = set.fixtures[name];
    let s = f.state as GameState;
    const pairs: Pair[] = [];
    for (const step of f.script.slice(0, req.orders)) {
      const r = engine.applyOrder(s, step.actor as PlayerId, step.order);
      if (!r.ok) throw new Error(`script refused: ${r.error.code}`);
      pairs.push({ before: engine.view(s, null), after: engine.view(r.value.state, null) });
      s = r.value.state;
    }
    const big = pairs.map(doubled);
    const patches = pairs.map((p) => diffViews(p.before, p.after) as PatchOp[]);
    const texts = pairs.map((p) => JSON.stringify(p.after));
    const stringify = () =>
      timed(() => {
        for (const p of pairs) JSON.stringify(p.after);
      });
    const diff = (ps: Pair[]) => () =>
      timed(() => {
        for (const p of ps) diffViews(p.before, p.after);
      });
    const parse = () =>
      timed(() => {
        for (const t of texts) JSON.parse(t);
      });
    const apply = () =>
      timed(() => {
        pairs.forEach((p, i) => {
          applyPatch(p.before, patches[i] ?? []);
        });
      });
    const fixture = FIXTURE_LABEL[name];
    const five = await interleaved(req.rounds, { A: async () => stringify(), B: async () => diff(pairs)() });
    const grow = await interleaved(req.rounds, { A: async () => diff(pairs)(), B: async () => diff(big)() });
    const six = await interleaved(req.rounds, { A: async () => parse(), B: async () => apply() });
    const per = (xs: number[]) => median(xs) / pairs.length;
    checks.push(
      ratioCheck(
        '5',
        fixture,
        `patch CPU vs JSON.stringify of the view (${pairs.length} orders)`,
        per(five.B),
        per(five.A),
        ' ms',
        { max: 0.35 },
        { rounds: five.B, baselineRounds: five.A },
      ),
      ratioCheck('5', fixture, 'patch CPU, views doubled vs undoubled', per(grow.B), per(grow.A), ' ms', {
        max: 2.3,
      }),
      ratioCheck(
        '6',
        fixture,
        'client patch apply vs JSON.parse of the full view',
        per(six.B),
        per(six.A),
        ' ms',
        { max: 0.15 },
        { rounds: six.B, baselineRounds: six.A },
      ),
    );
    if (name === 'turn300')
      checks.push(absoluteCheck('LW', fixture, 'engine state JSON', f.stateBytes, ' B', { max: 60 * 1024 }));
  }
  return checks;
}

serve({ run: (req: { file: string; orders: number; rounds: number }) => run(req) });
