/**
 * The whole-game acceptance run, as a script (too slow for the unit suite): `sim --players 6 --turns 120`
 * over 20 seeds with every invariant checked after every order: stacking (6), ownership (no two
 * owners, no unit beside a neutral garrison), money never negative, VP never decreasing, every
 * ledger row adding up (14.3.3); and over the seeds every stage is reached and new cycles start.
 * Even seeds play with the optional diplomacy on (13.4 leases, 13.6 capture and ransom); the summary
 * counts its facts and the naval combat ones.
 *   npx tsx packages/engine/test/sim/acceptance-sim.ts [seeds=20] [turns=120] [players=6]
 */
import { loadMapForCli } from '../../src/cli/load-map.ts';
import { createEngine } from '../../src/index.ts';
import { ledgerProblems } from '../../src/realm/record.ts';
import { simSetup } from '../../src/sim/play.ts';
import { playChecked } from '../helpers/checked-game.ts';
import { RecordSheet } from '../helpers/record-sheet.ts';

const FACTS = new Set([
  'leaseOffered',
  'leaseAccepted',
  'leaseStarted',
  'leaseDissolved',
  'leaderCaptured',
  'combatLeaderCaptured',
  'ransomPaid',
  'leaderExecuted',
  'leaderFreed',
  'mercenaryPillage',
  // Ships in combat (8.1–8.4), counted too.
  'navalLandingDeclared',
  'navalLanded',
  'navalLandingFailed',
  'combatShipSinkingRolled',
  'combatShipCaptured',
  'shipIntercepted',
]);

async function main() {
  const [seeds = 20, turns = 120, players = 6] = process.argv.slice(2).map(Number);
  const engine = createEngine(await loadMapForCli());
  const stages = new Set<string>();
  let newCycles = 0;
  let rows = 0;
  let failures = 0;
  const facts = new Map<string, number>();
  for (let seed = 1; seed <= seeds; seed++) {
    // Even seeds also play the optional diplomacy (13.4 leases, 13.6 capture and ransom).
    const diplomacy = seed % 2 === 0 ? { opt: { mercenaries: true, optionalLeaders: true } } : {};
    const setup = simSetup(`acceptance-${seed}`, players, diplomacy);
    try {
      const sheet = new RecordSheet();
      const { state, orders } = playChecked(engine, setup, turns, (_, events, now) => {
        sheet.keep(events);
        for (const p of now.players) if (p.cycle) stages.add(p.cycle.stage);
        for (const e of events) if (FACTS.has(e.type)) facts.set(e.type, (facts.get(e.type) ?? 0) + 1);
      });
      const ledger = sheet.rows();
      const lp = ledgerProblems(ledger);
      if (lp.length) throw new Error(`ledger: ${lp.slice(0, 3).join('; ')}`);
      rows += ledger.length;
      const cycles = state.players.reduce((s, p) => s + p.finished.count + (p.cycle ? 1 : 0), 0);
      newCycles += cycles - state.players.length;
      console.log(
        JSON.stringify({
          seed,
          turn: state.turn - 1,
          orders,
          stages: state.players.map((p) => p.cycle?.stage ?? '-'),
          cycles: state.players.map((p) => p.finished.count + (p.cycle ? 1 : 0)),
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
  console.log(
    JSON.stringify({
      ok,
      failures,
      stages: [...stages],
      newCycles,
      ledgerRows: rows,
      facts: Object.fromEntries(facts),
    }),
  );
  process.exit(ok ? 0 : 1);
}

void main();
