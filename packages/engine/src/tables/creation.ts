/**
 * The barbarian unit creation table (9.1), loaded from `creation.json`: one 1d6 row per people.
 * The printed table is missing from the rulebook scan; the shipped file is the reconstruction of the
 * rules reference C.2.b and may be replaced without code changes.
 */
import { z } from 'zod';
import { isLegalStack } from '../model/stacking.ts';
import { type UnitKind, unitKindSchema } from '../model/units.ts';
import creationJson from './creation.json';
import { provenanceSchema } from './provenance.ts';
import { type ParsedTable, parseTable, shippedTable } from './table-file.ts';

/** Barbarian peoples with a creation row (start positions SLAV 1/2 and GERMAN 1/2 share a row). */
export const CREATION_PEOPLES = [
  'GERMAN',
  'SLAV',
  'HUN',
  'TURK',
  'VIKING',
  'PICT',
  'ARAB',
  'AFRICAN',
] as const;
export type CreationPeople = (typeof CREATION_PEOPLES)[number];

/** Unit kinds a barbarian may own, hence the only ones a creation result may give (C.2.a). */
const BARBARIAN_KINDS: readonly UnitKind[] = [
  'barbarianInfantry',
  'barbarianHorse',
  'horseBow',
  'bow',
  'infantry',
  'ship',
];

const resultSchema = z.array(unitKindSchema).min(1).max(2);

const creationTableSchema = z
  .object({
    provenance: provenanceSchema,
    rows: z.record(z.enum(CREATION_PEOPLES), z.array(resultSchema).length(6)),
  })
  .superRefine((table, ctx) => {
    for (const people of CREATION_PEOPLES) {
      const row = table.rows[people];
      if (!row) {
        ctx.addIssue({ code: 'custom', message: `missing row ${people}` });
        continue;
      }
      row.forEach((units, i) => {
        if (units.some((k) => !BARBARIAN_KINDS.includes(k))) {
          ctx.addIssue({ code: 'custom', message: `${people} ${i + 1}: not a barbarian unit kind` });
        }
        if (!isLegalStack(units.map((kind) => ({ kind })))) {
          ctx.addIssue({ code: 'custom', message: `${people} ${i + 1}: result does not stack (6)` });
        }
      });
    }
  });
export type CreationTable = z.infer<typeof creationTableSchema>;

/** 9.1, C.2: validates a raw creation table. */
export const parseCreationTable = (raw: unknown): ParsedTable<CreationTable> =>
  parseTable(creationTableSchema, raw);

/** The shipped table (C.2.b). */
export const CREATION_TABLE: CreationTable = shippedTable(creationTableSchema, creationJson, 'creation.json');

/** 9.1: the unit(s) an inverted pair of this people (e.g. 'GERMAN') becomes on a 1d6 roll. */
export function creationResult(table: CreationTable, people: string, die: number): readonly UnitKind[] {
  const result = isCreationPeople(people) ? table.rows[people][die - 1] : undefined;
  if (!result) throw new Error(`no creation result for ${people}, die ${die}`);
  return result;
}

/** The creation row of a map start position ("SLAV 2" → SLAV); PERSIAN starts as a kingdom. */
export function peopleOfStartPosition(position: string): CreationPeople | null {
  const people = position.split(' ')[0] ?? '';
  return isCreationPeople(people) ? people : null;
}

/** 9.1, C.2: whether a people has a creation row (every barbarian people; not PERSIAN, a kingdom). */
function isCreationPeople(people: string): people is CreationPeople {
  return (CREATION_PEOPLES as readonly string[]).includes(people);
}
