/**
 * What an attack can cost the attacker's whole position, told before it is declared. A barbarian
 * whose units are all gone at its administration phase has finished its cycle (14.3, 4.6; engine
 * decision `cfg.emptyBarbarianEndsCycle`), so an attack made with every unit the horde has left can
 * end the horde. For each result on the column (7.1, 2d6 over the combat results table) this asks
 * whether the attackers all die:
 * - AE removes every attacker (7.2);
 * - EX removes them when their unmodified total is the smaller (7.2) or equal (AMBIG-4 `exTie`
 *   `bothEliminated`), or when every loss set the attacker may give up holds all of them (7.2: at
 *   least an equal amount of unmodified strength);
 * - AR1–AR3 remove a unit whose movement allowance is below the distance or that has no legal
 *   path (7.2, 7.3), each attacker asked alone on the board as it stands.
 * Only the attacker's own units and the public board are read; the defender's choices are not.
 */
import { losingEndsHorde } from '../barbarian/horde-end.ts';
import type { AttackPlan } from '../combat/attack-plan.ts';
import { retreatBoard, retreatingUnit } from '../combat/board.ts';
import { exchangeLossSets, exchangeOutcome } from '../combat/exchange.ts';
import { retreatOptions } from '../combat/retreat.ts';
import type { CombatResult } from '../model/combat.ts';
import type { Consequence } from '../model/consequences.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameStateCore } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';

const RETREAT_DISTANCE: Partial<Record<CombatResult, number>> = { AR1: 1, AR2: 2, AR3: 3 };

/** 7.2: whether a result leaves none of the attackers on the board. */
function removesEveryAttacker(
  ctx: EngineContext,
  state: GameStateCore,
  plan: AttackPlan,
  result: CombatResult,
) {
  if (result === 'AE') return true;
  if (result === 'EX') {
    const attackTotal = plan.attackers.reduce((s, a) => s + strengthOf(a.unit.kind, ctx.options), 0);
    const defenceTotal = plan.neutral
      ? plan.neutral.strength
      : plan.units.reduce((s, u) => s + strengthOf(u.kind, ctx.options), 0);
    const outcome = exchangeOutcome(attackTotal, defenceTotal, ctx.options.cfg.exTie);
    if (outcome.eliminated !== 'defender') return true;
    const candidates = plan.attackers.map((a) => ({
      id: a.unit.id,
      strength: strengthOf(a.unit.kind, ctx.options),
    }));
    return exchangeLossSets(candidates, outcome.owed).every((set) => set.length === candidates.length);
  }
  const distance = RETREAT_DISTANCE[result];
  if (distance === undefined) return false;
  return plan.attackers.every(({ unit }) => {
    // 8.3: a ship may also retreat across a sea; only land retreats are foreseen here.
    if (unit.kind === 'ship') return false;
    const options = retreatOptions(retreatBoard(ctx, state, unit.id, unit.owner), {
      unit: retreatingUnit(ctx, unit),
      from: unit.area,
      distance,
      fought: [plan.target],
      forbidden: new Set(),
    });
    return options.kind === 'eliminated';
  });
}

/**
 * 14.3, 7.2: the chance that this attack ends the attacker's horde (every unit it has is in the
 * attack and the result removes them all), with the results that would; nothing when it cannot.
 */
export function hordeEndRisk(
  ctx: EngineContext,
  state: GameStateCore,
  plan: AttackPlan,
  outcomes: readonly { result: CombatResult; chance: number }[],
): Consequence | null {
  const attacking = new Set(plan.attackers.map((a) => a.unit.id));
  if (!losingEndsHorde(ctx, state, plan.attacker, attacking)) return null;
  const by = outcomes.filter((o) => removesEveryAttacker(ctx, state, plan, o.result));
  if (by.length === 0) return null;
  // Chances are counts out of 36 (2d6); the sum is kept on that grid.
  const chance = Math.round(by.reduce((s, o) => s + o.chance, 0) * 36) / 36;
  return { kind: 'hordeMayEnd', section: '14.3', chance, by: by.map((o) => ({ ...o })) };
}
