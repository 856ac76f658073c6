/**
 * Random legal play with fleets on the real map (5.2, 8.1–8.4, AMBIG-15/17): kingdoms with ships and
 * troops around one sea play random legal orders (deadline defaults now and then) for a few turns.
 * Fails on a throw, a dead end, a refused legal order or a broken invariant (no two owners in an area,
 * stacking outside the player turns); over the seeds, landings, ship retreats across the sea and
 * captures must all have happened.
 */
import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import {
  type AreaId,
  type GameState,
  indexMap,
  type Order,
  type PlayerId,
  type UnitId,
} from '../../src/index.ts';
import { seededChooser } from '../../src/sim/policy.ts';
import { unguardedCities } from '../helpers/city-guard.ts';
import { problemsOf } from '../helpers/invariants.ts';
import { deepFreeze, randomOrder } from '../helpers/play.ts';
import { P, phase, scenario } from '../helpers/scenario.ts';

const MAP = loadMap();
const index = indexMap(MAP);

/** A sea with at least six land shores, and those shores (deterministic: the first such sea). */
const seaWithShores = (() => {
  for (const id of index.areaIds) {
    if (index.area(id)?.kind !== 'sea') continue;
    const shores = index.shoresOf(id).filter((a) => index.area(a)?.kind === 'land');
    if (shores.length >= 6) return { sea: id, shores };
  }
  throw new Error('no sea with six shores');
})();

const NAVAL_FACTS = [
  'navalLandingDeclared',
  'navalLanded',
  'navalLandingFailed',
  'combatShipSinkingRolled',
  'combatShipCaptured',
  'shipIntercepted',
] as const;

function fuzzOne(seed: number, seen: Map<string, number>): void {
  const s = seaWithShores.shores;
  const at = (i: number) => s[i % s.length]!;
  const { engine, state: start } = scenario({
    map: MAP,
    players: [
      { id: 'a', position: 'GERMAN 1', stage: 'kingdom', money: 40 },
      { id: 'b', position: 'SLAV 1', stage: 'kingdom', money: 40 },
    ],
    units: [
      ['a', 'ship', at(0)],
      ['a', 'infantry', at(0)],
      ['a', 'ship', at(1)],
      ['a', 'bow', at(1)],
      ['a', 'ship', at(2)],
      ['a', 'ship', at(2)], // two ships stacked: they may sail together (8.1 grouping)
      ['b', 'ship', at(3)],
      ['b', 'ship', at(3)], // two interceptors stacked: they fight together (8.1)
      ['b', 'bow', at(4)],
      ['b', 'ship', at(4)],
      ['b', 'infantry', at(5)],
      // A lone ship somewhere else on the sea, varying with the seed (a capture target).
      ...(s.length > 6 ? [['b', 'ship', at(6 + (seed % (s.length - 6)))] as const] : []),
    ] as [string, 'ship' | 'infantry' | 'bow', string][],
    step: phase(seed % 2 ? 'a' : 'b', 'movement'),
    neutrals: {},
  });
  let state: GameState = { ...start, order: seed % 2 ? [P('a'), P('b')] : [P('b'), P('a')] };
  const choose = seededChooser(`naval-fuzz-${seed}`);
  const vp = new Map<string, number>();
  for (let orders = 0; orders < 400 && state.turn <= 3; orders++) {
    const waiting = engine.waitingFor(state);
    if (waiting.length === 0) throw new Error(`seed ${seed}: nobody to act (${state.step.kind})`);
    const player = waiting[choose(waiting.length)] as PlayerId;
    let order: Order | null =
      choose(8) === 0
        ? (engine.timeoutOrders(state, player)[0] ?? null)
        : randomOrder(engine, state, player, choose);
    if (!order) throw new Error(`seed ${seed}: dead end for ${player} at ${JSON.stringify(state.step)}`);
    // AMBIG-15: now and then a ship with room picks up a unit waiting on its listed path.
    const listed = order as Order & { pickups?: { at: AreaId; units: UnitId[] }[] };
    if (
      listed.type === 'shipMove' &&
      listed.pickups?.length &&
      listed.cargo.length === 0 &&
      choose(2) === 0
    ) {
      const p = listed.pickups[choose(listed.pickups.length)]!;
      const withStop = { ...listed, stops: [{ at: p.at, load: [p.units[0]!], unload: [] }] } as Order;
      if (engine.applyOrder(state, player, withStop).ok) {
        order = withStop;
        seen.set('stops', (seen.get('stops') ?? 0) + 1);
      }
    }
    // 8.1 grouping: now and then a ship takes a companion from its area along (empty-handed).
    const group = order as Order & { companions?: UnitId[] };
    if (group.type === 'shipMove' && group.companions?.length && !group.stops && choose(2) === 0) {
      const together = {
        ...group,
        with: [{ ship: group.companions[choose(group.companions.length)]!, cargo: [] }],
      } as Order;
      if (engine.applyOrder(state, player, together).ok) {
        order = together;
        seen.set('groups', (seen.get('groups') ?? 0) + 1);
      }
    }
    const r = engine.applyOrder(orders % 20 === 0 ? deepFreeze(state) : state, player, order);
    if (!r.ok)
      throw new Error(`seed ${seed}: legal order refused ${JSON.stringify(order)} → ${r.error.code}`);
    state = r.value.state;
    const problems = [...problemsOf(state, vp), ...unguardedCities(engine.map, state)];
    if (problems.length)
      throw new Error(`seed ${seed} after ${JSON.stringify(order)}: ${problems.join('; ')}`);
    for (const e of r.value.events) {
      if (NAVAL_FACTS.includes(e.type as never)) seen.set(e.type, (seen.get(e.type) ?? 0) + 1);
      if (e.type === 'shipIntercepted' && e.group)
        seen.set('groupBattles', (seen.get('groupBattles') ?? 0) + 1);
    }
  }
}

describe('naval random legal play (8.1–8.4)', () => {
  it('fleets around one sea: no throw, dead end or broken invariant; landings, sea retreats, captures, groups happen', () => {
    const seen = new Map<string, number>();
    for (let seed = 1; seed <= 20; seed++) fuzzOne(seed, seen);
    expect(seen.get('navalLandingDeclared') ?? 0).toBeGreaterThan(0);
    expect((seen.get('navalLanded') ?? 0) + (seen.get('navalLandingFailed') ?? 0)).toBeGreaterThan(0);
    expect(seen.get('combatShipSinkingRolled') ?? 0).toBeGreaterThan(0);
    expect(seen.get('combatShipCaptured') ?? 0).toBeGreaterThan(0);
    expect(seen.get('stops') ?? 0).toBeGreaterThan(0);
    expect(seen.get('groups') ?? 0).toBeGreaterThan(0);
    expect(seen.get('groupBattles') ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
