/**
 * Building positions for golden cases directly: players with cycles, units in areas, the step.
 * States are built as plain data, then driven through the engine or the rule functions.
 */

import {
  type AreaId,
  createEngine,
  DEFAULT_OPTIONS,
  type Engine,
  type GameState,
  indexMap,
  type MapInput,
  NO_FINISHED_CYCLES,
  type Options,
  type PlayerId,
  peopleOf,
  type Stage,
  type StartPosition,
  type Step,
  type Unit,
  type UnitId,
  type UnitKind,
} from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import type { GameEvent } from '../../src/model/events.ts';
import { settle } from '../../src/turn/machine.ts';

export const P = (s: string) => s as PlayerId;
export const A = (s: string) => s as AreaId;
export const U = (s: string) => s as UnitId;

interface ScenarioPlayer {
  id: string;
  position?: StartPosition;
  stage?: Stage;
  countdown?: number | null;
  startedTurn?: number;
  money?: number;
  vp?: number;
}

export interface ScenarioSpec {
  map: MapInput;
  turn?: number;
  players: ScenarioPlayer[];
  /** [owner, kind, area, inverted?]; ids are u1, u2, … in order. */
  units?: [string, UnitKind, string, boolean?][];
  step?: Step;
  options?: Partial<{ opt: Partial<Options['opt']>; cfg: Partial<Options['cfg']> }>;
  dice?: number[];
  neutrals?: Record<string, number>;
}

const COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'orange'] as const;

export function scenario(spec: ScenarioSpec): { engine: Engine; state: GameState; ctx: EngineContext } {
  const engine = createEngine(spec.map);
  const options: Options = {
    ...DEFAULT_OPTIONS,
    opt: { ...DEFAULT_OPTIONS.opt, ...spec.options?.opt },
    cfg: { ...DEFAULT_OPTIONS.cfg, ...spec.options?.cfg },
  };
  const created = engine.createGame({ seed: 'scenario', options });
  if (!created.ok) throw new Error(created.error.code);
  const turn = spec.turn ?? 1;
  const units: Record<string, Unit> = {};
  (spec.units ?? []).forEach(([owner, kind, area, inverted], i) => {
    const id = U(`u${i + 1}`);
    units[id] = { id, owner: P(owner), kind, area: A(area), ...(inverted ? { inverted: true } : {}) };
  });
  const state: GameState = {
    ...created.value,
    turn,
    riggedDice: spec.dice ?? [],
    units,
    nextUnit: (spec.units?.length ?? 0) + 1,
    neutrals: spec.neutrals
      ? Object.fromEntries(Object.entries(spec.neutrals).map(([a, s]) => [a, { strength: s }]))
      : created.value.neutrals,
    players: spec.players.map((p, i) => ({
      id: P(p.id),
      name: p.id,
      seat: i,
      colour: COLOURS[i]!,
      joinedTurn: 1,
      status: p.position ? 'active' : 'waiting',
      cycle: p.position
        ? {
            number: 1,
            position: p.position,
            people: peopleOf(p.position),
            stage: p.stage ?? 'barbarian',
            startedTurn: p.startedTurn ?? 1,
            orderRoll: 10 - i,
            countdownStartTurn: p.countdown ?? null,
            stageTurn: p.startedTurn ?? 1,
            vp: p.vp ?? 0,
          }
        : null,
      finished: NO_FINISHED_CYCLES,
      money: p.money ?? 0,
      turnsPlayed: 0,
      capital: null,
      abandoning: false,
    })),
    order: spec.players.filter((p) => p.position).map((p) => P(p.id)),
    step: spec.step ?? { kind: 'idle' },
    undo: null,
  };
  return { engine, state, ctx: { map: indexMap(spec.map), options } };
}

/** The player-turn step of one phase. */
export const phase = (
  player: string,
  ph: 'combination' | 'growth' | 'movement' | 'stacking' | 'combat',
): Step => ({
  kind: 'playerTurn',
  player: P(player),
  phase: ph,
  moved: [],
  split: [],
});

export const adminStep = (players: string[]): Step => ({
  kind: 'administration',
  queue: players.map(P),
  player: null,
  choice: null,
  todo: [],
});

export const unitsAt = (state: GameState, area: string): Unit[] =>
  Object.values(state.units).filter((u) => u.area === area);

/** Run the turn machine's automatic steps (turn/machine.ts) and keep the GameState shape. */
export function settleGame(ctx: EngineContext, state: GameState): { state: GameState; events: GameEvent[] } {
  const t = settle(ctx, state);
  return { state: { ...t.state, undo: null }, events: t.events };
}
