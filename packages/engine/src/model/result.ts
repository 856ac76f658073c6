/**
 * Results instead of exceptions: an illegal order or setup is a value with a
 * namespaced code and parameters; `throw` is reserved for bugs.
 */
import type { ErrorCode } from './errors.ts';

export interface EngineError {
  readonly code: ErrorCode;
  readonly [param: string]: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: EngineError };

/** A success. */
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** A refusal: an error code from the closed list, with its parameters. */
export const err = <T = never>(code: ErrorCode, params: Record<string, unknown> = {}): Result<T> => ({
  ok: false,
  error: { ...params, code },
});
