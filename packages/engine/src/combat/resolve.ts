/**
 * 7.2 Applying a combat result to the game state: eliminations, the exchange, and the queue of
 * decisions the result requires (losses, retreats, advance, pursuit), settled automatically where
 * the owner has no real choice. Ends with the neutral garrison's regeneration (14.1).
 */

import {
  type CombatPhaseState,
  type CombatResult,
  type CombatStep,
  combatStateOf,
  type PendingCombat,
} from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6, rollDie } from '../model/dice.ts';
import type { CombatEvent, EliminationCause, InterceptionEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { cityAt, neutralGarrisonStrengthAt, playerById, unitsByArea } from '../model/queries.ts';
import { isLegalStack, mayJoin } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import { omitKeys } from '../model/state-ops.ts';
import { movementOf, strengthOf, UNIT_PROFILES, type Unit } from '../model/units.ts';
import { capturableShip, captureShip } from '../naval/capture.ts';
import { resolveInterceptions } from '../naval/intercept-combat.ts';
import {
  closeLandings,
  coastalNeighbours,
  landingsOf,
  landingUnits,
  seaRetreatShores,
} from '../naval/landing.ts';
import { sinkingModifier, sinksRetreatingAcrossSea } from '../naval/sinking.ts';
import { CRT, crtResult } from '../tables/crt.ts';
import { mayEndAfterCombat, mayEnterAfterCombat, piecesIn, retreatBoard, retreatingUnit } from './board.ts';
import { type AttackPlan, attackerContribution, buildPlan, type TargetDefence } from './declare.ts';
import { exchangeLossSets, exchangeOutcome } from './exchange.ts';
import { leadersLeftBehind, leadersOverrun } from './leaders.ts';
import { neutralGarrisonReappears } from './neutral.ts';
import { MAX_ADVANCE, pursuitStops } from './pursuit.ts';
import { resultEffect } from './results.ts';
import { type RetreatOptions, retreatOptions } from './retreat.ts';

export interface Step<S> {
  readonly state: S;
  readonly events: CombatEvent[];
}

export const withCombat = <S extends GameStateCore>(state: S, combat: CombatPhaseState): S => ({
  ...state,
  combat,
});

const pendingOf = (state: GameStateCore): PendingCombat | null => combatStateOf(state).pending;

const withPending = <S extends GameStateCore>(state: S, pending: PendingCombat | null): S =>
  withCombat(state, { ...combatStateOf(state), pending });

const present = (state: GameStateCore, ids: readonly UnitId[]): Unit[] =>
  ids.map((id) => state.units[id]).filter((u): u is Unit => u !== undefined);

/** Remove units, reporting them per owner. */
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
function eliminateNeutral<S extends GameStateCore>(
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

const chain = <S>(first: Step<S>, f: (s: S) => Step<S>): Step<S> => {
  const second = f(first.state);
  return { state: second.state, events: first.events.concat(second.events) };
};

function advanceStep(
  player: PlayerId,
  candidates: readonly UnitId[],
  into: readonly AreaId[],
  pursuit: boolean,
  max: number | null,
): CombatStep {
  return { kind: 'advance', player, pursuit, into, routes: [], candidates, moved: [], max };
}

/** 7.2: the decisions (and immediate eliminations) of each result. */
function openResult<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  plan: AttackPlan,
  result: CombatResult,
): Step<S> {
  const attackerIds = plan.attackers.map((a) => a.unit.id);
  const attackerAreas = [...new Set(plan.attackers.map((a) => a.unit.area))];
  const defenderIds = plan.units.map((u) => u.id);
  const effect = resultEffect(result);
  const defenderAdvance = (max: number | null): CombatStep[] =>
    plan.defender ? [advanceStep(plan.defender, defenderIds, attackerAreas, false, max)] : [];
  const setSteps = (s: S, steps: CombatStep[]): S => withPending(s, { ...pendingOf(s)!, steps });

  if (effect.kind === 'eliminate' && effect.side === 'defender') {
    // 8.4, AMBIG-59: a lone ship may be captured instead; the attacker decides first.
    const lone = captureCandidate(ctx, state, plan);
    if (lone) {
      const steps: CombatStep[] = [
        { kind: 'capture', player: plan.attacker, ship: lone },
        advanceStep(plan.attacker, attackerIds, [plan.target], false, MAX_ADVANCE),
      ];
      return { state: setSteps(state, steps), events: [] };
    }
    let step = eliminate(state, defenderIds, 'DE', plan.target);
    step = chain(step, (s) => eliminateNeutral(s, plan.target, 'DE'));
    const steps = [advanceStep(plan.attacker, attackerIds, [plan.target], false, MAX_ADVANCE)];
    return { state: setSteps(step.state, steps), events: step.events };
  }
  if (effect.kind === 'eliminate') {
    const step = eliminate(state, attackerIds, 'AE', null);
    return { state: setSteps(step.state, defenderAdvance(null)), events: step.events };
  }
  if (effect.kind === 'retreat' && effect.side === 'defender') {
    if (plan.neutral) {
      // MA 0: eliminated where it stands (14.1); pursuers may still enter its area.
      const step = eliminateNeutral(state, plan.target, 'retreat');
      const pending = pendingOf(step.state)!;
      const next = withPending(step.state, { ...pending, routes: [{ origin: plan.target, path: [] }] });
      return {
        state: setSteps(next, [advanceStep(plan.attacker, attackerIds, [], true, null)]),
        events: step.events,
      };
    }
    return { state: setSteps(state, retreatSteps(state, plan, 'defender', effect.distance)), events: [] };
  }
  if (effect.kind === 'retreat') {
    // 8.2: a landing force given a retreat loses its carried unit; its ships go back to sea.
    const cargo = plan.attackers
      .filter((a) => a.landing && !UNIT_PROFILES[a.unit.kind].ship)
      .map((a) => a.unit.id);
    const lost = eliminate(state, cargo, 'retreat', null);
    const p = pendingOf(lost.state)!;
    const closed = p.landing
      ? withPending(closeLandings(lost.state, plan.target), { ...p, landingClosed: true })
      : lost.state;
    // The landing did not take its target: said as such, as when AMBIG-17 turns it back.
    const force = plan.attackers.filter((a) => a.landing).map((a) => a.unit.id);
    const failed: CombatEvent[] = p.landing
      ? [{ type: 'navalLandingFailed', player: plan.attacker, target: plan.target, units: force }]
      : [];
    return {
      state: setSteps(closed, retreatSteps(closed, plan, 'attacker', effect.distance)),
      events: [...lost.events, ...failed],
    };
  }
  return openExchange(ctx, state, plan, setSteps, defenderAdvance);
}

/**
 * 8.4, AMBIG-59: the lone ship of a DE that may be captured: the only defending unit, alone in its
 * area (leaders aside), and some attacker able to end in its area once it is theirs (the landing
 * force, or a unit next to it that may advance and stack with a ship).
 */
function captureCandidate(ctx: EngineContext, state: GameStateCore, plan: AttackPlan): UnitId | null {
  const only = plan.units[0];
  if (plan.neutral || plan.units.length !== 1 || only?.kind !== 'ship') return null;
  if (capturableShip(state, plan.target) !== only.id) return null;
  const mine = { kind: 'ship' as const, owner: plan.attacker };
  const force = plan.attackers.filter((a) => a.landing).map((a) => a.unit);
  if (force.length > 0) {
    const all = landingUnits(state, plan.target).map((id) => state.units[id]!);
    return isLegalStack([mine, ...all.map((u) => ({ kind: u.kind, owner: u.owner }))]) ? only.id : null;
  }
  const mayAdvance = plan.attackers.some(
    (a) =>
      movementOf(a.unit.kind, ctx.options) > 0 &&
      ctx.map.landLinks(a.unit.area).some((l) => l.to === plan.target) &&
      mayJoin([mine], { kind: a.unit.kind, owner: plan.attacker }),
  );
  return mayAdvance ? only.id : null;
}

/** 8.4: the attacker captures the lone ship (one unit must then advance) or eliminates it. */
export function applyCapture<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  capture: boolean,
): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'capture' }>;
  const rest = pending.steps.slice(1);
  if (!capture) {
    const gone = eliminate(state, [step.ship], 'DE', pending.target);
    return {
      state: withPending(gone.state, { ...pendingOf(gone.state)!, steps: rest }),
      events: gone.events,
    };
  }
  const old = state.units[step.ship]!;
  const taken = captureShip(state, step.ship, pending.attacker)!;
  let next = taken.state as S;
  const c = combatStateOf(next);
  // The captured ship neither attacks nor is attacked again this turn (7.1).
  next = withCombat(next, {
    ...c,
    attackers: [...c.attackers, taken.ship],
    defenders: [...c.defenders, taken.ship],
  });
  const events: CombatEvent[] = [
    {
      type: 'combatShipCaptured',
      player: pending.attacker,
      from: old.owner,
      ship: old.id,
      captured: taken.ship,
      area: old.area,
    },
  ];
  const led = leadersLeftBehind(next, old.area, old.owner, null);
  next = led.state;
  events.push(...led.events);
  // One attacking unit must advance (the landing force does so when it lands).
  const landing = (pending.landing ?? []).some((id) => next.units[id] && isSeaArea(ctx, next.units[id].area));
  const steps = rest.map((st, i) => (i === 0 && st.kind === 'advance' && !landing ? { ...st, min: 1 } : st));
  return { state: withPending(next, { ...pendingOf(next)!, steps }), events };
}

