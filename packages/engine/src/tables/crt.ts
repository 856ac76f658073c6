/**
 * The combat results table (7.1, 7.2), loaded from `crt.json`. The printed table is missing from
 * the rulebook scan; the shipped file is the reconstruction of the rules reference C.1.b. A real
 * table can replace the JSON file without any code change, as long as it passes `parseCrt`.
 */
import { z } from 'zod';
import { COMBAT_RESULTS, type CombatResult } from '../model/combat.ts';
import crtJson from './crt.json';
import { provenanceSchema } from './provenance.ts';
import { type ParsedTable, parseTable, shippedTable } from './table-file.ts';

export const CRT_ROLLS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

const columnSchema = z.object({
  id: z.string().regex(/^\d+-\d+$/),
  attack: z.number().int().positive(),
  defence: z.number().int().positive(),
});

const crtSchema = z
  .object({
    provenance: provenanceSchema,
    columns: z.array(columnSchema).min(1),
    results: z.record(z.string(), z.array(z.enum(COMBAT_RESULTS))),
  })
  .superRefine((crt, ctx) => {
    for (let i = 1; i < crt.columns.length; i++) {
      const a = crt.columns[i - 1]!;
      const b = crt.columns[i]!;
      // Columns must rise strictly: a:d < a':d'  ⇔  a·d' < a'·d.
      if (a.attack * b.defence >= b.attack * a.defence) {
        ctx.addIssue({ code: 'custom', message: `column ${b.id} does not rise above ${a.id}` });
      }
    }
    for (const roll of CRT_ROLLS) {
      const row = crt.results[String(roll)];
      if (row?.length !== crt.columns.length) {
        ctx.addIssue({ code: 'custom', message: `row ${roll} must have one result per column` });
      }
    }
  });
export type Crt = z.infer<typeof crtSchema>;

/** 7.1, C.1: validates a raw combat results table (for instance a real one found on a map scan). */
export const parseCrt = (raw: unknown): ParsedTable<Crt> => parseTable(crtSchema, raw);

/** The shipped table (C.1.b). */
export const CRT: Crt = shippedTable(crtSchema, crtJson, 'crt.json');

/** 7.1: the result of a 2d6 roll on a column (by index into `crt.columns`). */
export function crtResult(crt: Crt, column: number, roll: number): CombatResult {
  const result = crt.results[String(roll)]?.[column];
  if (result === undefined) throw new Error(`no CRT cell for column ${column}, roll ${roll}`);
  return result;
}

/** The index of a column by its name, e.g. `'3-2'`. */
export function crtColumnIndex(crt: Crt, id: string): number {
  const index = crt.columns.findIndex((c) => c.id === id);
  if (index < 0) throw new Error(`no CRT column ${id}`);
  return index;
}

/** Ways to roll each sum on two dice, out of 36. */
const WAYS: Readonly<Record<number, number>> = {
  2: 1,
  3: 2,
  4: 3,
  5: 4,
  6: 5,
  7: 6,
  8: 5,
  9: 4,
  10: 3,
  11: 2,
  12: 1,
};

/**
 * 7.1: the chance of each result on a column, from the table itself (2d6: a sum of 7 comes 6 times
 * in 36). Results in the table's order (AE first), only those the column holds; `'autoAE'`
 * (AMBIG-3, odds below the table) is a certain AE.
 */
export function crtChances(crt: Crt, column: string): { result: CombatResult; chance: number }[] {
  if (column === 'autoAE') return [{ result: 'AE', chance: 1 }];
  const index = crtColumnIndex(crt, column);
  const ways = new Map<CombatResult, number>();
  for (const roll of CRT_ROLLS) {
    const r = crtResult(crt, index, roll);
    ways.set(r, (ways.get(r) ?? 0) + (WAYS[roll] ?? 0));
  }
  return COMBAT_RESULTS.filter((r) => ways.has(r)).map((result) => ({
    result,
    chance: (ways.get(result) ?? 0) / 36,
  }));
}
