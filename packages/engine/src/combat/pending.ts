/**
 * The combat being resolved, inside the state: reading and replacing it, and the eliminations a
 * result makes (7.2), neutral garrisons included (14.1).
 */
import {
  type CombatPhaseState,
  type CombatStep,
  combatStateOf,
  type PendingCombat,
} from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { CombatEvent, EliminationCause } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { GameStateCore } from '../model/state.ts';
import { omitKeys } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';
import { leadersLeftBehind } from './leaders-in-combat.ts';

export interface Step<S> {
  readonly state: S;
  readonly events: CombatEvent[];
}

/** 7.1: a copy of the state with new combat-phase bookkeeping. */
export const withCombat = <S extends GameStateCore>(state: S, combat: CombatPhaseState): S => ({
  ...state,
  combat,
});

/** 7.2: the combat being resolved, if any. */
export const pendingOf = (state: GameStateCore): PendingCombat | null => combatStateOf(state).pending;

/** 7.2: a copy of the state with the combat being resolved replaced. */
export const withPending = <S extends GameStateCore>(state: S, pending: PendingCombat | null): S =>
  withCombat(state, { ...combatStateOf(state), pending });

/** 7.2: the units of these ids still on the board. */
export const present = (state: GameStateCore, ids: readonly UnitId[]): Unit[] =>
  ids.map((id) => state.units[id]).filter((u): u is Unit => u !== undefined);

/** 7.2: remove units, reporting them per owner. */
export function eliminate<S extends GameStateCore>(
  state: S,
  ids: readonly UnitId[],
  cause: EliminationCause,
  area: AreaId | null,
): Step<S> {
  const gone = present(state, ids);
  if (gone.length === 0) return { state, events: [] };
  const units = omitKeys(
    state.units,
    gone.map((u) => u.id),
  );
  const owners = [...new Set(gone.map((u) => u.owner))];
  const events: CombatEvent[] = owners.map((player) => ({
    type: 'combatUnitsEliminated',
    player,
    units: gone.filter((u) => u.owner === player).map((u) => u.id),
    area,
    cause,
  }));
  // 10.2: a leader whose whole stack is gone goes with it.
  let step: Step<S> = { state: { ...state, units }, events };
  const stacks = new Map(gone.map((u) => [`${u.owner}|${u.area}`, u]));
  for (const u of stacks.values()) step = chain(step, (s) => leadersLeftBehind(s, u.area, u.owner, null));
  return step;
}

/** The neutral garrison of a combat is eliminated (a pillage marker stays in its city, 9.5). */
export function eliminateNeutral<S extends GameStateCore>(
  state: S,
  target: AreaId,
  cause: EliminationCause,
): Step<S> {
  const pending = pendingOf(state);
  if (!pending?.neutral || pending.neutral.eliminated) return { state, events: [] };
  const neutrals =
    pending.neutral.source === 'garrison' ? omitKeys(state.neutrals, [target]) : { ...state.neutrals };
  const next = withPending(
    { ...state, neutrals },
    { ...pending, neutral: { ...pending.neutral, eliminated: true } },
  );
  return { state: next, events: [{ type: 'combatNeutralEliminated', area: target, cause }] };
}

/** 7.2: two steps of a resolution, one after the other, their events in order. */
export const chain = <S>(first: Step<S>, f: (s: S) => Step<S>): Step<S> => {
  const second = f(first.state);
  return { state: second.state, events: first.events.concat(second.events) };
};

/** 7.2: an advance (or pursuit) step for these candidates. */
export function advanceStep(
  player: PlayerId,
  candidates: readonly UnitId[],
  into: readonly AreaId[],
  pursuit: boolean,
  max: number | null,
): CombatStep {
  return { kind: 'advance', player, pursuit, into, routes: [], candidates, moved: [], max };
}

/** 8.2: is this a sea area (where a landing force waits)? */
export const isSeaArea = (ctx: EngineContext, a: AreaId): boolean => ctx.map.area(a)?.kind === 'sea';

/** 7.2: drop the current step (the player stops advancing or pursuing). */
export function dropStep<S extends GameStateCore>(state: S): S {
  const pending = pendingOf(state)!;
  return withPending(state, { ...pending, steps: pending.steps.slice(1) });
}
