/**
 * Issue 5 acceptance, as a script (too slow for the unit suite): `sim --players 6 --turns 120`
 * over 20 seeds with every invariant checked after every order: stacking (6), ownership (no two
 * owners, no unit beside a neutral garrison), money never negative, VP never decreasing, every
 * ledger row adding up (14.3.3); and over the seeds every stage is reached and new cycles start.
 *   npx tsx packages/engine/test/part2/acceptance-sim.ts [seeds=20] [turns=120] [players=6]
 */
import { loadMapForCli } from '../../src/cli/load-map.ts';
import { createEngine, type Order, type PlayerId } from '../../src/index.ts';
import { ledgerProblems } from '../../src/ledger/record.ts';
import { realmOf } from '../../src/ledger/state.ts';
import { simSetup } from '../../src/sim/play.ts';
import { simplePolicy } from '../../src/sim/policy.ts';
import { problemsOf } from './invariants.ts';

async function main() {
  const [seeds = 20, turns = 120, players = 6] = process.argv.slice(2).map(Number);
  const engine = createEngine(await loadMapForCli());
  const stages = new Set<string>();
  let newCycles = 0;
  let rows = 0;
  let failures = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const setup = simSetup(`acceptance-${seed}`, players);
    const created = engine.createGame(setup);
    if (!created.ok) throw new Error(created.error.code);
    let state = created.value;
    const policy = simplePolicy(`policy:${setup.seed}`);
    const vp = new Map<string, number>();
    let orders = 0;
    try {
      while (state.turn <= turns && orders < turns * 2000) {
        const player = engine.waitingFor(state)[0] as PlayerId | undefined;
        if (!player) throw new Error(`dead end at turn ${state.turn} (${state.step.kind})`);
        const order: Order | undefined =
          policy.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0];
        if (!order) throw new Error(`no order for ${player} at turn ${state.turn} (${state.step.kind})`);
        const r = engine.applyOrder(state, player, order);
        if (!r.ok) throw new Error(`order refused ${JSON.stringify(order)}: ${JSON.stringify(r.error)}`);
        state = r.value.state;
        orders++;
        const bad = problemsOf(state, vp);
        if (bad.length)
          throw new Error(`turn ${state.turn} after ${JSON.stringify(order)}: ${bad.join('; ')}`);
        for (const p of state.players) if (p.cycle) stages.add(p.cycle.stage);
      }
      const ledger = realmOf(state).ledger;
      const lp = ledgerProblems(ledger);
      if (lp.length) throw new Error(`ledger: ${lp.slice(0, 3).join('; ')}`);
      rows += ledger.length;
      const cycles = state.players.reduce((s, p) => s + p.pastCycles.length + (p.cycle ? 1 : 0), 0);
      newCycles += cycles - state.players.length;
      console.log(
        JSON.stringify({
          seed,
          turn: state.turn - 1,
          orders,
          stages: state.players.map((p) => p.cycle?.stage ?? '-'),
          cycles: state.players.map((p) => p.pastCycles.length + (p.cycle ? 1 : 0)),
          ledgerRows: ledger.length,
        }),
      );
    } catch (e) {
      failures++;
      console.log(JSON.stringify({ seed, error: String(e) }));
    }
  }
  const ok =
    failures === 0 && ['barbarian', 'kingdom', 'empire'].every((s) => stages.has(s)) && newCycles > 0;
  console.log(JSON.stringify({ ok, failures, stages: [...stages], newCycles, ledgerRows: rows }));
  process.exit(ok ? 0 : 1);
}

void main();
