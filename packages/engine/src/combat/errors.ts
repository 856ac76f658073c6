import type { CombatErrorCode } from '../model/errors.ts';
import { err, type Result } from '../model/result.ts';

/** 7: A refusal of the combat phase: only a `combat/` code. */
export function combatErr<T = never>(code: CombatErrorCode, params: Record<string, unknown> = {}): Result<T> {
  return err<T>(code, params);
}
