/**
 * Metric 9, in a process of its own: the engine playing the simulator's orders from each fixture
 * (turn 1 and after 300 turns), single thread, against a no-op engine that only applies the
 * recorded state changes of the same orders. Target: at most 5× the no-op's time. The two halves
 * alternate which goes first, with a full collection before each, and the ratio is taken over the
 * pooled timings of all measured rounds.
 */
import { createEngine, type GameState, type PlayerId } from '@bke/engine';
import { FIXTURE_LABEL, type FixtureName, readFixtures } from '../fixtures/fixture.ts';
import { serve } from '../lib/child.ts';
import { type Check, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { median } from '../lib/stats.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Patch = { path: string[]; value: Json | undefined }[];

/** The changed leaves between two states, compared by reference (immutable states share). */
function diff(a: Json, b: Json, path: string[] = [], out: Patch = []): Patch {
  if (a === b) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ao = a as Record<string, Json>;
    const bo = b as Record<string, Json>;
    for (const k of Object.keys(bo)) diff(ao[k] ?? null, bo[k] as Json, [...path, k], out);
    for (const k of Object.keys(ao)) if (!(k in bo)) out.push({ path: [...path, k], value: undefined });
    return out;
  }
  out.push({ path, value: b });
  return out;
}

/** Applies a patch immutably (copying along each path), as a patch-applying server would. */
function setIn(node: Json, path: string[], i: number, value: Json | undefined): Json {
  if (i === path.length) return value as Json;
  const key = path[i] as string;
  const base = (node && typeof node === 'object' ? node : {}) as Record<string, Json>;
  const copy: Record<string, Json> | Json[] = Array.isArray(base) ? [...base] : { ...base };
  const child = setIn(base[key] ?? null, path, i + 1, value);
  if (value === undefined && i === path.length - 1) delete (copy as Record<string, Json>)[key];
  else (copy as Record<string, Json>)[key] = child;
  return copy as Json;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function run(req: { file: string; orders: number; rounds: number }): Promise<Check[]> {
  const set = readFixtures(req.file);
  const engine = createEngine();
  const checks: Check[] = [];
  for (const name of ['turn1', 'turn300'] as FixtureName[]) {
    const f = set.fixtures[name];
    const script = f.script.slice(0, req.orders);
    const start = f.state as GameState;
    const patches: Patch[] = [];
    let s = start;
    for (const step of script) {
      const r = engine.applyOrder(s, step.actor as PlayerId, step.order);
      if (!r.ok) throw new Error(`script refused: ${r.error.code}`);
      patches.push(diff(s as unknown as Json, r.value.state as unknown as Json));
      s = r.value.state;
    }
    const playEngine = async () => {
      gc();
      const t = performance.now();
      let g = start;
      for (const step of script) {
        const r = engine.applyOrder(g, step.actor as PlayerId, step.order);
        if (!r.ok) throw new Error(r.error.code);
        g = r.value.state;
      }
      return performance.now() - t;
    };
    const playNoop = async () => {
      gc();
      const t = performance.now();
      let n = start as unknown as Json;
      for (const p of patches) for (const { path, value } of p) n = setIn(n, path, 0, value);
      return performance.now() - t;
    };
    const r = await interleaved(req.rounds, { A: playNoop, B: playEngine });
    const eng = median(r.B);
    const noop = median(r.A);
    checks.push(
      ratioCheck(
        '9',
        FIXTURE_LABEL[name],
        `engine playing ${script.length} orders vs a no-op applying their changes`,
        eng,
        noop,
        ' ms',
        { max: 5 },
        {
          engineOrdersPerSecond: Math.round((script.length / eng) * 1000),
          noopOrdersPerSecond: Math.round((script.length / noop) * 1000),
          rounds: r.B.map((x) => Number(x.toFixed(1))),
          baselineRounds: r.A.map((x) => Number(x.toFixed(1))),
        },
      ),
    );
  }
  return checks;
}

serve({ run: (req: { file: string; orders: number; rounds: number }) => run(req) });
