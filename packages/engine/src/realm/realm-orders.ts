/** The orders of kingdoms and empires, and of the optional diplomacy, applied (4.5, 4.6, 13). */

import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import type { RealmOrder } from '../model/orders.ts';
import { ok, type Result } from '../model/result.ts';
import type { Game, RealmStep } from '../model/state-ops.ts';
import { applyRealmChoice } from './choices.ts';
import { applyDiplomacyOrder } from './diplomacy-orders.ts';
import { applyEconomicPlan } from './economic-orders.ts';
import { echoLedgerRows } from './record.ts';

/**
 * 4.5, 4.6, 13: A realm order applied: one of the optional diplomacy or a standing choice, an economic plan, or
 * the answer to the pending administration choice; the record-sheet rows it rewrote are echoed.
 */
export function applyRealmOrder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> {
  const r =
    applyDiplomacyOrder(ctx, g, player, order) ??
    applyEconomicPlan(ctx, g, player, order) ??
    applyRealmChoice(ctx, g, player, order);
  return r.ok ? ok(echoLedgerRows(g, r.value)) : r;
}
