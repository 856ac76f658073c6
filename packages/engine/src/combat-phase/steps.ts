/**
 * The decisions a combat result requires, listed and applied: retreats (7.3, and ships across a sea,
 * 8.3), exchange losses (7.2 EX), advance after combat and pursuit (7.2).
 */

import { mayEndAfterCombat, mayEnterAfterCombat, retreatBoard, retreatingUnit } from '../combat/board.ts';
import { exchangeLossSets } from '../combat/exchange.ts';
import { leadersLeftBehind, leadersOverrun } from '../combat/leaders-in-combat.ts';
import {
  chain,
  eliminate,
  isSeaArea,
  pendingOf,
  present,
  type Step,
  withPending,
} from '../combat/pending.ts';
import { pursuitStops } from '../combat/pursuit.ts';
import { type RetreatOptions, retreatOptions } from '../combat/retreat.ts';
import type { CombatStep, PendingCombat } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { rollDie } from '../model/dice.ts';
import type { CombatEvent, InterceptionEvent } from '../model/events.ts';
import type { AreaId, UnitId } from '../model/ids.ts';
import { playerById } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import { movementOf, strengthOf, type Unit } from '../model/units.ts';
import { resolveInterceptions } from '../naval/intercept-combat.ts';
import { coastalNeighbours, seaRetreatShores } from '../naval/landing.ts';
import { sinkingModifier, sinksRetreatingAcrossSea } from '../naval/sinking.ts';

// ---- the current decision: its legal choices ----

/** 7.3: the retreat options of each unit still to retreat in the current step. */
export function retreatChoices(
  ctx: EngineContext,
  state: GameStateCore,
  step: Extract<CombatStep, { kind: 'retreat' }>,
): readonly RetreatChoice[] {
  // Immutable states: the same units, step and surroundings give the same choices. The choices are
  // computed when `settle` stops at a retreat and again for the legal orders and the player's answer;
  // they are cached on the step object, with the parts of the state they were computed from.
  const hit = retreatCache.get(step);
  if (
    hit &&
    hit.units === state.units &&
    hit.combat === state.combat &&
    hit.neutrals === state.neutrals &&
    hit.cities === state.cities &&
    hit.markers === state.markers &&
    hit.players === state.players &&
    hit.map === ctx.map &&
    hit.options === ctx.options
  )
    return hit.value;
  const value = computeRetreatChoices(ctx, state, step);
  retreatCache.set(step, {
    units: state.units,
    combat: state.combat,
    neutrals: state.neutrals,
    cities: state.cities,
    markers: state.markers,
    players: state.players,
    map: ctx.map,
    options: ctx.options,
    value,
  });
  return value;
}

export interface RetreatChoice {
  readonly unit: Unit;
  readonly options: RetreatOptions;
}

interface CachedRetreat {
  readonly units: unknown;
  readonly combat: unknown;
  readonly neutrals: unknown;
  readonly cities: unknown;
  readonly markers: unknown;
  readonly players: unknown;
  readonly map: unknown;
  readonly options: unknown;
  readonly value: readonly RetreatChoice[];
}

/** Retreat choices, per retreat step (a value of the state, never mutated). */
const retreatCache = new WeakMap<object, CachedRetreat>();

/** 7.3, 8.3: every retreating unit's options. */
function computeRetreatChoices(
  ctx: EngineContext,
  state: GameStateCore,
  step: Extract<CombatStep, { kind: 'retreat' }>,
): RetreatChoice[] {
  return present(state, step.units).map((u) => {
    const board = retreatBoard(ctx, state, u.id, u.owner);
    const request = {
      unit: retreatingUnit(ctx, u),
      from: u.area,
      distance: step.distance,
      fought: step.fought,
      forbidden: new Set(step.vacated),
    };
    return {
      unit: u,
      options: u.kind === 'ship' ? shipRetreatOptions(ctx, state, u, step) : retreatOptions(board, request),
    };
  });
}

/**
 * 8.3: a ship retreats along the coast (shoreline steps, 7.3 criteria) if it can; otherwise across
 * one sea area of its coast to another shore of it (path [sea, shore], a sinking die follows). A
 * landing force's ship is already at sea: it goes back to a shore of that sea (8.2; no coast first).
 */
