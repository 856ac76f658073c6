/**
 * A small hand-made game for combat-phase tests: a 3×4 grid of land areas (a1…c4) plus
 * Byzantium east of a4, two players (red attacks, blue defends), rigged dice.
 *
 *   a1 — a2 — a3 — a4 — byzantium
 *   |    |    |    |
 *   b1 ≈ b2 — b3 — b4        (≈ river between b1 and b2; c1 is desert)
 *   |    |    |    |
 *   c1 — c2 — c3 — c4        (cities: b3 tax 2, c4 tax 1, byzantium tax 5 / neutral 4)
 */

import { applyCombatOrder } from '../../src/combat-phase/phase.ts';
import { type CombatResult, initialCombatState } from '../../src/model/combat.ts';
import type { EngineContext } from '../../src/model/context.ts';
import type { CombatEvent } from '../../src/model/events.ts';
import { type AreaId, asAreaId, asPlayerId, asUnitId, type PlayerId } from '../../src/model/ids.ts';
import { indexMap, type MapAreaInput, type MapEdgeInput, type MapIndex } from '../../src/model/map-index.ts';
import { DEFAULT_OPTIONS, type Options } from '../../src/model/options.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import {
  type GameStateCore,
  NO_FINISHED_CYCLES,
  type PlayerState,
  STATE_SCHEMA,
} from '../../src/model/state.ts';
import type { Unit, UnitKind } from '../../src/model/units.ts';
import { CRT, crtColumnIndex } from '../../src/tables/crt.ts';

export const RED = asPlayerId('red');
export const BLUE = asPlayerId('blue');
export const A = (id: string): AreaId => asAreaId(id);

const CITIES: Record<string, { tax: number; neutralStrength: number }> = {
  b3: { tax: 2, neutralStrength: 2 },
  c4: { tax: 1, neutralStrength: 2 },
  byzantium: { tax: 5, neutralStrength: 4 },
};

const area = (id: string): MapAreaInput => ({
  id,
  name: id,
  kind: 'land',
  province: id === 'c4' ? 'britannia' : 'p',
  city: CITIES[id] ? { name: id, optional: false, ...CITIES[id]! } : null,
  desert: id === 'c1',
  coastal: ['a2', 'a3', 'a4'].includes(id),
  insideEmpire: true,
  garrisonSymbol: false,
  startPosition: null,
  aMarked: false,
  seaCrossingFor: [],
});

const edge = (a: string, b: string, river = false): MapEdgeInput => ({
  a,
  b,
  kind: 'land',
  river,
  mountain: false,
  road: false,
  redArrow: false,
  whiteArrow: false,
  imperialBoundary: false,
});

const ids = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4', 'c1', 'c2', 'c3', 'c4', 'byzantium'];
/** A sea north of a2, a3 and a4 (for ships, AMBIG-16). */
const SEA: MapAreaInput = { ...area('north-sea'), kind: 'sea', province: null, coastal: false };
const coast = (land: string): MapEdgeInput => ({ ...edge(land, 'north-sea'), kind: 'coast' });
const edges: MapEdgeInput[] = [edge('a4', 'byzantium'), coast('a2'), coast('a3'), coast('a4')];
for (const row of ['a', 'b', 'c']) {
  for (let i = 1; i < 4; i++) edges.push(edge(`${row}${i}`, `${row}${i + 1}`, row === 'b' && i === 1));
}
for (let i = 1; i <= 4; i++) edges.push(edge(`a${i}`, `b${i}`), edge(`b${i}`, `c${i}`));

export const MAP = indexMap({ version: 'test', provinces: [], areas: [...ids.map(area), SEA], edges });

const player = (id: PlayerId, seat: number, people: 'GERMAN' | 'PICT' | 'ARAB'): PlayerState => ({
  id,
  name: id,
  seat,
  colour: seat === 0 ? 'red' : 'blue',
  joinedTurn: 1,
  status: 'active',
  cycle: {
    number: 1,
    position: people === 'GERMAN' ? 'GERMAN 1' : people,
    people,
    stage: 'barbarian',
    startedTurn: 1,
    orderRoll: 7 - seat,
    countdownStartTurn: null,
    stageTurn: 1,
    vp: 0,
  },
  finished: NO_FINISHED_CYCLES,
  money: 0,
  turnsPlayed: 1,
  capital: null,
  abandoning: false,
});

export type Placement = readonly [id: string, owner: PlayerId, kind: UnitKind, area: string];

export interface FixtureInput {
  readonly units?: readonly Placement[];
  readonly neutrals?: Readonly<Record<string, number>>;
  readonly dice?: readonly number[];
  readonly options?: (o: Options) => Options;
  readonly redPeople?: 'GERMAN' | 'PICT';
  readonly bluePeople?: 'GERMAN' | 'ARAB';
  /** Another map (e.g. the shipped one); the small grid by default. */
  readonly map?: MapIndex;
}

export function fixture(input: FixtureInput): { ctx: EngineContext; state: GameStateCore } {
  const options = input.options ? input.options(DEFAULT_OPTIONS) : DEFAULT_OPTIONS;
  const units: Record<string, Unit> = {};
  for (const [id, owner, kind, where] of input.units ?? []) {
    units[id] = { id: asUnitId(id), owner, kind, area: A(where) };
  }
  const neutrals: Record<string, { strength: number }> = {};
  for (const [where, strength] of Object.entries(input.neutrals ?? {})) neutrals[where] = { strength };
  // Cast: the state may hold fields combat never reads; the test state stays a valid subset.
  const state = {
    schema: STATE_SCHEMA,
    rulesVersion: 'test',
    mapVersion: 'test',
    options,
    rng: [1, 2, 3, 4],
    riggedDice: [...(input.dice ?? [])],
    turn: 1,
    step: { kind: 'playerTurn', player: RED, phase: 'combat', moved: [], split: [] },
    players: [player(RED, 0, input.redPeople ?? 'GERMAN'), player(BLUE, 1, input.bluePeople ?? 'GERMAN')],
    units,
    nextUnit: 100,
    neutrals,
    cities: {},
    markers: [],
    flags: { growthBanned: [], attacked: [] },
    combat: initialCombatState(),
    order: [RED, BLUE],
    version: 0,
  } as GameStateCore;
  return { ctx: { map: input.map ?? MAP, options }, state };
}

/** Two dice whose sum gives `result` on `column` of the shipped CRT (the lowest such sum). */
export function diceFor(column: string, result: CombatResult): [number, number] {
  const index = crtColumnIndex(CRT, column);
  for (let sum = 2; sum <= 12; sum++) {
    if (CRT.results[String(sum)]?.[index] === result) return sum <= 7 ? [1, sum - 1] : [6, sum - 6];
  }
  throw new Error(`no ${result} on ${column}`);
}

/** Deep-freeze a value so any mutation throws (no-mutation tests). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Applies combat orders in turn, failing the test on any error; returns the final state and all events. */
export function play(
  ctx: EngineContext,
  state: GameStateCore,
  orders: readonly (readonly [PlayerId, CombatOrder])[],
) {
  let s = deepFreeze(state);
  const events: CombatEvent[] = [];
  for (const [player, order] of orders) {
    const r = applyCombatOrder(ctx, s, player, order);
    if (!r.ok) throw new Error(`${order.type}: ${JSON.stringify(r.error)}`);
    s = deepFreeze(r.value.state);
    events.push(...r.value.events);
  }
  return { state: s, events };
}
