/** The combat phase's refusals (7, 8.2): a `combat/` code from the closed list. */
import type { CombatErrorCode } from '../model/errors.ts';
import { err, type Result } from '../model/result.ts';

/** 7: a refusal of the combat phase, only with a `combat/` code. */
export function combatErr<T = never>(code: CombatErrorCode, params: Record<string, unknown> = {}): Result<T> {
  return err<T>(code, params);
}
