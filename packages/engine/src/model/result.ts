/**
 * Results instead of exceptions (STYLE habit 3): an illegal order or setup is a value with a
 * namespaced code and parameters; `throw` is reserved for bugs.
 */
import type { ErrorCode } from './errors.ts';

export interface EngineError {
  readonly code: ErrorCode;
  readonly [param: string]: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: EngineError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = <T = never>(code: ErrorCode, params: Record<string, unknown> = {}): Result<T> => ({
  ok: false,
  error: { ...params, code },
});
