/**
 * A position shared as a link (the analysis board, docs/analysis-board.md): the open part of a
 * game at one moment — what a spectator may see of it (2.4: all bookkeeping is open) — written as
 * JSON, compressed into the address. It holds no dice's future, no undo window and nobody's sealed
 * choices (13.3 bids, 4.5 plans, 13.4 offers between two others): whoever opens the link rebuilds a
 * playable game from it with neutral defaults (analysis/position-from-view.ts).
 *
 * A link is text anyone can type, so it is checked field by field like any other boundary; a
 * link that does not fit is refused with a typed code the page puts in words. The web client reads it
 * in the analysis board's own chunk, with the rules (it is not part of `@bke/engine/schemas`, which
 * every page loads).
 */
import { z } from 'zod';
import { COLOURS } from './colours.ts';
import { areaIdSchema, playerIdSchema, unitIdSchema } from './ids.ts';
import { optionsSchema } from './options.ts';
import { PEOPLES, STAGES, startPositionSchema } from './people.ts';
import { ADMIN_TASKS, PLAYER_PHASES, STATE_SCHEMA } from './state.ts';
import { UNIT_KINDS } from './units.ts';
import { type FileError, type FileResult, parseVersionedFile, refuseFile } from './versioned-file.ts';

export const POSITION_FORMAT = 'bke-position';
/** Raised when a field changes meaning; a reader refuses a version it does not know. */
export const POSITION_VERSION = 1;

/** C0 and C1 controls and DEL: never part of a name (they spoof or break what others read). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const line = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !CONTROL.test(s), { message: 'control characters are not allowed' });
const count = z.number().int().min(0).max(1_000_000);
const ids = <T extends z.ZodType>(id: T) => z.array(id).max(2000);

const cycleSchema = z.strictObject({
  number: z.number().int().min(1).max(10_000),
  position: startPositionSchema,
  people: z.enum(PEOPLES),
  stage: z.enum(STAGES),
  startedTurn: count,
  // AMBIG-44: the entry order's key packs up to four 2d6 rolls, 4 bits each (turn/machine.ts).
  orderRoll: z
    .number()
    .int()
    .min(0)
    .max(16 ** 4),
  countdownStartTurn: count.nullable(),
  stageTurn: count,
  vp: count,
});

const playerSchema = z.strictObject({
  id: playerIdSchema,
  name: line(60),
  seat: z.number().int().min(0).max(50),
  colour: z.enum(COLOURS),
  joinedTurn: count,
  status: z.enum(['waiting', 'active', 'left']),
  cycle: cycleSchema.nullable(),
  finished: z.strictObject({ count, bestVp: count, totalVp: count }),
  money: count,
  turnsPlayed: count,
  capital: areaIdSchema.nullable(),
  abandoning: z.boolean(),
});

const unitSchema = z.strictObject({
  id: unitIdSchema,
  owner: playerIdSchema,
  kind: z.enum(UNIT_KINDS),
  area: areaIdSchema,
  inverted: z.boolean().optional(),
});

/**
 * Where the turn stands. The parts each rule module keeps of its own bookkeeping inside a step, a
 * combat or the realm are checked for their kind here and by the rules when played (a position the
 * rules cannot play is refused as `position/unplayable`).
 */
const stepSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('idle') }),
  z.strictObject({
    kind: z.literal('entry'),
    queue: ids(playerIdSchema),
    rolls: z.record(z.string().max(80), z.number().int()),
    army: z.strictObject({ player: playerIdSchema, area: areaIdSchema }).optional(),
  }),
  z.strictObject({
    kind: z.literal('playerTurn'),
    player: playerIdSchema,
    phase: z.enum(PLAYER_PHASES),
    moved: ids(unitIdSchema),
    split: ids(unitIdSchema),
  }),
  z.strictObject({
    kind: z.literal('economic'),
    pending: ids(playerIdSchema),
    pillage: z.record(z.string().max(80), ids(areaIdSchema)),
  }),
  z.strictObject({
    kind: z.literal('administration'),
    queue: ids(playerIdSchema),
    player: playerIdSchema.nullable(),
    choice: z.looseObject({ type: z.enum(['continuity', 'unrestLoss', 'foundKingdom', 'realm']) }).nullable(),
    todo: z.array(z.enum(ADMIN_TASKS)).max(20),
  }),
]);

