/**
 * The administration table (10.6, 11.6), loaded from `administration.json`: 2d6 against a spending
 * column in 10 % steps. The printed table is missing from the rulebook scan; the shipped file is the
 * reconstruction of the rules reference C.4.b and may be replaced without code changes.
 */
import { z } from 'zod';
import { ADMINISTRATION_EVENTS, type AdministrationResult } from '../model/realm.ts';
import administrationJson from './administration.json';
import { provenanceSchema } from './provenance.ts';
import { type ParsedTable, parseTable, shippedTable } from './table-file.ts';

const cellSchema = z.union([z.enum(ADMINISTRATION_EVENTS), z.number().int().min(1)]);

const administrationTableSchema = z
  .object({
    provenance: provenanceSchema,
    columns: z.array(z.number().int().min(0).multipleOf(10)).min(1),
    results: z.record(z.string(), z.array(cellSchema)),
  })
  .superRefine((table, ctx) => {
    table.columns.forEach((percent, i) => {
      if (percent !== i * 10) ctx.addIssue({ code: 'custom', message: 'columns must be 0%, 10%, 20%, …' });
    });
    for (let roll = 2; roll <= 12; roll++) {
      if (table.results[String(roll)]?.length !== table.columns.length) {
        ctx.addIssue({ code: 'custom', message: `row ${roll} must have one cell per column` });
      }
    }
  });
export type AdministrationTable = z.infer<typeof administrationTableSchema>;

/** 10.6, C.4: validates a raw administration table. */
export const parseAdministrationTable = (raw: unknown): ParsedTable<AdministrationTable> =>
  parseTable(administrationTableSchema, raw);

/** The shipped table (C.4.b). */
export const ADMINISTRATION_TABLE: AdministrationTable = shippedTable(
  administrationTableSchema,
  administrationJson,
  'administration.json',
);

/**
 * 10.6.1/10.6.2: the result of a 2d6 roll at a spending percentage. Percentages above the top
 * column use the top column; below 0 (penalties) use 0 %.
 */
export function administrationResult(
  table: AdministrationTable,
  percent: number,
  roll: number,
): AdministrationResult {
  const column = Math.max(0, Math.min(Math.floor(percent / 10), table.columns.length - 1));
  const cell = table.results[String(roll)]?.[column];
  if (cell === undefined) throw new Error(`no administration cell for ${percent}%, roll ${roll}`);
  return cell;
}
