/**
 * A reconstructed table read from its JSON file (7.1 C.1, 9.1 C.2, 10.6 C.4): checked against its
 * schema, so that a replacement file is refused with zod's reasons, and the shipped one is known
 * good when the engine loads (a broken shipped file is a bug of the package, hence a throw).
 */
import type { z } from 'zod';

export type ParsedTable<T> = { ok: true; table: T } | { ok: false; error: string };

/** Validates a raw table against its schema. */
export function parseTable<T>(schema: z.ZodType<T>, raw: unknown): ParsedTable<T> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, table: parsed.data } : { ok: false, error: parsed.error.message };
}

/** The table shipped in `file`; it must pass its schema. */
export function shippedTable<T>(schema: z.ZodType<T>, raw: unknown, file: string): T {
  const parsed = parseTable(schema, raw);
  if (!parsed.ok) throw new Error(`${file} is invalid: ${parsed.error}`);
  return parsed.table;
}
