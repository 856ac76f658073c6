/**
 * The combat phase (4.3.5, 7): its orders, their legal lists and their application. The phasing
 * player declares attacks one at a time (each resolved at once, 7.1 "finish each before the
 * next"); the choices a result requires are orders of the player who must make them.
 */

import type { AttackPlan } from '../combat/attack-plan.ts';
import { isLegalLossSet } from '../combat/exchange.ts';
import { dropStep, type Step, withCombat } from '../combat/pending.ts';
import { isLegalRetreat } from '../combat/retreat.ts';
import { type CombatPhaseState, combatStateOf } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6 } from '../model/dice.ts';
import type { CombatEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { CombatLegalOrder } from '../model/legal-orders.ts';
import type { CombatOrder } from '../model/orders.ts';
import { ok, type Result } from '../model/result.ts';
import type { GameStateCore } from '../model/state.ts';
import { strengthOf, type Unit } from '../model/units.ts';
import { landingForce, owedLandingTargets } from '../naval/landing.ts';
import { closeUnfoughtLandings } from '../naval/landing-combat.ts';
import { applyCapture } from '../naval/ship-capture.ts';
import { CRT, crtChances, crtResult } from '../tables/crt.ts';
import { combatErr } from './combat-errors.ts';
import { attackerContribution, buildPlan, planAttack, targetDefence } from './declare.ts';
import { applyEliteChoice, applyReroll } from './elite-reroll.ts';
import { hordeEndRisk } from './fatal-risk.ts';
import { beginResolution, replan, settle } from './resolve.ts';
import {
  advanceChoices,
  applyAdvance,
  applyLosses,
  lossChoices,
  pursuitPassage,
  retreatChoices,
  retreatUnit,
} from './steps.ts';

export type CombatTransition<S> = Step<S>;

/** 4.3.5: the phasing player if the game is in a combat phase. */
function combatPhasePlayer(state: GameStateCore): PlayerId | null {
  const s = state.step;
  return s.kind === 'playerTurn' && s.phase === 'combat' ? s.player : null;
}

/** 7: who must act now in the combat phase: the owner of a pending choice, else the phasing player. */
export function combatWaitingFor(state: GameStateCore): PlayerId[] {
  const pending = combatStateOf(state).pending;
  const step = pending?.steps[0];
  if (step) return [step.player];
  const phasing = combatPhasePlayer(state);
  return phasing ? [phasing] : [];
}

// ---- legal orders ----

const SUBSET_LIMIT = 5;

function attackerSubsets(ids: readonly UnitId[]): UnitId[][] {
  if (ids.length <= SUBSET_LIMIT) {
    const all: UnitId[][] = [];
    for (let mask = (1 << ids.length) - 1; mask > 0; mask--) all.push(ids.filter((_, i) => mask & (1 << i)));
    return all.sort((a, b) => b.length - a.length);
  }
  const without = ids.map((skip) => ids.filter((id) => id !== skip));
  return [[...ids], ...without, ...ids.map((id) => [id])];
}

const oddsLabel = (plan: AttackPlan): string => (plan.odds.kind === 'column' ? plan.odds.id : plan.odds.kind);

/** 7.1: every area the player may attack now, with the eligible units and the odds of each choice. */
function attackOrders(
  ctx: EngineContext,
  state: GameStateCore,
  combat: CombatPhaseState,
  player: PlayerId,
): CombatLegalOrder[] {
  // Units that have not attacked yet, grouped by the areas next to them (the possible targets).
  const ready = Object.values(state.units).filter(
    (u) => u.owner === player && u.kind !== 'leader' && !combat.attackers.includes(u.id),
  );
  const near = new Map<AreaId, Unit[]>();
  for (const u of ready)
    for (const l of ctx.map.landLinks(u.area)) near.set(l.to, [...(near.get(l.to) ?? []), u]);
  // 8.2: a landing force waiting at sea attacks its target (and nothing else).
  const owed = owedLandingTargets(state, player);
  for (const target of owed) {
    const force = landingForce(state, target).map((id) => state.units[id]!);
    near.set(target, [...force, ...(near.get(target) ?? []).filter((u) => !force.includes(u))]);
  }
  const orders: CombatLegalOrder[] = [];
  for (const target of [...near.keys()].sort()) {
    const defence = targetDefence(ctx, state, combat, player, target);
    if (!defence) continue;
    const contributions = (near.get(target) ?? []).flatMap((u) => {
      const c = attackerContribution(ctx, state, combat, u, target, defence);
      return c.ok ? [c.value] : [];
    });
    if (contributions.length === 0) continue;
    const eligible = contributions.map((c) => ({ unit: c.unit.id, from: c.unit.area, halved: c.halved }));
    const byId = new Map(contributions.map((c) => [c.unit.id, c]));
    const mixedForbidden = !ctx.options.cfg.tribesJoinCombatUnitAttacks;
    const force = owed.includes(target) ? landingForce(state, target) : [];
    const subsets = force.length
      ? landingSubsets(
          force,
          eligible.map((e) => e.unit).filter((id) => !force.includes(id)),
        )
      : attackerSubsets(eligible.map((e) => e.unit));
    const choices = subsets.flatMap((attackers) => {
      const chosen = attackers.map((id) => byId.get(id)!);
      const tribes = chosen.filter((c) => c.unit.kind === 'tribe').length;
      if (mixedForbidden && tribes > 0 && tribes < chosen.length) return [];
      const plan = buildPlan(ctx, state, player, target, chosen, defence);
      if (plan.odds.kind === 'forbidden') return [];
      const outcomes = crtChances(CRT, oddsLabel(plan));
      const risk = hordeEndRisk(ctx, state, plan, outcomes);
      return [
        {
          attackers,
          odds: oddsLabel(plan),
          shift: plan.odds.shift,
          outcomes,
          ...(risk ? { consequences: [risk] } : {}),
        },
      ];
    });
    if (choices.length === 0) continue;
    orders.push({
      type: 'combatAttack',
      target,
      defender: defence.defender,
      defenders: defence.units.map((u) => u.id),
      neutral: defence.neutral?.strength ?? null,
      eligible,
      choices,
      ...(force.length ? { landing: true as const } : {}),
    });
  }
  return orders;
}

/** 8.2: the force alone first, then with every subset of the other units (or all / each when many). */
function landingSubsets(force: readonly UnitId[], others: readonly UnitId[]): UnitId[][] {
  const extra = others.length <= 4 ? attackerSubsets(others) : [[...others], ...others.map((id) => [id])];
  return [[...force], ...extra.map((x) => [...force, ...x])];
}

/** 8.2: landings whose target still offers a defence: their attack is owed before `combatDone`. */
function owedAttacks(ctx: EngineContext, state: GameStateCore, player: PlayerId): AreaId[] {
  const combat = combatStateOf(state);
  return owedLandingTargets(state, player).filter(
    (t) => targetDefence(ctx, state, combat, player, t) !== null,
  );
}

/** 7: the legal combat orders of `player` now (empty when it is not their decision). */
export function combatLegalOrders(
  ctx: EngineContext,
  state: GameStateCore,
  player: PlayerId,
): CombatLegalOrder[] {
  const phasing = combatPhasePlayer(state);
  if (!phasing) return [];
  const combat = combatStateOf(state);
  const step = combat.pending?.steps[0];
  if (!step) {
    if (player !== phasing) return [];
    const attacks = attackOrders(ctx, state, combat, player);
    return owedAttacks(ctx, state, player).length > 0 ? attacks : [...attacks, { type: 'combatDone' }];
  }
  if (step.player !== player) return [];
  if (step.kind === 'capture') {
    return [false, true].map((capture) => ({ type: 'combatCapture', capture, ship: step.ship }));
  }
  if (step.kind === 'exchangeLoss') {
    return [
      { type: 'combatExchangeLoss', owed: step.owed, sets: lossChoices(ctx, state, step) as UnitId[][] },
    ];
  }
  if (step.kind === 'eliteChoice') {
    return [false, true].map((refuse) => ({ type: 'combatEliteChoice', refuse, elites: [...step.elites] }));
  }
  if (step.kind === 'reroll') {
    const pending = combat.pending!;
    const mayReroll = replan(ctx, state, pending, step.side).odds.kind !== 'forbidden';
    return (mayReroll ? [false, true] : [true]).map((abort) => ({ type: 'combatReroll', abort }));
  }
  if (step.kind === 'retreat') {
    // Every unit to retreat is gone (e.g. its owner left the game): only closing the step remains.
    const choices = retreatChoices(ctx, state, step);
    if (choices.length === 0) return [{ type: 'combatStop' }];
    return choices.map(({ unit, options }) => ({
      type: 'combatRetreat',
      unit: unit.id,
      from: unit.area,
      paths: (options.kind === 'paths' ? options.paths : options.partialPaths).map((p) => [...p] as AreaId[]),
      eliminated: options.kind === 'eliminated',
    }));
  }
  const advances = advanceChoices(ctx, state, step);
  // 8.4: after a capture one unit must advance before the attacker may stop.
  const mustAdvance = (step.min ?? 0) > step.moved.length && advances.length > 0;
  return [
    ...advances.map(({ unit, to }) => ({
      type: 'combatAdvance' as const,
      unit: unit.id,
      from: unit.area,
      to,
      pursuit: step.pursuit,
    })),
    ...(mustAdvance ? [] : [{ type: 'combatStop' as const }]),
  ];
}

// ---- applying orders ----

/** 7.1: declare, roll and resolve one attack. */
function applyAttack<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  player: PlayerId,
  order: Extract<CombatOrder, { type: 'combatAttack' }>,
): Result<Step<S>> {
  const combat = combatStateOf(state);
  const planned = planAttack(ctx, state, combat, player, order.target, order.attackers);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const recorded: CombatPhaseState = {
    ...combat,
    attackers: [...combat.attackers, ...plan.attackers.map((a) => a.unit.id)],
    defenders: [...combat.defenders, ...plan.units.map((u) => u.id)],
    neutralAreas: plan.neutral ? [...combat.neutralAreas, plan.target] : combat.neutralAreas,
  };
  let next = withCombat(state, recorded);
  if (!next.flags.attacked.includes(player)) {
    next = { ...next, flags: { ...next.flags, attacked: [...next.flags.attacked, player] } };
  }
  let dice: [number, number] | null = null;
  let result: ReturnType<typeof crtResult> = 'AE';
  if (plan.odds.kind === 'column') {
    const rolled = roll2d6(next);
    next = rolled.state;
    dice = rolled.dice;
    result = crtResult(CRT, plan.odds.index, rolled.sum);
  }
  const resolved: CombatEvent = {
    type: 'combatResolved',
    attacker: player,
    defender: plan.defender,
    target: plan.target,
    attackers: plan.attackers.map((a) => a.unit.id),
    defenders: plan.units.map((u) => u.id),
    neutral: plan.neutral ? { ...plan.neutral } : null,
    attack: plan.attackHalf,
    defence: plan.defenceHalf,
    odds: plan.odds.kind === 'column' ? plan.odds.id : 'autoAE',
    rawColumn: plan.odds.kind === 'column' ? plan.odds.raw : -1,
    shift: plan.odds.shift,
    shifts: { ...plan.shifts },
    dice,
    result,
  };
  const after = beginResolution(ctx, next, plan, result);
  return ok({ state: after.state, events: [resolved, ...after.events] });
}