function shipRetreatOptions(
  ctx: EngineContext,
  state: GameStateCore,
  u: Unit,
  step: Extract<CombatStep, { kind: 'retreat' }>,
): RetreatOptions {
  const board = retreatBoard(ctx, state, u.id, u.owner);
  const occupants = (a: AreaId) => board.occupants(a);
  const none: RetreatOptions = { kind: 'eliminated', reason: 'retreat/noPath', partialPaths: [[]] };
  if (isSeaArea(ctx, u.area)) {
    const avoid = [...step.fought, ...step.vacated] as AreaId[];
    const shores = seaRetreatShores(ctx, u, u.area, avoid, step.fought, occupants);
    return shores.length ? { kind: 'paths', paths: shores.map((a) => [a]) } : none;
  }
  const coastal = retreatOptions(
    { ...board, neighbours: (a) => coastalNeighbours(ctx, a as AreaId) },
    {
      unit: retreatingUnit(ctx, u),
      from: u.area,
      distance: step.distance,
      fought: step.fought,
      forbidden: new Set(step.vacated),
    },
  );
  if (coastal.kind === 'paths') return coastal;
  const avoid = [u.area, ...step.vacated] as AreaId[];
  const paths = ctx.map
    .seasOf(u.area)
    .flatMap((sea) => seaRetreatShores(ctx, u, sea, avoid, step.fought, occupants).map((a) => [sea, a]));
  return paths.length ? { kind: 'paths', paths } : coastal;
}

/**
 * 7.3 / 8.3: carry out one unit's retreat. A ship that crossed a sea area doing so rolls 1d6 and
 * sinks on a 1 (Viking +1 as for any sinking roll, 5.3), then may be intercepted in that sea (8.1;
 * engine decision: a retreating ship sent back by an interception stays where its retreat ended).
 */
export function retreatUnit<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  unit: Unit,
  options: RetreatOptions,
  path: readonly AreaId[],
): Step<S> {
  const moved = applyRetreat(state, unit, options, path, ctx.options.cfg.leaderKilledOnPassThrough);
  if (unit.kind !== 'ship' || options.kind === 'eliminated') return moved;
  const sea = isSeaArea(ctx, unit.area) ? unit.area : path.find((a) => isSeaArea(ctx, a));
  const end = path[path.length - 1];
  if (!sea || !end) return moved;
  const cycle = playerById(state, unit.owner)?.cycle;
  const modifier = cycle ? sinkingModifier(cycle.people, cycle.stage) : 0;
  const d = rollDie(moved.state);
  const sunk = sinksRetreatingAcrossSea(d.value, modifier);
  const events: CombatEvent[] = [
    ...moved.events,
    { type: 'combatShipSinkingRolled', player: unit.owner, ship: unit.id, die: d.value, modifier, sunk },
  ];
  if (sunk) {
    const gone = eliminate(d.state, [unit.id], 'retreat', end);
    return { state: gone.state, events: [...events, ...gone.events] };
  }
  const run = resolveInterceptions(ctx, d.state, unit.owner, unit.id, unit.area, [sea], [], modifier);
  return { state: run.state as S, events: [...events, ...(run.events as InterceptionEvent[])] };
}

/** 7.3: how many ways a unit may retreat. */
export const optionCount = (o: RetreatOptions): number =>
  o.kind === 'paths' ? o.paths.length : o.partialPaths.length;

/** 7.2: the legal loss sets of the current exchange step. */
export function lossChoices(
  ctx: EngineContext,
  state: GameStateCore,
  step: Extract<CombatStep, { kind: 'exchangeLoss' }>,
): string[][] {
  const units = present(state, step.candidates).map((u) => ({
    id: u.id,
    strength: strengthOf(u.kind, ctx.options),
  }));
  return exchangeLossSets(units, step.owed);
}

/** 7.2: where each unit of the current advance or pursuit step may go. */
export function advanceChoices(
  ctx: EngineContext,
  state: GameStateCore,
  step: Extract<CombatStep, { kind: 'advance' }>,
): { unit: Unit; to: AreaId[] }[] {
  if (step.max !== null && step.moved.length >= step.max) return [];
  const pending = pendingOf(state);
  const movers = present(state, step.candidates).filter(
    (u) => !step.moved.includes(u.id) && movementOf(u.kind, ctx.options) > 0,
  );
  return movers
    .map((u) => ({ unit: u, to: destinations(ctx, state, u, step, pending?.routes ?? []) }))
    .filter((c) => c.to.length > 0);
}

function adjacentTo(ctx: EngineContext, from: AreaId, to: AreaId): boolean {
  return ctx.map.landLinks(from).some((l) => l.to === to);
}