const realmSchema = z.looseObject({
  players: z.record(z.string().max(80), z.looseObject({})),
  active: playerIdSchema.nullable(),
  pending: z.looseObject({ kind: z.string().max(40), chooser: playerIdSchema }).nullable(),
  tasks: z.array(z.looseObject({ kind: z.string().max(40) })).max(50),
  prisoners: z.array(z.looseObject({})).max(500).optional(),
  leases: z.array(z.looseObject({})).max(500).optional(),
});

/** The open part of a game state (a spectator's view without what the engine derives again). */
export const sharedPositionSchema = z.strictObject({
  schema: z.literal(STATE_SCHEMA),
  rulesVersion: line(40),
  mapVersion: line(80),
  options: optionsSchema,
  turn: count,
  step: stepSchema,
  players: z.array(playerSchema).max(50),
  order: ids(playerIdSchema),
  units: z.record(z.string().max(40), unitSchema),
  nextUnit: count,
  neutrals: z.record(z.string().max(80), z.strictObject({ strength: z.number().int().min(0).max(100) })),
  cities: z.record(
    z.string().max(80),
    z.strictObject({
      owner: playerIdSchema.nullable(),
      everOwned: z.boolean(),
      garrisonRemoved: z.literal(true).optional(),
    }),
  ),
  markers: z
    .array(
      z.strictObject({
        area: areaIdSchema,
        digit: z.number().int().min(0).max(100),
        pillager: playerIdSchema,
        turn: count,
        pirates: z.boolean().optional(),
      }),
    )
    .max(500),
  flags: z.strictObject({ growthBanned: ids(playerIdSchema), attacked: ids(playerIdSchema) }),
  combat: z
    .looseObject({
      attackers: ids(unitIdSchema),
      defenders: ids(unitIdSchema),
      neutralAreas: ids(areaIdSchema),
      pending: z.looseObject({}).nullable(),
    })
    .nullable(),
  realm: realmSchema.optional(),
  version: count,
});

export const positionLinkSchema = z.strictObject({
  format: z.literal(POSITION_FORMAT),
  version: z.literal(POSITION_VERSION),
  position: sharedPositionSchema,
});

export type SharedPosition = z.infer<typeof sharedPositionSchema>;
export type PositionLink = z.infer<typeof positionLinkSchema>;

/** Why a shared position was refused, each with what a person needs to find the fault. */
export const POSITION_ERROR_CODES = [
  'position/unreadable',
  'position/unknown_format',
  'position/unknown_version',
  'position/invalid',
  'position/map_mismatch',
  'position/unplayable',
] as const;
export type PositionErrorCode = (typeof POSITION_ERROR_CODES)[number];

export type PositionError = FileError<PositionErrorCode>;
export type PositionResult<T> = FileResult<T, PositionErrorCode>;

/** A refusal of a shared position, with its reason in words. */
export const refusePosition = <T>(
  code: PositionErrorCode,
  message: string,
  params?: Record<string, unknown>,
) => refuseFile<T, PositionErrorCode>(code, message, params);

/** A position file's content checked against the format (model/versioned-file.ts). */
export function parsePositionLink(raw: unknown): PositionResult<PositionLink> {
  return parseVersionedFile(
    raw,
    {
      format: POSITION_FORMAT,
      version: POSITION_VERSION,
      schema: positionLinkSchema,
      called: 'a shared position',
      root: 'position',
      reader: 'this page',
      codes: {
        format: 'position/unknown_format',
        version: 'position/unknown_version',
        invalid: 'position/invalid',
      },
    },
    refusePosition<PositionLink>,
  );
}