const isSeaArea = (ctx: EngineContext, a: AreaId): boolean => ctx.map.area(a)?.kind === 'sea';

const isElite = (state: GameStateCore, id: UnitId): boolean => {
  const u = state.units[id];
  return u !== undefined && UNIT_PROFILES[u.kind].elite;
};

/** 7.2 pursuit by the winners of a retreat result (neutral garrisons never move). */
function pursuitSteps(
  pending: Pick<PendingCombat, 'attacker' | 'defender' | 'attackers' | 'defenders'>,
  side: 'attacker' | 'defender',
): CombatStep[] {
  if (side === 'defender') return [advanceStep(pending.attacker, pending.attackers, [], true, null)];
  return pending.defender ? [advanceStep(pending.defender, pending.defenders, [], true, null)] : [];
}

/**
 * 7.2, 11.4: a retreat result. Non-elite units retreat first; elites then choose to retreat or
 * refuse (only 5-3 elites may); the winners pursue once every retreat is done.
 */
function retreatSteps(
  state: GameStateCore,
  plan: AttackPlan,
  side: 'attacker' | 'defender',
  distance: number,
): CombatStep[] {
  const ids = side === 'defender' ? plan.units.map((u) => u.id) : plan.attackers.map((a) => a.unit.id);
  const player = side === 'defender' ? plan.defender! : plan.attacker;
  const fought = side === 'defender' ? [...new Set(plan.attackers.map((a) => a.unit.area))] : [plan.target];
  const elites = ids.filter((id) => isElite(state, id));
  const others = ids.filter((id) => !isElite(state, id));
  const pending = pendingOf(state)!;
  return [
    ...(others.length > 0
      ? [{ kind: 'retreat', player, side, distance, units: others, fought, vacated: [] } as const]
      : []),
    ...(elites.length > 0
      ? [{ kind: 'eliteChoice', player, side, distance, elites, fought } as const]
      : pursuitSteps(pending, side)),
  ];
}

