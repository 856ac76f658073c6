/**
 * 7.2 Applying a combat result to the game state: eliminations, the exchange, and the queue of
 * decisions the result requires (losses, retreats, advance, pursuit), settled automatically where
 * the owner has no real choice. Ends with the neutral garrison's regeneration (14.1).
 */

import type { AttackPlan, TargetDefence } from '../combat/attack-plan.ts';
import { exchangeOutcome } from '../combat/exchange.ts';
import {
  advanceStep,
  chain,
  dropStep,
  eliminate,
  eliminateNeutral,
  pendingOf,
  present,
  type Step,
  withPending,
} from '../combat/pending.ts';
import { MAX_ADVANCE } from '../combat/pursuit.ts';
import { resultEffect } from '../combat/results.ts';
import type { CombatResult, CombatStep, PendingCombat } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { CombatEvent } from '../model/events.ts';
import type { AreaId, UnitId } from '../model/ids.ts';
import { neutralGarrisonReappears } from '../model/neutral-garrison.ts';
import { cityAt, neutralGarrisonStrengthAt, unitsByArea } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import { strengthOf, UNIT_PROFILES } from '../model/units.ts';
import { closeLandings, landingUnits } from '../naval/landing.ts';
import { failLanding, tryLand } from '../naval/landing-combat.ts';
import { captureCandidate } from '../naval/ship-capture.ts';
import { attackerContribution, buildPlan } from './declare.ts';
import {
  advanceChoices,
  applyLosses,
  lossChoices,
  optionCount,
  retreatChoices,
  retreatUnit,
} from './steps.ts';

/** 7.2: the decisions (and immediate eliminations) of each result. */
export function openResult<S extends GameStateCore>(
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

const isElite = (state: GameStateCore, id: UnitId): boolean => {
  const u = state.units[id];
  return u !== undefined && UNIT_PROFILES[u.kind].elite;
};

/** 7.2 pursuit by the winners of a retreat result (neutral garrisons never move). */
export function pursuitSteps(
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

/**
 * 7.2: start resolving a rolled combat: record it as pending, apply the result, settle what needs
 * no choice.
 */
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

/**
 * 7.2: apply every decision that leaves no real choice (a single legal loss set, retreats with one
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

/** 7.2: the decision applied at once when its owner has no real choice, else null. */
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