function applyChoice<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  player: PlayerId,
  order: CombatOrder,
): Result<Step<S>> {
  const step = combatStateOf(state).pending?.steps[0];
  if (!step) return combatErr('combat/nothing_pending');
  if (step.player !== player) return combatErr('combat/not_your_choice', { player: step.player });
  const done = (s: Step<S>): Result<Step<S>> => {
    const settled = settle(ctx, s.state);
    return ok({ state: settled.state, events: [...s.events, ...settled.events] });
  };
  if (order.type === 'combatExchangeLoss') {
    if (step.kind !== 'exchangeLoss') return combatErr('combat/wrong_step', { expected: step.kind });
    const units = step.candidates
      .map((id) => state.units[id])
      .flatMap((u) => (u ? [{ id: u.id, strength: strengthOf(u.kind, ctx.options) }] : []));
    if (!isLegalLossSet(units, step.owed, order.units))
      return combatErr('combat/illegal_losses', { owed: step.owed });
    return done(applyLosses(state, order.units));
  }
  if (order.type === 'combatRetreat') {
    if (step.kind !== 'retreat') return combatErr('combat/wrong_step', { expected: step.kind });
    const choice = retreatChoices(ctx, state, step).find((c) => c.unit.id === order.unit);
    if (!choice || !isLegalRetreat(choice.options, order.path)) {
      return combatErr('combat/illegal_retreat', { unit: order.unit, path: order.path });
    }
    return done(retreatUnit(ctx, state, choice.unit, choice.options, order.path));
  }
  if (order.type === 'combatCapture') {
    if (step.kind !== 'capture') return combatErr('combat/wrong_step', { expected: step.kind });
    return done(applyCapture(ctx, state, order.capture));
  }
  if (order.type === 'combatEliteChoice') {
    if (step.kind !== 'eliteChoice') return combatErr('combat/wrong_step', { expected: step.kind });
    return done(applyEliteChoice(state, order.refuse));
  }
  if (order.type === 'combatReroll') {
    if (step.kind !== 'reroll') return combatErr('combat/wrong_step', { expected: step.kind });
    const pending = combatStateOf(state).pending!;
    if (!order.abort && replan(ctx, state, pending, step.side).odds.kind === 'forbidden') {
      return combatErr('combat/odds_off_table', { target: pending.target });
    }
    return done(applyReroll(ctx, state, order.abort));
  }
  if (
    order.type === 'combatStop' &&
    step.kind === 'retreat' &&
    retreatChoices(ctx, state, step).length === 0
  ) {
    return done({ state: dropStep(state), events: [] });
  }
  if (step.kind !== 'advance') return combatErr('combat/wrong_step', { expected: step.kind });
  if (order.type === 'combatStop') {
    if ((step.min ?? 0) > step.moved.length && advanceChoices(ctx, state, step).length > 0)
      return combatErr('combat/wrong_step', { expected: 'advance' });
    return done({ state: dropStep(state), events: [] });
  }
  if (order.type !== 'combatAdvance') return combatErr('combat/resolution_pending');
  const choice = advanceChoices(ctx, state, step).find((c) => c.unit.id === order.unit);
  if (!choice?.to.includes(order.to))
    return combatErr('combat/illegal_advance', { unit: order.unit, to: order.to });
  const passed =
    step.pursuit && ctx.options.cfg.leaderKilledOnPassThrough
      ? pursuitPassage(ctx, state, choice.unit, order.to)
      : [order.to];
  return done(applyAdvance(state, choice.unit, order.to, passed));
}

