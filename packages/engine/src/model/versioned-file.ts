/**
 * Reading a file the engine writes for people to keep or pass on (a game record, a shared
 * position): its envelope first — what kind of file, which version — so that a file of another
 * kind or of a newer version is named as such, then its schema, whose first few issues are given
 * in words.
 */
import type { z } from 'zod';

export interface FileKind<S extends z.ZodType, C extends string> {
  readonly format: string;
  readonly version: number;
  readonly schema: S;
  /** What a file of this kind is called in a refusal ("a game record"). */
  readonly called: string;
  /** The word for the whole file in a schema issue's path ("record"). */
  readonly root: string;
  /** Who reads it, for a version refusal ("this engine"). */
  readonly reader: string;
  readonly codes: { readonly format: C; readonly version: C; readonly invalid: C };
}

/** Why a file was refused: its code, the reason in words, and what locates the fault. */
export interface FileError<C extends string> {
  readonly code: C;
  readonly message: string;
  readonly [param: string]: unknown;
}

export type FileResult<T, C extends string> = { ok: true; value: T } | { ok: false; error: FileError<C> };

/** A refusal of a file, with its reason in words. */
export const refuseFile = <T, C extends string>(
  code: C,
  message: string,
  params: Record<string, unknown> = {},
): FileResult<T, C> => ({ ok: false, error: { ...params, code, message } });

/** The file's content when it is one of `kind`, else `refuse`'s answer naming why not. */
export function parseVersionedFile<S extends z.ZodType, C extends string, R>(
  raw: unknown,
  kind: FileKind<S, C>,
  refuse: (code: C, message: string, params?: Record<string, unknown>) => R,
): { ok: true; value: z.output<S> } | R {
  const head = raw as { format?: unknown; version?: unknown } | null;
  if (head === null || typeof head !== 'object' || head.format !== kind.format)
    return refuse(kind.codes.format, `not ${kind.called} (its "format" is not "${kind.format}")`);
  if (head.version !== kind.version)
    return refuse(
      kind.codes.version,
      `${kind.root} version ${String(head.version)} is not known here (${kind.reader} reads version ${kind.version})`,
      { version: head.version },
    );
  const parsed = kind.schema.safeParse(raw);
  if (!parsed.success)
    return refuse(
      kind.codes.invalid,
      `the ${kind.root} does not fit its schema: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || `(${kind.root})`}: ${i.message}`)
        .join('; ')}`,
    );
  return { ok: true, value: parsed.data };
}
