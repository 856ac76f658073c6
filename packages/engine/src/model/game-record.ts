/**
 * The game record: a world written down so that it can be kept, shared and played again. Two
 * kinds share one envelope (`format`, `version`, the rules and map it was played under, the
 * set-up's options and starting players):
 *
 * - `complete`: everything needed to replay the game exactly — the dice seed and every order of
 *   the play as it stands, each with its actor and time, and the hash of the final state
 *   (model/hash.ts). Written for a finished world and for a simulated one.
 * - `viewer`: what one viewer of a world still in play could see — no seed (it would foretell
 *   every die), the viewer's own orders and the server's (joins, departures) in full, and of every
 *   other order only its place, its time and the events the viewer was sent. It cannot be
 *   replayed and carries no hash (a hash of hidden parts lets guesses about them be checked).
 *
 * The decision on what a viewer's record withholds, and why, is written in docs/game-records.md.
 * Only model/ files are imported: the web parses a record file with this schema too.
 */
import { z } from 'zod';
import { COLOURS } from './colours.ts';
import { playerIdSchema } from './ids.ts';
import { optionsSchema } from './options.ts';
import { orderSchema } from './orders.ts';
import { type FileError, type FileResult, parseVersionedFile, refuseFile } from './versioned-file.ts';

export const RECORD_FORMAT = 'bke-record';
/** Raised when a field changes meaning; a reader refuses a version it does not know. */
export const RECORD_VERSION = 1;

/** C0 and C1 controls and DEL: never part of a name (they spoof or break what others read). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const line = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !CONTROL.test(s), { message: 'control characters are not allowed' });

const isoTime = z.iso.datetime({ offset: true });

/** A player present when the game was created (simulations seat them all at the start). */
export const recordPlayerSchema = z.strictObject({
  id: playerIdSchema,
  name: line(60),
  seat: z.number().int().min(0).max(5),
  colour: z.enum(COLOURS),
});

/** Who gave an order, as the world's order log knows it: a player id, or the server. */
export const recordActorSchema = z.union([z.literal('system'), playerIdSchema]);

/** How an order came: a person, the server, a missed deadline's default, or a bot's choice. */
export const RECORD_ORDER_KINDS = ['player', 'system', 'timeout', 'bot'] as const;

/** The world a record was taken from (absent for a simulated game). */
export const recordWorldSchema = z.strictObject({
  id: z.uuid(),
  name: line(80),
  /** closed: the world is over; otherwise it was still in play when the record was taken. */
  status: z.enum(['open', 'running', 'paused', 'closed']),
  /** When the record was taken. */
  takenAt: isoTime,
});

const envelope = {
  format: z.literal(RECORD_FORMAT),
  version: z.literal(RECORD_VERSION),
  rulesVersion: line(40),
  /** The map the game was played on (the engine refuses to replay on another). */
  mapVersion: line(80),
  world: recordWorldSchema.optional(),
};

/** An event as the engine gave it (a viewer's record: as `eventsFor` let that viewer see it). */
const seenEventSchema = z.looseObject({ type: z.string().min(1).max(60) });

/** One order of a complete record: replayed through the engine in `seq` order. */
export const recordOrderSchema = z.strictObject({
  /** Its place in the world's log (1, 2, …; gaps where a moderator's rollback undid orders). */
  seq: z.number().int().min(1),
  actor: recordActorSchema,
  kind: z.enum(RECORD_ORDER_KINDS),
  /** When the server committed it; null in a simulated game (the engine has no clock). */
  at: isoTime.nullable(),
  order: orderSchema,
  /**
   * The events the order caused, as the world's log keeps them (a finished world's record, so that
   * it can be read without the rules; a replay makes them again and does not read these).
   */
  events: z.array(seenEventSchema).optional(),
});

export const completeRecordSchema = z.strictObject({
  ...envelope,
  kind: z.literal('complete'),
  setup: z.strictObject({
    /** Seeds the dice (14.3 rolls for order, every combat roll after it). */
    seed: z.string().min(1).max(200),
    options: optionsSchema,
    players: z.array(recordPlayerSchema).max(6),
  }),
  orders: z.array(recordOrderSchema),
  final: z.strictObject({
    /** The game turn the final state is in. */
    turn: z.number().int().min(0),
    /** The hash of the final state (model/hash.ts), which a replay must reproduce. */
    hash: z.string().regex(/^[0-9a-f]{16}$/),
  }),
});

/** One order of a viewer's record: in full when the viewer may see it, else only what it was sent. */
export const viewerOrderSchema = z.strictObject({
  seq: z.number().int().min(1),
  at: isoTime,
  /** Present only for the viewer's own orders and the server's. */
  actor: recordActorSchema.optional(),
  kind: z.enum(RECORD_ORDER_KINDS).optional(),
  order: orderSchema.optional(),
  events: z.array(seenEventSchema),
});

export const viewerRecordSchema = z.strictObject({
  ...envelope,
  kind: z.literal('viewer'),
  /** The seats the viewer held (none: a spectator's record). */
  viewer: z.strictObject({ seats: z.array(playerIdSchema).max(50) }),
  setup: z.strictObject({
    options: optionsSchema,
    players: z.array(recordPlayerSchema).max(6),
  }),
  orders: z.array(viewerOrderSchema),
  final: z.strictObject({ turn: z.number().int().min(0) }),
});

export const gameRecordSchema = z.discriminatedUnion('kind', [completeRecordSchema, viewerRecordSchema]);

export type GameRecord = z.infer<typeof gameRecordSchema>;
export type CompleteRecord = z.infer<typeof completeRecordSchema>;
export type ViewerRecord = z.infer<typeof viewerRecordSchema>;
export type RecordOrder = z.infer<typeof recordOrderSchema>;
export type ViewerOrder = z.infer<typeof viewerOrderSchema>;

/** Why a record was refused, each with what a person needs to find the fault. */
export const RECORD_ERROR_CODES = [
  'record/invalid',
  'record/unknown_format',
  'record/unknown_version',
  'record/not_replayable',
  'record/rules_mismatch',
  'record/map_mismatch',
  'record/setup_refused',
  'record/order_refused',
  'record/hash_mismatch',
] as const;
export type RecordErrorCode = (typeof RECORD_ERROR_CODES)[number];

export type RecordError = FileError<RecordErrorCode>;
export type RecordResult<T> = FileResult<T, RecordErrorCode>;

/** A refusal of a record, with its reason in words. */
export const refuseRecord = <T>(code: RecordErrorCode, message: string, params?: Record<string, unknown>) =>
  refuseFile<T, RecordErrorCode>(code, message, params);

/** A record file's content checked against the format (model/versioned-file.ts). */
export function parseRecord(raw: unknown): RecordResult<GameRecord> {
  return parseVersionedFile(
    raw,
    {
      format: RECORD_FORMAT,
      version: RECORD_VERSION,
      schema: gameRecordSchema,
      called: 'a game record',
      root: 'record',
      reader: 'this engine',
      codes: {
        format: 'record/unknown_format',
        version: 'record/unknown_version',
        invalid: 'record/invalid',
      },
    },
    refuseRecord<GameRecord>,
  );
}
