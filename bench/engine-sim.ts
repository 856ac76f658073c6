/**
 * Metric 9 (shared/reference/performance.md): the engine playing a full scripted game, in orders
 * per second on one thread, against a no-op engine that only applies the recorded state patches of
 * the same game. Target: the engine takes at most 5× the no-op's time. Prints JSON; writes it to
 * bench/results/engine-sim.json; exits 1 on FAIL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEngine, type GameState, simSetup, simulate } from '@bke/engine';

const SEED = process.env.BENCH_SEED ?? 'bench-1';
const PLAYERS = 6;
const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const REPS = Number(process.env.BENCH_REPS ?? 25);
/** Untimed reps first, so both halves are measured with their code already optimised by the JIT. */
const WARMUP = 3;
const LIMIT = 5;

/** A full collection between timed halves, so one half does not pay for the other's garbage. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Patch = { path: string[]; value: Json | undefined }[];

/** The changed leaves between two states, shallow-compared by reference (immutable states share). */
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

/** Apply a patch immutably (copying along each path), as a patch-applying client or server would. */
function applyPatch(state: Json, patch: Patch): Json {
  let root = state;
  for (const { path, value } of patch) root = setIn(root, path, 0, value);
  return root;
}
function setIn(node: Json, path: string[], i: number, value: Json | undefined): Json {
  if (i === path.length) return value as Json;
  const key = path[i]!;
  const base = (node && typeof node === 'object' ? node : {}) as Record<string, Json>;
  const copy: Record<string, Json> | Json[] = Array.isArray(base) ? [...base] : { ...base };
  const child = setIn((base as Record<string, Json>)[key] ?? null, path, i + 1, value);
  if (value === undefined && i === path.length - 1) delete (copy as Record<string, Json>)[key];
  else (copy as Record<string, Json>)[key] = child;
  return copy as Json;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const engine = createEngine();
  const recorded = simulate(engine, simSetup(SEED, PLAYERS), TURNS);
  const created = engine.createGame(simSetup(SEED, PLAYERS));
  if (!created.ok) throw new Error(created.error.code);
  // Record the patches of the same game (the no-op engine's input).
  const patches: Patch[] = [];
  let s: GameState = created.value;
  for (const { actor, order } of recorded.log) {
    const r = engine.applyOrder(s, actor, order);
    if (!r.ok) throw new Error(`replay refused: ${r.error.code}`);
    patches.push(diff(s as unknown as Json, r.value.state as unknown as Json));
    s = r.value.state;
  }
  const orders = recorded.log.length;
  // CPU time of the process (main thread and GC helpers) for each half, beside the wall clock:
  // printed as a cross-check that is blind to the time other processes take the cores.
  const engineCpu: number[] = [];
  const noopCpu: number[] = [];
  const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
  const runEngine = (): number => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let g: GameState = created.value;
    for (const { actor, order } of recorded.log) {
      const r = engine.applyOrder(g, actor, order);
      if (!r.ok) throw new Error(r.error.code);
      g = r.value.state;
    }
    const ms = performance.now() - t0;
    engineCpu.push(cpuMs(process.cpuUsage(c0)));
    if (engine.hash(g) !== recorded.summary.hash) throw new Error('replay diverged');
    return ms;
  };
  const runNoop = (): number => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let n = created.value as unknown as Json;
    for (const p of patches) n = applyPatch(n, p);
    const ms = performance.now() - t0;
    noopCpu.push(cpuMs(process.cpuUsage(c0)));
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) {
    runEngine();
    runNoop();
  }
  engineCpu.length = 0;
  noopCpu.length = 0;
  const engineMs: number[] = [];
  const noopMs: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    // Alternate which half goes first, so a slow spell of the shared machine or the JIT's
    // background work does not always land on the same half.
    collect();
    const first = rep % 2 === 0 ? runEngine() : runNoop();
    collect();
    const second = rep % 2 === 0 ? runNoop() : runEngine();
    engineMs.push(rep % 2 === 0 ? first : second);
    noopMs.push(rep % 2 === 0 ? second : first);
  }
  // The machine may be shared: each rep times the engine and the no-op back to back, and the
  // verdict uses the median of the per-rep ratios (noise hits both halves of a rep alike). The
  // ratio of the medians is printed beside it as a cross-check.
  const eng = median(engineMs);
  const noop = median(noopMs);
  const ratios = engineMs.map((e, i) => e / noopMs[i]!);
  const ratio = median(ratios);
  const result = {
    metric: 9,
    name: 'engine: full scripted game, orders/s single thread',
    seed: SEED,
    players: PLAYERS,
    turns: recorded.summary.turnsPlayed,
    orders,
    engine: { ms: Number(eng.toFixed(1)), ordersPerSecond: Math.round((orders / eng) * 1000) },
    noop: { ms: Number(noop.toFixed(1)), ordersPerSecond: Math.round((orders / noop) * 1000) },
    ratio: Number(ratio.toFixed(2)),
    ratioOfMedians: Number((eng / noop).toFixed(2)),
    cpuRatio: Number(median(engineCpu.map((e, i) => e / noopCpu[i]!)).toFixed(2)),
    warmupReps: WARMUP,
    ratios: ratios.map((r) => Number(r.toFixed(2))),
    limit: LIMIT,
    verdict: ratio <= LIMIT ? 'PASS' : 'FAIL',
  };
  console.log(JSON.stringify(result, null, 2));
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}engine-sim.json`, `${JSON.stringify(result, null, 2)}\n`);
  if (result.verdict === 'FAIL') process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