/** 11.4: the elites' owner accepts the retreat (they retreat like any unit) or refuses it. */
export function applyEliteChoice<S extends GameStateCore>(state: S, refuse: boolean): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'eliteChoice' }>;
  const rest = pending.steps.slice(1);
  // Areas already left by a retreat of this combat stay closed to it (no swapping places, 7.3).
  const retreatedFrom = [...new Set(pending.routes.filter((r) => r.path.length > 0).map((r) => r.origin))];
  const next: CombatStep[] = refuse
    ? [{ kind: 'reroll', player: pending.attacker, side: step.side, elites: step.elites }]
    : [
        {
          kind: 'retreat',
          player: step.player,
          side: step.side,
          distance: step.distance,
          units: step.elites,
          fought: step.fought,
          vacated: retreatedFrom,
        },
        ...pursuitSteps(pending, step.side),
      ];
  return { state: withPending(state, { ...pending, steps: [...next, ...rest] }), events: [] };
}

/**
 * 11.4, AMBIG-18: after an elite refused, the attacker aborts (the combat ends, nothing more
 * happens) or rerolls, at the odds recomputed without the units that retreated (for a defending
 * elite only with `cfg.eliteDefenderRecompute`), until the result no longer makes that side retreat.
 */
export function applyReroll<S extends GameStateCore>(ctx: EngineContext, state: S, abort: boolean): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'reroll' }>;
  const plan = replan(ctx, state, pending, step.side);
  // Under `crtBelowMin = forbidVoluntary` odds off the table leave only the abort.
  if (abort || plan.odds.kind === 'forbidden') {
    return { state: withPending(state, { ...pending, steps: [] }), events: [] };
  }
  let next: S = state;
  const rolls: [number, number][] = [];
  let result: CombatResult = 'AE';
  for (let i = 0; i < 100; i++) {
    if (plan.odds.kind !== 'column') break;
    const rolled = roll2d6(next);
    next = rolled.state;
    rolls.push(rolled.dice);
    result = crtResult(CRT, plan.odds.index, rolled.sum);
    const effect = resultEffect(result);
    if (effect.kind !== 'retreat' || effect.side !== step.side) break;
  }
  const event: CombatEvent = {
    type: 'combatRerolled',
    attacker: pending.attacker,
    target: pending.target,
    attackers: plan.attackers.map((a) => a.unit.id),
    defenders: plan.units.map((u) => u.id),
    attack: plan.attackHalf,
    defence: plan.defenceHalf,
    odds: plan.odds.kind === 'column' ? plan.odds.id : 'autoAE',
    rolls,
    result,
  };
  const reset = withPending(next, { ...pending, result, steps: [] });
  const opened = openResult(ctx, reset, plan, result);
  return { state: opened.state, events: [event, ...opened.events] };
}

