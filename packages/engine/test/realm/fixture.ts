/**
 * Kingdom and empire positions: a 3×4 land grid in two provinces with cities, and a sea on the south coast,
 * built on the scenario helper; cities owned and capitals placed after the fact.
 */

import type { Engine, GameState, Step } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { A, P, type ScenarioSpec, scenario } from '../helpers/scenario.ts';

/**
 * r0c0 r0c1 r0c2 r0c3      province "west" = columns 0–1, "east" = columns 2–3
 * r1c0 r1c1 r1c2 r1c3
 * r2c0 r2c1 r2c2 r2c3      south row on the sea "mare"
 */
export const REALM_MAP = gridMap({
  rows: 3,
  cols: 4,
  cities: {
    r0c0: { tax: 3 },
    r1c1: { tax: 2 },
    r2c1: { tax: 1 },
    r0c3: { tax: 2 },
    r2c3: { tax: 3 },
  },
  provinces: Object.fromEntries(
    [0, 1, 2].flatMap((r) => [0, 1, 2, 3].map((c) => [`r${r}c${c}`, c < 2 ? 'west' : 'east'])),
  ),
  seas: { mare: { shores: ['r2c0', 'r2c1', 'r2c2', 'r2c3'] } },
});

export interface RealmSpec extends Omit<ScenarioSpec, 'map'> {
  /** City area → owner. */
  owners?: Record<string, string>;
  /** Player → capital area. */
  capitals?: Record<string, string>;
  /** Player → stage turn (kingdom/empire entry). */
  stageTurns?: Record<string, number>;
}

export function realmScenario(spec: RealmSpec): { state: GameState; ctx: EngineContext; engine: Engine } {
  const { state, ctx, engine } = scenario({ ...spec, map: REALM_MAP });
  const cities = { ...state.cities };
  for (const [a, o] of Object.entries(spec.owners ?? {})) cities[a] = { owner: P(o), everOwned: true };
  const neutrals = { ...state.neutrals };
  for (const a of Object.keys(spec.owners ?? {})) delete neutrals[a];
  const players = state.players.map((p) => ({
    ...p,
    capital: spec.capitals?.[p.id] ? A(spec.capitals[p.id]!) : null,
    cycle:
      p.cycle && spec.stageTurns?.[p.id] !== undefined
        ? { ...p.cycle, stageTurn: spec.stageTurns[p.id]! }
        : p.cycle,
  }));
  return {
    state: { ...state, cities, neutrals: spec.neutrals ? state.neutrals : neutrals, players },
    ctx,
    engine,
  };
}

export const economicStep = (pending: string[]): Step => ({
  kind: 'economic',
  pending: pending.map(P),
  pillage: {},
});

/**
 * The kingdom most kingdom and empire cases start from: 'k' (GERMAN 1 unless `position` says otherwise) holds three
 * cities with its capital at r0c0 and four units, and 'b' (SLAV 1) has a horde next door; turn 12,
 * k's economic phase.
 */
export function kingdomScenario(extra: Partial<RealmSpec> = {}, position: 'GERMAN 1' | 'HUN' = 'GERMAN 1') {
  return realmScenario({
    turn: 12,
    players: [
      { id: 'k', position, stage: 'kingdom', money: 10, vp: 50 },
      { id: 'b', position: 'SLAV 1' },
    ],
    units: [
      ['k', 'infantry', 'r0c0'],
      ['k', 'cavalry', 'r1c1'],
      ['k', 'bow', 'r1c1'],
      ['k', 'leader', 'r1c1'],
      ['b', 'barbarianInfantry', 'r1c3'],
    ],
    owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k' },
    capitals: { k: 'r0c0' },
    stageTurns: { k: 10 },
    step: economicStep(['k']),
    ...extra,
  });
}
