/**
 * Voyages and landings planned with their risk, for the levels that plan. A voyage's sinking
 * chance is the number of sea areas it enters in six (5.3); the planning levels take none with a
 * third or more (STRONG_GUARD). A landing (8.2) must attack its target at once with the landing
 * force alone, so it is made only when that force is at least twice what holds the target (a 2-1
 * column before shifts; the engine's odds are only offered once the force is ashore).
 */
import type { Engine } from '../engine.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import type { Board } from './board-facts.ts';
import { guardedOrders, STRONG_GUARD } from './guard.ts';

/** The legal orders with risky voyages and hopeless landings taken out. */
export function seaworthy(
  engine: Engine,
  state: GameState,
  board: Board,
  legal: readonly LegalOrder[],
): LegalOrder[] {
  return guardedOrders(engine, state, board.me, legal, STRONG_GUARD).filter((o) => {
    if (o.type !== 'shipMove' || o.landing !== true) return true;
    const target = o.path.at(-1);
    if (!target) return false;
    const force = o.cargo.reduce(
      (s, id) => s + strengthOf(state.units[id]?.kind ?? 'tribe', state.options),
      0,
    );
    const held =
      (state.neutrals[target]?.strength ?? 0) +
      (board.others.get(target) ?? []).reduce((s, u) => s + strengthOf(u.kind, state.options), 0);
    return force >= 2 * Math.max(1, held);
  });
}
