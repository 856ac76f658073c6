/**
 * The seam to the combat phase (src/combat/phase.ts, the combat engineer's; COORDINATION.md):
 * the core routes every `combat*` order there and asks it who must act during combat.
 */
export {
  applyCombatOrder,
  COMBAT_ORDER_SCHEMAS,
  type CombatLegalOrder,
  type CombatOrder,
  combatLegalOrders,
  combatWaitingFor,
  initialCombatState,
} from '../combat/phase.ts';