/** 11.4: the attack as it stands after some units retreated out of it. */
export function replan(
  ctx: EngineContext,
  state: GameStateCore,
  pending: PendingCombat,
  side: 'attacker' | 'defender',
): AttackPlan {
  const stays = (id: UnitId) => state.units[id] !== undefined && !pending.retreated.includes(id);
  const recompute = side === 'attacker' || ctx.options.cfg.eliteDefenderRecompute;
  const defenders = present(
    state,
    pending.defenders.filter((id) => stays(id) || (!recompute && state.units[id])),
  );
  const defence: TargetDefence = {
    defender: pending.defender,
    units: defenders,
    neutral:
      pending.neutral && !pending.neutral.eliminated
        ? { strength: pending.neutral.strength, source: pending.neutral.source }
        : null,
  };
  const fresh = { attackers: [], defenders: [], neutralAreas: [], pending: null };
  const attackers = present(
    state,
    pending.attackers.filter((id) => stays(id) || !recompute),
  ).flatMap((u) => {
    const c = attackerContribution(ctx, state, fresh, u, pending.target, defence);
    return c.ok ? [c.value] : [];
  });
  return buildPlan(ctx, state, pending.attacker, pending.target, attackers, defence);
}

/** 7.2 EX, AMBIG-4: unmodified totals decide; the survivor owes losses, then may advance. */
function openExchange<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  plan: AttackPlan,
  setSteps: (s: S, steps: CombatStep[]) => S,
  defenderAdvance: (max: number | null) => CombatStep[],
): Step<S> {
  const attackerIds = plan.attackers.map((a) => a.unit.id);
  const defenderIds = plan.units.map((u) => u.id);
  const attackTotal = plan.attackers.reduce((s, a) => s + strengthOf(a.unit.kind, ctx.options), 0);
  const defenceTotal = plan.neutral
    ? plan.neutral.strength
    : plan.units.reduce((s, u) => s + strengthOf(u.kind, ctx.options), 0);
  const outcome = exchangeOutcome(attackTotal, defenceTotal, ctx.options.cfg.exTie);
  const killDefence = (s: S): Step<S> =>
    chain(eliminate(s, defenderIds, 'exchange', plan.target), (t) =>
      eliminateNeutral(t, plan.target, 'exchange'),
    );
  if (outcome.eliminated === 'both') {
    const step = chain(eliminate(state, attackerIds, 'exchange', null), killDefence);
    return { state: setSteps(step.state, []), events: step.events };
  }
  if (outcome.eliminated === 'defender') {
    const step = killDefence(state);
    const steps: CombatStep[] = [
      { kind: 'exchangeLoss', player: plan.attacker, owed: outcome.owed, candidates: attackerIds },
      advanceStep(plan.attacker, attackerIds, [plan.target], false, MAX_ADVANCE),
    ];
    return { state: setSteps(step.state, steps), events: step.events };
  }
  let step = eliminate(state, attackerIds, 'exchange', null);
  if (plan.neutral) {
    // A neutral garrison is one piece: owing anything costs it all.
    step = chain(step, (s) =>
      outcome.owed > 0 ? eliminateNeutral(s, plan.target, 'exchange') : { state: s, events: [] },
    );
    return { state: setSteps(step.state, []), events: step.events };
  }
  const steps: CombatStep[] = [
    { kind: 'exchangeLoss', player: plan.defender!, owed: outcome.owed, candidates: defenderIds },
    ...defenderAdvance(MAX_ADVANCE),
  ];
  return { state: setSteps(step.state, steps), events: step.events };
}

