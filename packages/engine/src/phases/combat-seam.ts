/**
 * The seam to the combat engineer's combat phase (COORDINATION.md). Until src/combat/phase.ts
 * ships, the combat phase has no orders of its own and the phasing player simply ends it.
 */
import type { EngineContext } from '../engine-context.ts';
import type { PlayerId } from '../ids.ts';
import { err, type Result } from '../result.ts';
import type { Game, Transition } from '../state-ops.ts';

export type CombatOrder = { type: `combat${string}` } & Record<string, unknown>;
export type CombatLegalOrder = { type: `combat${string}` } & Record<string, unknown>;

export const COMBAT_ORDER_SCHEMAS = [] as const;

export const initialCombatState = (): unknown => null;

export function combatLegalOrders(_ctx: EngineContext, _g: Game, _player: PlayerId): CombatLegalOrder[] {
  return [];
}

export function applyCombatOrder(
  _ctx: EngineContext,
  _g: Game,
  _player: PlayerId,
  order: CombatOrder,
): Result<Transition> {
  return err('order/wrong_phase', { type: order.type });
}

export function combatWaitingFor(g: Game): PlayerId[] {
  return g.step.kind === 'playerTurn' ? [g.step.player] : [];
}

/** True when the combat phase is finished once the phasing player says so (nothing pending). */
export const COMBAT_DONE_ORDER: CombatOrder | null = null;
