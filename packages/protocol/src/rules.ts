/** The rules' tables as the engine holds them, for the in-app guide (the client keeps no copy). */
import { z } from 'zod';

const resultSchema = z.enum(['AE', 'AR3', 'AR2', 'AR1', 'EX', 'DR1', 'DR2', 'DR3', 'DE']);

/** 7.1, C.1: the combat results table, its rows by 2d6 sum, and the chance of each result per column. */
export const combatTableSchema = z.object({
  /** Where the table comes from (the printed one is lost; see its provenance). */
  source: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.object({ roll: z.number().int(), results: z.array(resultSchema) })),
  chances: z.record(z.string(), z.array(z.object({ result: resultSchema, chance: z.number() }))),
});
export type CombatTable = z.infer<typeof combatTableSchema>;
