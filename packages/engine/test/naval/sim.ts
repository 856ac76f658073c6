/**
 * Ships in play (5.2, 8.1–8.4, AMBIG-15): the acceptance sim's loop with the naval facts
 * counted, to show that ships sail, land, retreat and are captured in whole games, with every
 * invariant checked after every order.
 *   npx tsx packages/engine/test/naval/sim.ts [seeds=6] [turns=80] [players=6]
 */
import { loadMapForCli } from '../../src/cli/load-map.ts';
import { createEngine } from '../../src/index.ts';
import { simSetup } from '../../src/sim/play.ts';
import { playChecked } from '../helpers/checked-game.ts';

const NAVAL = new Set([
  'shipSinkingRolled',
  'shipIntercepted',
  'navalLandingDeclared',
  'navalLanded',
  'navalLandingFailed',
  'combatShipSinkingRolled',
  'combatShipCaptured',
]);

async function main() {
  const [seeds = 6, turns = 80, players = 6] = process.argv.slice(2).map(Number);
  const engine = createEngine(await loadMapForCli());
  const facts = new Map<string, number>();
  let failures = 0;
  let shipMoves = 0;
  let stops = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    try {
      const { state, orders } = playChecked(
        engine,
        simSetup(`naval-${seed}`, players),
        turns,
        (order, events) => {
          if (order.type === 'shipMove') {
            shipMoves++;
            if (order.stops?.length) stops++;
          }
          for (const e of events) if (NAVAL.has(e.type)) facts.set(e.type, (facts.get(e.type) ?? 0) + 1);
        },
      );
      console.log(JSON.stringify({ seed, turn: state.turn - 1, orders }));
    } catch (e) {
      failures++;
      console.log(JSON.stringify({ seed, error: String(e) }));
    }
  }
  const naval = Object.fromEntries(facts);
  console.log(JSON.stringify({ ok: failures === 0, failures, shipMoves, stops, naval }));
  process.exit(failures === 0 ? 0 : 1);
}

void main();