/** 7.2: where a unit may advance or pursue now. */
function destinations(
  ctx: EngineContext,
  state: GameStateCore,
  u: Unit,
  step: Extract<CombatStep, { kind: 'advance' }>,
  routes: PendingCombat['routes'],
): AreaId[] {
  if (!step.pursuit)
    return step.into.filter((a) => adjacentTo(ctx, u.area, a) && mayEndAfterCombat(ctx, state, u, a));
  const stops = new Set<AreaId>();
  for (const route of routes) {
    if (!adjacentTo(ctx, u.area, route.origin)) continue;
    const found = pursuitStops({
      origin: route.origin,
      path: route.path,
      movement: movementOf(u.kind, ctx.options),
      mayEnter: (a) => mayEnterAfterCombat(ctx, state, u, a as AreaId),
      mayEnd: (a) => mayEndAfterCombat(ctx, state, u, a as AreaId),
    });
    for (const s of found) stops.add(s as AreaId);
  }
  return [...stops].sort();
}

// ---- applying choices ----

/** 7.3: move (or eliminate) one retreating unit along a chosen legal path. */
function applyRetreat<S extends GameStateCore>(
  state: S,
  unit: Unit,
  options: RetreatOptions,
  path: readonly AreaId[],
  leaderKilledOnPassThrough = true,
): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'retreat' }>;
  const eliminated = options.kind === 'eliminated';
  const end = path[path.length - 1];
  const events: CombatEvent[] = [
    {
      type: 'combatRetreated',
      player: unit.owner,
      unit: unit.id,
      from: unit.area,
      path: [...path],
      eliminated,
    },
  ];
  let next: S = state;
  if (eliminated) {
    const gone = eliminate(next, [unit.id], 'retreat', end ?? unit.area);
    next = gone.state;
    events.push(...gone.events);
  } else if (end) {
    next = { ...next, units: { ...next.units, [unit.id]: { ...unit, area: end } } };
    const led = leadersLeftBehind(next, unit.area, unit.owner, end);
    next = led.state;
    events.push(...led.events);
    // AMBIG-53: lone enemy leaders on the way (or only at the end) are overrun.
    for (const area of leaderKilledOnPassThrough ? path : [end]) {
      const overrun = leadersOverrun(next, area, unit.owner, unit); // 13.6: `unit` is the captor
      next = overrun.state;
      events.push(...overrun.events);
    }
  }
  const remaining = step.units.filter((id) => id !== unit.id);
  const vacated =
    eliminated || step.vacated.includes(unit.area) ? step.vacated : [...step.vacated, unit.area];
  const steps = [{ ...step, units: remaining, vacated }, ...pending.steps.slice(1)];
  const routes = [...pending.routes, { origin: unit.area, path: [...path] }];
  const retreated = [...pending.retreated, unit.id];
  return { state: withPending(next, { ...pendingOf(next)!, steps, routes, retreated }), events };
}

/** 7.2: remove the chosen exchange losses. */
export function applyLosses<S extends GameStateCore>(state: S, units: readonly UnitId[]): Step<S> {
  const pending = pendingOf(state)!;
  const gone = eliminate(state, units, 'exchange', null);
  return {
    state: withPending(gone.state, { ...pendingOf(gone.state)!, steps: pending.steps.slice(1) }),
    events: gone.events,
  };
}

/** 7.2: one unit advances or pursues. */
export function applyAdvance<S extends GameStateCore>(
  state: S,
  unit: Unit,
  to: AreaId,
  passed: readonly AreaId[] = [to],
): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'advance' }>;
  const moved = { ...step, moved: [...step.moved, unit.id] };
  const attackerEntered =
    pending.attackerEntered || (unit.owner === pending.attacker && to === pending.target);
  const next = { ...state, units: { ...state.units, [unit.id]: { ...unit, area: to } } };
  const event: CombatEvent = {
    type: 'combatAdvanced',
    player: unit.owner,
    unit: unit.id,
    from: unit.area,
    to,
    pursuit: step.pursuit,
  };
  // AMBIG-53: lone enemy leaders where it stops (and, by default, on the way) are overrun.
  let overrun: Step<S> = { state: next, events: [] };
  for (const area of new Set([...passed, to]))
    overrun = chain(overrun, (s) => leadersOverrun(s, area, unit.owner, unit)); // 13.6: captor
  return {
    state: withPending(overrun.state, {
      ...pending,
      attackerEntered,
      steps: [moved, ...pending.steps.slice(1)],
    }),
    events: [event, ...overrun.events],
  };
}

/** 7.2: the areas a pursuer goes through to reach `to` along a retreat route (the first that leads there). */
export function pursuitPassage(ctx: EngineContext, state: GameStateCore, unit: Unit, to: AreaId): AreaId[] {
  const routes = pendingOf(state)?.routes ?? [];
  for (const route of routes) {
    if (!ctx.map.landLinks(unit.area).some((l) => l.to === route.origin)) continue;
    const full = [route.origin, ...route.path];
    const at = full.indexOf(to);
    if (at >= 0) return full.slice(0, at + 1);
  }
  return [to];
}
