/**
 * The strong bot's economic plan (4.5.2–4.5.3) for a kingdom or empire: upkeep first (the engine's
 * default plan disbands only what it must), then units while there are cities within reach to take
 * and the upkeep stays well inside the income, placed in the owned city nearest the prospects, then
 * the Administration Table with what is left (a high column keeps Corruption and an early empire
 * away, 10.6). Every candidate plan is costed and checked by the engine (`realmPlanCost`): a plan
 * with a `problem` is never given.
 */
import type { Engine } from '../engine.ts';
import type { PlayerId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { EconomicPlan, RealmOrder } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf, type UnitKind } from '../model/units.ts';
import { realmPlanCost } from '../realm/plan-cost.ts';
import { owedForAgreements } from './agreements.ts';
import { type Board, pull } from './board-facts.ts';

type PlanOrder = Extract<RealmLegalOrder, { type: 'realmPlan' }>;

export interface EconomyTaste {
  /** The administration column aimed at, by stage. */
  readonly adminPercent: { readonly kingdom: number; readonly empire: number };
  /** Buy while the upkeep is below this share of the tax income. */
  readonly upkeepShare: number;
  /** Most units bought in one phase. */
  readonly maxPurchases: number;
}

const STRONG_ECONOMY: EconomyTaste = {
  adminPercent: { kingdom: 40, empire: 60 },
  upkeepShare: 0.55,
  maxPurchases: 3,
};

export function economicPlan(
  engine: Engine,
  state: GameState,
  board: Board,
  legal: readonly RealmLegalOrder[],
  taste: EconomyTaste = STRONG_ECONOMY,
): RealmOrder | null {
  const me: PlayerId = board.me;
  const plans = legal.filter((o): o is PlanOrder => o.type === 'realmPlan');
  const base = plans[0]?.plan;
  if (!base) return null;
  const cost = (p: EconomicPlan) => realmPlanCost(engine, state, me, p);
  // 13.4: a lease price agreed is taken at the next turn start: the plan keeps it back.
  const owed = owedForAgreements(state, me);
  // One turn ahead (10.4, 10.5): what this plan leaves, with next turn's tax (a tenth kept back for
  // a city lost meanwhile), must pay next turn's upkeep, the units bought now included (a new
  // unit costs twice its upkeep, column 7), so no unit bought or column climbed now is disbanded
  // unpaid then.
  const fits = (p: EconomicPlan) => {
    const c = cost(p);
    if (c === null || c.problem !== null || c.treasuryLeft < owed) return false;
    return c.treasuryLeft - owed + 0.9 * c.tax >= c.upkeep + c.purchases / 2;
  };
  const start = cost(base);
  if (!start) return { type: 'realmPlan', plan: base };
  const stage = state.players.find((p) => p.id === me)?.cycle?.stage;
  const aim = stage === 'empire' ? taste.adminPercent.empire : taste.adminPercent.kingdom;
  const columns = [...new Set(plans.map((p) => p.plan.adminPercent))].sort((a, b) => a - b);
  // The column the engine offers closest to the aim from below (only affordable ones are offered).
  const adminFloor = Math.min(20, aim);
  let plan: EconomicPlan = { ...base, adminPercent: bestColumn(columns, adminFloor) };
  if (!fits(plan)) plan = base;

  // Units: the kinds the engine offers, strongest for its price first; ships and garrisons only
  // when nothing else is offered (they take no cities).
  const offered = new Map<UnitKind, number>();
  for (const p of plans)
    for (const buy of p.plan.purchases) {
      const price = cost({ ...base, purchases: [buy] })?.purchases ?? 0;
      if (price > 0) offered.set(buy.kind, price);
    }
  const kinds = [...offered]
    .filter(([k]) => k !== 'ship' && k !== 'garrison')
    .sort(([a, pa], [b, pb]) => strengthOf(b, state.options) / pb - strengthOf(a, state.options) / pa)
    .map(([k]) => k);
  const prospects = board.targets.some((t) =>
    board.owned.some((c) => board.distances.between(c, t.area) <= 6),
  );
  const places = [...board.owned].sort((a, b) => pull(board, b) - pull(board, a));
  const wantUnits = prospects && start.upkeep < taste.upkeepShare * Math.max(1, start.tax);
  for (let n = 0; wantUnits && n < taste.maxPurchases; n++) {
    let bought = false;
    for (const kind of kinds) {
      for (const area of places) {
        const next = { ...plan, purchases: [...plan.purchases, { kind, area }] };
        if (fits(next)) {
          plan = next;
          bought = true;
          break;
        }
      }
      if (bought) break;
    }
    if (!bought) break;
    const c = cost(plan);
    if (c && c.purchases >= taste.upkeepShare * Math.max(1, c.tax)) break;
  }
  // The administration column with what is left, up to the aim.
  for (const col of columns.filter((c) => c > plan.adminPercent && c <= aim).reverse()) {
    const next = { ...plan, adminPercent: col };
    if (fits(next)) {
      plan = next;
      break;
    }
  }
  return { type: 'realmPlan', plan };
}

const bestColumn = (columns: readonly number[], aim: number): number =>
  columns.filter((c) => c <= aim).at(-1) ?? 0;
