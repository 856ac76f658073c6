/** 11.4 Elite units given a retreat: they accept it or refuse, and the attacker rerolls or aborts. */

import { pendingOf, type Step, withPending } from '../combat/pending.ts';
import { resultEffect } from '../combat/results.ts';
import type { CombatResult, CombatStep } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6 } from '../model/dice.ts';
import type { CombatEvent } from '../model/events.ts';
import type { GameStateCore } from '../model/state.ts';
import { CRT, crtResult } from '../tables/crt.ts';
import { openResult, pursuitSteps, replan } from './resolve.ts';

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
