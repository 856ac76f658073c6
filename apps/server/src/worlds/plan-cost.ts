/**
 * The price of an economic plan before the player confirms it: the engine's pure
 * `realmPlanCost` answers (record-sheet columns 2–9, 14.3.3); the server only forwards it in the
 * protocol's shape, so the client shows the numbers without computing any rule itself.
 */
import { type Engine, type GameState, type PlayerId, parseOrder, realmPlanCost } from '@bke/engine';
import type { PlanCost, WireError } from '@bke/protocol';

export type PlanCostAnswer = { ok: true; cost: PlanCost | null } | { ok: false; error: WireError };

/**
 * Prices `plan` for `player` in `state`: null when the player has no realm plan to make (not a
 * kingdom or empire); `problem` says why the engine would refuse the plan (an `order/invalid` reason).
 */
export function planCost(engine: Engine, state: GameState, player: string, plan: unknown): PlanCostAnswer {
  const parsed = parseOrder({ type: 'realmPlan', plan });
  if (!parsed.ok || parsed.order.type !== 'realmPlan')
    return { ok: false, error: { code: 'order/invalid', reason: 'plan' } };
  const c = realmPlanCost(engine, state, player as PlayerId, parsed.order.plan);
  if (!c) return { ok: true, cost: null };
  // The column the roll is read on, sent only when it differs from the one bought (AMBIG-26, 13.6).
  const { adminPercent, effectivePercent } = c;
  return {
    ok: true,
    cost: {
      tax: c.tax,
      other: c.other,
      available: c.available,
      upkeep: c.upkeep,
      purchases: c.purchases,
      administration: c.administration,
      adminPercent,
      ...(effectivePercent !== adminPercent ? { effectivePercent } : {}),
      treasury: c.treasuryLeft,
      problem: c.problem,
    },
  };
}
