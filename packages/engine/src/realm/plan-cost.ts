/**
 * What an economic plan costs, before it is confirmed (4.5.2–4.5.3, 10.4–10.7, 11.2): a pure
 * preview for the server and the web client, so the plan form can show upkeep, purchases,
 * administration spending and the treasury left (record-sheet columns 5–9, 14.3.3).
 */

import { administratorAtCapital } from '../diplomacy/leader-types.ts';
import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import type { MapIndex } from '../model/map-index.ts';
import type { EconomicPlan } from '../model/orders.ts';
import { playerById } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import type { Game } from '../model/state-ops.ts';
import { adminColumnCost, effectivePercent } from './administration-columns.ts';
import { defaultPlan, economyPreview, planProblem } from './economy.ts';
import { purchaseCost } from './purchase.ts';

export interface RealmPlanCost {
  /** Column 2: unmodified income (tax) this economic phase. */
  readonly tax: number;
  /** Column 3: Good Ruler / Corruption, plunder, tribute, lease money, ransom. */
  readonly other: number;
  /** Column 5: money available (tax + other + the treasury carried in). */
  readonly available: number;
  /** Column 6: upkeep for the units kept. */
  readonly upkeep: number;
  /** Column 7: new units at twice upkeep. */
  readonly purchases: number;
  /** Column 8: the Administration Table column bought. */
  readonly administration: number;
  /** Column 9: the treasury left (negative means the plan is not affordable). */
  readonly treasuryLeft: number;
  /** Column 10: the % column the money buys (10.6.1). */
  readonly adminPercent: number;
  /**
   * The column the administration roll will be read on: the one bought, shifted by the Viking/Hun
   * penalty (AMBIG-26) and an administrator standing at the capital (13.6), as things stand now.
   */
  readonly effectivePercent: number;
  /** Units removed unpaid for lack of imperial support (11.5). */
  readonly unsupported: readonly string[];
  /** Why the engine would refuse this plan (`order/invalid` reason), or null when it is legal. */
  readonly problem: string | null;
}

/**
 * 14.3.3 columns 2–9 for a plan (omit it for the default plan) of a kingdom or empire in the
 * current economic phase; null when the player is not a kingdom or empire. Pure; pass the engine
 * (or anything with its `map`).
 */
export function realmPlanCost(
  engine: { readonly map: MapIndex },
  state: GameStateCore,
  player: PlayerId,
  plan?: EconomicPlan,
): RealmPlanCost | null {
  const ctx: EngineContext = { map: engine.map, options: state.options };
  const g = state as Game;
  const pv = economyPreview(ctx, g, player);
  if (!pv) return null;
  const p = plan ?? defaultPlan(pv);
  const drop = new Set([...p.disband, ...p.garrisonDisband]);
  const upkeep = pv.upkeepUnits.filter((u) => !drop.has(u.id)).reduce((s, u) => s + u.upkeep, 0);
  const purchases = purchaseCost(pv.stage, p.purchases);
  const administration = adminColumnCost(ctx.options, pv.tax, p.adminPercent) ?? 0;
  const owner = playerById(g, player);
  const people = owner?.cycle?.people;
  const readAs = people
    ? effectivePercent(
        ctx.options,
        people,
        p.adminPercent,
        administratorAtCapital(g, player, owner?.capital ?? null),
      )
    : p.adminPercent;
  return {
    tax: pv.tax,
    other: pv.other,
    available: pv.available,
    upkeep,
    purchases,
    administration,
    treasuryLeft: pv.available - upkeep - purchases - administration,
    adminPercent: p.adminPercent,
    effectivePercent: readAs,
    unsupported: [...pv.unsupported],
    problem: planProblem(ctx, g, pv, p),
  };
}
