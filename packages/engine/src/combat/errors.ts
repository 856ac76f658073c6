import type { ErrorCode } from '../model/errors.ts';
import { err, type Result } from '../model/result.ts';

/** Error codes of the combat phase (STYLE habit 3); the core appends them to ERROR_CODES. */
export const COMBAT_ERROR_CODES = [
  'combat/not_combat_phase',
  'combat/not_your_choice',
  'combat/resolution_pending',
  'combat/nothing_pending',
  'combat/no_attackers',
  'combat/duplicate_unit',
  'combat/not_your_unit',
  'combat/cannot_attack',
  'combat/coup_restricted',
  'combat/already_attacked',
  'combat/not_adjacent',
  'combat/no_defenders',
  'combat/tribes_attack_tribes_only',
  'combat/tribes_alone',
  'combat/odds_off_table',
  'combat/illegal_retreat',
  'combat/illegal_losses',
  'combat/illegal_advance',
  'combat/wrong_step',
  'combat/landing_owed',
] as const;
export type CombatErrorCode = (typeof COMBAT_ERROR_CODES)[number];

/**
 * A combat error result. The cast is only needed until the core spreads COMBAT_ERROR_CODES into
 * ERROR_CODES (COORDINATION.md); the code is always one of the list above.
 */
export function combatErr<T = never>(code: CombatErrorCode, params: Record<string, unknown> = {}): Result<T> {
  return err<T>(code as ErrorCode, params);
}