/**
 * 7: apply a combat order of `player`. Attacks and `combatDone` belong to the phasing player; the
 * choices a result requires belong to whoever `combatWaitingFor` names.
 */
export function applyCombatOrder<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  player: PlayerId,
  order: CombatOrder,
): Result<CombatTransition<S>> {
  const phasing = combatPhasePlayer(state);
  if (!phasing) return combatErr('combat/not_combat_phase');
  const pending = combatStateOf(state).pending;
  if (order.type === 'combatAttack' || order.type === 'combatDone') {
    if (player !== phasing) return combatErr('combat/not_your_choice', { player: phasing });
    if (pending) return combatErr('combat/resolution_pending');
    if (order.type === 'combatAttack') return applyAttack(ctx, state, player, order);
    // 8.2: a landing's attack is compulsory.
    const owed = owedAttacks(ctx, state, player);
    if (owed.length > 0) return combatErr('combat/landing_owed', { target: owed[0] });
    // 6: stacking is checked at the end of combat; every combat move above (retreat, advance,
    // pursuit) was already stack-checked, so nothing can be overstacked here. Landings left without
    // anything to attack land unopposed (or go back to sea if they cannot, AMBIG-17).
    const closed = closeUnfoughtLandings(ctx, state, player);
    return ok({ state: closed.state, events: [...closed.events, { type: 'combatPhaseEnded', player }] });
  }
  return applyChoice(ctx, state, player, order);
}
