/**
 * The sim policy and boxed-in hordes (9.2, 9.3.x): a horde that stopped growing before the ten units
 * of the countdown (the Picts north of the wall) combines three pairs in the one turn it may still
 * grow, and a horde that can no longer grow and never started its countdown is given up (14.3).
 */
import { describe, expect, it } from 'vitest';
import type { GameState, Step, UnitKind } from '../../src/index.ts';
import { simplePolicy } from '../../src/sim/policy.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { P, scenario } from '../helpers/scenario.ts';

const MAP = gridMap({ rows: 3, cols: 3 });
const cells = ['r0c0', 'r0c1', 'r0c2', 'r1c0', 'r1c1', 'r1c2', 'r2c0', 'r2c1', 'r2c2'];

function horde(step: Step, units: [string, UnitKind, string][], banned = false) {
  const s = scenario({
    map: MAP,
    turn: 14,
    players: [{ id: 'p', position: 'PICT', startedTurn: 1 }],
    units,
    neutrals: {},
    step,
  });
  const state: GameState = { ...s.state, flags: { ...s.state.flags, growthBanned: banned ? [P('p')] : [] } };
  return { engine: s.engine, state };
}

describe('sim policy: boxed-in hordes', () => {
  it('nine tribes filling their land combine three pairs (six tribes), then stop', () => {
    const combination: Step = {
      kind: 'playerTurn',
      player: P('p'),
      phase: 'combination',
      moved: [],
      split: [],
    };
    let { engine, state } = horde(
      combination,
      cells.map((a) => ['p', 'tribe', a] as [string, UnitKind, string]),
    );
    const policy = simplePolicy('boxed');
    const kinds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = policy.choose(engine, state, P('p'));
      kinds.push(o?.type ?? 'none');
      if (!o || o.type === 'endPhase') break;
      const r = engine.applyOrder(state, P('p'), o);
      if (!r.ok) throw new Error(r.error.code);
      state = r.value.state;
    }
    expect(kinds).toEqual(['combine', 'combine', 'combine', 'endPhase']);
    expect(Object.values(state.units).filter((u) => u.inverted)).toHaveLength(6);
  });

  it('a horde that may no longer grow and has no countdown after twelve turns is abandoned', () => {
    const movement: Step = { kind: 'playerTurn', player: P('p'), phase: 'movement', moved: [], split: [] };
    const { engine, state } = horde(
      movement,
      [
        ['p', 'tribe', 'r0c0'],
        ['p', 'barbarianInfantry', 'r1c1'],
      ],
      true,
    );
    expect(simplePolicy('hopeless').choose(engine, state, P('p'))).toEqual({
      type: 'declareAbandon',
      abandon: true,
    });
    const growing = horde(movement, [['p', 'tribe', 'r0c0']], false);
    expect(simplePolicy('hopeless').choose(growing.engine, growing.state, P('p'))?.type).not.toBe(
      'declareAbandon',
    );
  });
});
