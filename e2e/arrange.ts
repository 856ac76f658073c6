/**
 * `node --import tsx e2e/arrange.ts`: an arranged position for the last-horde spec, printed as one
 * JSON line (run in its own Node process, with tsx, for the engine's JSON tables; goals.ts says why).
 *
 * A two-player game is played by the engine until both hordes are on the board; the first player's
 * horde is then cut down to one barbarian infantry beside the other's tribe, in its combat phase,
 * and written as an analysis board's link. The seed given is the first under which that attack
 * takes the last unit, found by playing it through the engine.
 */
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import {
  type AreaId,
  createEngine,
  type GameState,
  openPosition,
  type PlayerId,
  sharePosition,
  simSetup,
  simulate,
} from '@bke/engine';

export interface Arranged {
  /** The link's code (what follows `#/analysis/`). */
  code: string;
  seed: string;
  /** The attacked area's id and its name on the map. */
  target: string;
  area: string;
}

const ME = 'p1' as PlayerId;
const TARGET = 'biessi' as AreaId;
const FROM = 'daci' as AreaId;

/** The arranged position's link code, and a seed under which the attack takes the last unit. */
function arrangedPosition(): Arranged {
  const engine = createEngine();
  let found: GameState | null = null;
  try {
    simulate(engine, simSetup('arr', 2), 3, undefined, undefined, (s) => {
      if (
        s.step.kind === 'playerTurn' &&
        s.step.phase === 'movement' &&
        s.players.every((p) => p.cycle?.stage === 'barbarian') &&
        Object.values(s.units).some((u) => u.area === TARGET)
      ) {
        found = s;
        throw new Error('found');
      }
    });
  } catch (e) {
    if (!found) throw e;
  }
  if (!found) throw new Error('no position');
  const link = sharePosition(found);
  const p = link.position;
  const defender = Object.values(p.units).find((u) => u.area === TARGET && u.owner !== ME);
  if (!defender) throw new Error(`the bot has no unit in ${TARGET}`);
  p.units = {
    ...Object.fromEntries(Object.entries(p.units).filter(([, u]) => u.owner !== ME)),
    u1: { id: 'u1' as never, owner: ME, kind: 'barbarianInfantry', area: FROM },
  };
  p.step = { kind: 'playerTurn', player: ME, phase: 'combat', moved: [], split: [] };
  for (let i = 0; i < 100; i++) {
    const seed = `last-horde-${i}`;
    const opened = openPosition(engine, link, seed);
    if (!opened.ok) throw new Error(opened.error.message);
    const r = engine.applyOrder(opened.value, ME, {
      type: 'combatAttack',
      target: TARGET,
      attackers: ['u1'],
    });
    if (!r.ok) throw new Error(r.error.code);
    if (!Object.values(r.value.state.units).some((u) => u.owner === ME)) {
      const code = deflateRawSync(JSON.stringify(link)).toString('base64url');
      return { code, seed, target: TARGET, area: engine.map.area(TARGET)?.name ?? TARGET };
    }
  }
  throw new Error('no seed ends the horde');
}

// Run as a script (not imported for its type): pathToFileURL spells the path as import.meta.url does,
// spaces and all.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(JSON.stringify(arrangedPosition()));