/** Start resolving a rolled combat: record it as pending, apply the result, settle what needs no choice. */
export function beginResolution<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  plan: AttackPlan,
  result: CombatResult,
): Step<S> {
  const pending: PendingCombat = {
    attacker: plan.attacker,
    defender: plan.defender,
    target: plan.target,
    result,
    attackers: plan.attackers.map((a) => a.unit.id),
    defenders: plan.units.map((u) => u.id),
    retreated: [],
    neutral: plan.neutral ? { ...plan.neutral, eliminated: false } : null,
    routes: [],
    attackerEntered: false,
    steps: [],
    ...(plan.attackers.some((a) => a.landing) ? { landing: landingUnits(state, plan.target) } : {}),
  };
  const opened = openResult(ctx, withPending(state, pending), plan, result);
  return chain(opened, (s) => settle(ctx, s));
}

// ---- the current decision: its legal choices ----

/** 7.3: the retreat options of each unit still to retreat in the current step. */
export function retreatChoices(
  ctx: EngineContext,
  state: GameStateCore,
  step: Extract<CombatStep, { kind: 'retreat' }>,
): readonly RetreatChoice[] {
  // Immutable states: the same units, step and surroundings give the same choices. The choices are
  // computed when `settle` stops at a retreat and again for the legal orders and the player's answer.
  const hit = recentRetreat;
  if (
    hit &&
    hit.units === state.units &&
    hit.step === step &&
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
  recentRetreat = {
    units: state.units,
    step,
    combat: state.combat,
    neutrals: state.neutrals,
    cities: state.cities,
    markers: state.markers,
    players: state.players,
    map: ctx.map,
    options: ctx.options,
    value,
  };
  return value;
}

export interface RetreatChoice {
  readonly unit: Unit;
  readonly options: RetreatOptions;
}

interface CachedRetreat {
  readonly units: unknown;
  readonly step: unknown;
  readonly combat: unknown;
  readonly neutrals: unknown;
  readonly cities: unknown;
  readonly markers: unknown;
  readonly players: unknown;
  readonly map: unknown;
  readonly options: unknown;
  readonly value: readonly RetreatChoice[];
}

/** One slot: the latest retreat step asked about (a WeakMap per record only adds GC work). */
let recentRetreat: CachedRetreat | null = null;

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

const optionCount = (o: RetreatOptions): number =>
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
export function applyRetreat<S extends GameStateCore>(
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

/** Drop the current step (the player stops advancing or pursuing). */
export function dropStep<S extends GameStateCore>(state: S): S {
  const pending = pendingOf(state)!;
  return withPending(state, { ...pending, steps: pending.steps.slice(1) });
}

/**
 * Apply every decision that leaves no real choice (a single legal loss set, retreats with one
 * option each, an advance nobody can make), and finish the combat when no step is left.
 */
export function settle<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> {
  let current: Step<S> = { state, events: [] };
  for (let guard = 0; guard < 200; guard++) {
    const pending = pendingOf(current.state);
    if (!pending) return current;
    const landed = tryLand(ctx, current.state);
    if (landed) {
      current = chain(current, () => landed);
      continue;
    }
    const step = pending.steps[0];
    if (!step) {
      current = chain(current, (s) => finish(ctx, s));
      continue;
    }
    const auto = autoStep(ctx, current.state, step);
    if (!auto) return current;
    current = chain(current, () => auto);
  }
  throw new Error('combat resolution did not settle');
}

function autoStep<S extends GameStateCore>(ctx: EngineContext, state: S, step: CombatStep): Step<S> | null {
  if (step.kind === 'exchangeLoss') {
    const sets = lossChoices(ctx, state, step);
    return sets.length === 1 ? applyLosses(state, sets[0] as UnitId[]) : null;
  }
  if (step.kind === 'retreat') {
    const choices = retreatChoices(ctx, state, step);
    const first = choices[0];
    if (!first) return { state: dropStep(state), events: [] };
    if (choices.some((c) => optionCount(c.options) > 1)) return null;
    const path =
      (first.options.kind === 'paths' ? first.options.paths[0] : first.options.partialPaths[0]) ?? [];
    return retreatUnit(ctx, state, first.unit, first.options, path as AreaId[]);
  }
  if (step.kind !== 'advance') return null;
  return advanceChoices(ctx, state, step).length === 0 ? { state: dropStep(state), events: [] } : null;
}

/** 14.1: the combat is over; a beaten city garrison comes back if no attacker moved in. */
function finish<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> {
  const pending = pendingOf(state)!;
  if (pending.landing && !pending.landingClosed) return failLanding(ctx, state);
  const cleared = withPending(state, null);
  const n = pending.neutral;
  if (!n?.eliminated || n.source !== 'garrison') return { state: cleared, events: [] };
  const cityArea = cityAt(ctx, pending.target) !== null;
  const occupied = (unitsByArea(state).get(pending.target) ?? []).some((u) => u.kind !== 'leader');
  if (!neutralGarrisonReappears({ cityArea, attackerEntered: pending.attackerEntered || occupied })) {
    return { state: cleared, events: [] };
  }
  const strength = neutralGarrisonStrengthAt(ctx, pending.target);
  return {
    state: { ...cleared, neutrals: { ...cleared.neutrals, [pending.target]: { strength } } },
    events: [{ type: 'combatNeutralRegenerated', area: pending.target, strength }],
  };
}

// ---- 8.2 naval landings ----

/** The landing units of the pending combat still waiting at sea. */
const atSea = (ctx: EngineContext, state: GameStateCore, ids: readonly UnitId[]): Unit[] =>
  present(state, ids).filter((u) => isSeaArea(ctx, u.area));

/** Nothing unfriendly (unit or neutral still standing) is left in the area. */
const clearFor = (ctx: EngineContext, state: GameStateCore, area: AreaId, player: PlayerId): boolean =>
  piecesIn(ctx, state, area).every((p) => p.owner === player || p.kind === 'leader');

/** Move a landing force ashore; lone enemy leaders there are overrun (AMBIG-53). */
function land<S extends GameStateCore>(
  state: S,
  player: PlayerId,
  target: AreaId,
  force: readonly Unit[],
): Step<S> {
  const units = { ...state.units };
  for (const u of force) units[u.id] = { ...u, area: target };
  const moved = { ...state, units };
  const event: CombatEvent = { type: 'navalLanded', player, target, units: force.map((u) => u.id) };
  const overrun = leadersOverrun(moved, target, player);
  return { state: overrun.state, events: [event, ...overrun.events] };
}

/**
 * 8.2: as soon as the landing's target is clear (DE, the defenders retreated, EX against them,
 * a captured ship), the force waiting at sea lands there; it counts as the attackers' advance.
 */
function tryLand<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> | null {
  const pending = pendingOf(state);
  if (!pending?.landing || pending.landingClosed) return null;
  const force = atSea(ctx, state, pending.landing);
  const close = (s: S): S =>
    withPending(closeLandings(s, pending.target), { ...pendingOf(s)!, landingClosed: true });
  if (force.length === 0) return { state: close(state), events: [] };
  if (!clearFor(ctx, state, pending.target, pending.attacker)) return null;
  const friends = (unitsByArea(state).get(pending.target) ?? []).map((u) => ({
    kind: u.kind,
    owner: u.owner,
  }));
  if (!isLegalStack([...friends, ...force.map((u) => ({ kind: u.kind, owner: u.owner }))])) return null;
  const landed = land(state, pending.attacker, pending.target, force);
  const troops = force.filter((u) => u.kind !== 'leader');
  const ids = force.map((u) => u.id);
  const p = pendingOf(landed.state)!;
  // The landed units moved in as the advance: they neither advance again nor pursue.
  const steps = p.steps.map((st) =>
    st.kind === 'advance' && st.player === pending.attacker
      ? {
          ...st,
          candidates: st.candidates.filter((id) => !ids.includes(id)),
          max: st.max === null || st.pursuit ? st.max : Math.max(0, st.max - troops.length),
          min: 0,
        }
      : st,
  );
  const next = withPending(closeLandings(landed.state, pending.target), {
    ...p,
    steps,
    landingClosed: true,
    attackerEntered: true,
  });
  return { state: next, events: landed.events };
}

/**
 * AMBIG-17 (`cfg.failedLanding = treatAsAR`): the combat ended without clearing the target: AR1 for
 * the landing force — its carried unit is eliminated and its ships go back across the sea (8.2, 8.3).
 */
function failLanding<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> {
  const pending = pendingOf(state)!;
  const force = atSea(ctx, state, pending.landing ?? []);
  const cargo = force.filter((u) => u.kind !== 'ship' && u.kind !== 'leader').map((u) => u.id);
  const ships = force.filter((u) => u.kind === 'ship').map((u) => u.id);
  const failed: CombatEvent = {
    type: 'navalLandingFailed',
    player: pending.attacker,
    target: pending.target,
    units: force.map((u) => u.id),
  };
  const lost = eliminate(closeLandings(state, pending.target), cargo, 'retreat', null);
  const steps: CombatStep[] = ships.length
    ? [
        {
          kind: 'retreat',
          player: pending.attacker,
          side: 'attacker',
          distance: 1,
          units: ships,
          fought: [pending.target],
          vacated: [],
        },
      ]
    : [];
  const next = withPending(lost.state, { ...pendingOf(lost.state)!, landingClosed: true, steps });
  return { state: next, events: [failed, ...lost.events] };
}

/**
 * 8.2 at the end of the combat phase: a landing whose target had nothing left to attack lands
 * unopposed; one that cannot (its target still held, or no room) is turned back as AMBIG-17 says,
 * its ships going to the first free shore of their sea (1d6, sinking on a 1).
 */
export function closeUnfoughtLandings<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  player: PlayerId,
): Step<S> {
  let cur: Step<S> = { state, events: [] };
  for (const l of landingsOf(state).filter((x) => x.player === player)) {
    const s0 = cur.state;
    const force = atSea(ctx, s0, [l.ship, ...l.cargo]);
    if (force.length === 0) continue;
    const friends = (unitsByArea(s0).get(l.target) ?? []).map((u) => ({ kind: u.kind, owner: u.owner }));
    const fits = isLegalStack([...friends, ...force.map((u) => ({ kind: u.kind, owner: u.owner }))]);
    if (clearFor(ctx, s0, l.target, player) && fits) {
      cur = chain(cur, (s) => land(s, player, l.target, force));
      continue;
    }
    const cargo = force.filter((u) => u.kind !== 'ship' && u.kind !== 'leader').map((u) => u.id);
    cur = chain(cur, (s) => ({
      state: s,
      events: [{ type: 'navalLandingFailed', player, target: l.target, units: force.map((u) => u.id) }],
    }));
    cur = chain(cur, (s) => eliminate(s, cargo, 'retreat', null));
    const ship = cur.state.units[l.ship];
    if (!ship) continue;
    const board = retreatBoard(ctx, cur.state, ship.id, player);
    const shores = seaRetreatShores(ctx, ship, l.sea, [l.target], [l.target], (a) => board.occupants(a));
    const to = shores[0];
    if (!to) {
      cur = chain(cur, (s) => eliminate(s, [ship.id], 'retreat', null));
      continue;
    }
    cur = chain(cur, (s) => {
      const units = { ...s.units };
      for (const u of present(s, [ship.id, ...l.cargo])) units[u.id] = { ...u, area: to };
      const moved = { ...s, units };
      const d = rollDie(moved);
      const cycle = playerById(s, player)?.cycle;
      const modifier = cycle ? sinkingModifier(cycle.people, cycle.stage) : 0;
      const sunk = sinksRetreatingAcrossSea(d.value, modifier);
      const rolled: CombatEvent = {
        type: 'combatShipSinkingRolled',
        player,
        ship: ship.id,
        die: d.value,
        modifier,
        sunk,
      };
      const retreated: CombatEvent = {
        type: 'combatRetreated',
        player,
        unit: ship.id,
        from: l.sea,
        path: [to],
        eliminated: false,
      };
      if (!sunk) return { state: d.state, events: [retreated, rolled] };
      const gone = eliminate(
        d.state,
        present(d.state, [ship.id, ...l.cargo]).map((u) => u.id),
        'retreat',
        to,
      );
      return { state: gone.state, events: [retreated, rolled, ...gone.events] };
    });
  }
  const c = combatStateOf(cur.state);
  const rest = (c.landings ?? []).filter((l) => l.player !== player);
  return { state: withCombat(cur.state, { ...c, landings: rest }), events: cur.events };
}
