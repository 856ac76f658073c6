/** The lobby: list, create, join, leave worlds. */
import { colourSchema, optionsSchema } from '@bke/engine/schemas';
import {
  ADMINISTRATION_EVENTS,
  BOT_LEVELS,
  type LedgerRow,
  PLAYER_PHASES,
  STEP_KINDS,
} from '@bke/engine/types';
import { z } from 'zod';
import { accessSettingsSchema, WORLD_ACCESS } from './access.ts';
import { worldEventSchema } from './engine-shapes.ts';
import { finishedResultSchema, RATING_POOLS, ratingHistorySchema, shownRatingSchema } from './ratings.ts';
import { lineText } from './text.ts';
import { worldEndingSchema } from './world-ending.ts';

/** The players' colours are the engine's (a seat's colour is its `join` order's). */
export { COLOURS, type Colour } from '@bke/engine/schemas';

export const WORLD_STATUSES = ['open', 'running', 'paused', 'closed'] as const;

/**
 * The engine's bot levels, gentlest first, with their names and sentences (src/bot/level-names.ts);
 * their measured ratings are @bke/engine/ratings (a JSON module, which the protocol's plain-Node
 * users such as the browser tests' runner cannot load without an import attribute).
 */
export { BOT_LEVEL_TEXT, BOT_LEVELS, GENTLEST_BOT_LEVEL } from '@bke/engine/types';
export const botLevelSchema = z.enum(BOT_LEVELS);
export type BotLevel = z.infer<typeof botLevelSchema>;

/** live: minutes per phase (fractions allowed, ≥ 3 s); correspondence: hours per phase. */
export const deadlineSettingsSchema = z.discriminatedUnion('mode', [
  z
    .object({
      mode: z.literal('live'),
      minutesPerPhase: z
        .number()
        .min(0.05)
        .max(24 * 60),
    })
    .strict(),
  z
    .object({
      mode: z.literal('correspondence'),
      hoursPerPhase: z
        .number()
        .min(1)
        .max(24 * 14),
    })
    .strict(),
]);
export type DeadlineSettings = z.infer<typeof deadlineSettingsSchema>;

/**
 * The engine's options object (optional rules `opt`, Part E switches `cfg`, `victory` basic or
 * advanced). The server validates it with the engine's own schema; here only its outline.
 */
const worldOptionsSchema = z
  .object({
    opt: z.record(lineText().max(64), z.boolean()).optional(),
    cfg: z.record(lineText().max(64), z.union([z.boolean(), z.number(), lineText().max(200)])).optional(),
    victory: z.enum(['basic', 'advanced']).optional(),
  })
  .strict();

export const createWorldSchema = z
  .object({
    name: lineText().trim().min(1).max(80),
    options: worldOptionsSchema.default({}),
    deadline: deadlineSettingsSchema.default({ mode: 'live', minutesPerPhase: 10 }),
    earlyResolution: z.boolean().default(true),
    maxPlayers: z.number().int().min(1).max(6).default(6),
    /**
     * The dice's seed, for a world that must be reproducible (tournament replays, e2e tests).
     * Admins only (`auth/forbidden` otherwise); the server draws a random one when omitted.
     */
    seed: lineText().trim().min(1).max(200).optional(),
    /** The creator takes the first seat at once (before any bot). */
    join: z.boolean().default(false),
    /** Bots seated at once, one per entry with its level (seats permitting, after the creator's). */
    bots: z.array(botLevelSchema).max(6).default([]),
    /** How the world ends and whether it is rated (world-ending.ts). */
    ending: worldEndingSchema.default({ until: 'open', rated: true }),
    /** Who may join and watch (access.ts). */
    access: accessSettingsSchema.default({ who: 'public', reservedSeats: 0, spectators: true, invite: [] }),
  })
  .strict();
export type CreateWorld = z.input<typeof createWorldSchema>;

/**
 * Playing an ended world again: a new world with its settings, its bots and its players invited.
 * The new world's name defaults to the old one's.
 */
export const playAgainSchema = z.object({ name: lineText().trim().min(1).max(80).optional() }).strict();

export const joinWorldSchema = z.object({ colour: colourSchema.optional() }).strict();

const seatSchema = z.object({
  playerId: z.string(),
  /** The account playing the seat; null for a bot's seat. */
  userId: z.string().nullable(),
  /** The account's name, or the bot's name. */
  username: z.string(),
  /** A bot's seat: its level; null for a person's seat. */
  bot: botLevelSchema.nullable(),
  /** The account is a bot account (a person's program playing through a token, docs/bot-interface.md). */
  program: z.literal(true).optional(),
  /** With `program`: the name of the person who runs it, shown beside it wherever the seat is. */
  programOwner: z.string().optional(),
  /** While the person is away, the bot level playing for them (null: default orders hold the seat). */
  standIn: botLevelSchema.nullable(),
  seat: z.number().int(),
  colour: colourSchema,
  missedTurns: z.number().int(),
  left: z.boolean(),
  /** Left because a moderator removed the account, which may not join again unless allowed back. */
  removed: z.boolean(),
  /** Left because a moderator's rollback returned the world to the start of this turn, before the player joined. */
  unseatedAtTurn: z.number().int().optional(),
  /** Away (set by the player, or by a moderator): the engine's default orders hold the seat at once. */
  away: z.boolean(),
});

/**
 * A player going away (holiday) or coming back. Meanwhile default orders hold the seat, or, with
 * `standIn`, a bot of that level plays it; coming back ends the stand-in.
 */
export const awaySchema = z
  .object({ away: z.boolean(), standIn: botLevelSchema.nullable().optional() })
  .strict();

/** A bot seated by the world's creator or a moderator. */
export const addBotSchema = z.object({ level: botLevelSchema }).strict();
export const addBotResponseSchema = z.object({ playerId: z.string() }).strict();

/** One order a bot gave for a seat: what a person sees of their stand-in's play. */
const botOrderSchema = z.object({
  seq: z.number().int(),
  turn: z.number().int(),
  bot: botLevelSchema,
  /** The order as the log keeps it (the engine's order; its type names it when no event says more). */
  order: z.object({ type: z.string() }).loose(),
  /** The order's events as the seat's own view has them: the History's sentences for it. */
  events: z.array(worldEventSchema),
  at: z.string(),
});
export const botOrdersResponseSchema = z.object({ orders: z.array(botOrderSchema) });
export type BotOrder = z.infer<typeof botOrderSchema>;

/** Where a world stands in the turn sequence (4), as a lobby line shows it. */
export const worldStepSchema = z.object({
  kind: z.enum(STEP_KINDS),
  phase: z.enum(PLAYER_PHASES).optional(),
});

const worldSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(WORLD_STATUSES),
  createdBy: z.string(),
  createdAt: z.string(),
  deadline: deadlineSettingsSchema,
  earlyResolution: z.boolean(),
  maxPlayers: z.number().int(),
  /** Who may join (access.ts): a world that is not public is listed only to its members. */
  access: z.enum(WORLD_ACCESS),
  /** Seats held for the accounts invited by name. */
  reservedSeats: z.number().int(),
  spectators: z.boolean(),
  victory: z.enum(['basic', 'advanced']),
  version: z.number().int(),
  turn: z.number().int(),
  /** The step the world is in: the engine step's kind, and the phase of a player turn. */
  step: worldStepSchema,
  deadlineAt: z.string().nullable(),
  waitingFor: z.array(z.string()),
  seats: z.array(seatSchema),
});
export type WorldSummary = z.infer<typeof worldSummarySchema>;

const cycleRowSchema = z.object({
  playerId: z.string(),
  number: z.number().int(),
  position: z.string(),
  startTurn: z.number().int(),
  kingdomTurn: z.number().int().nullable(),
  empireTurn: z.number().int().nullable(),
  endTurn: z.number().int().nullable(),
  endReason: z.string().nullable(),
  vp: z.number().int(),
});
export type CycleRow = z.infer<typeof cycleRowSchema>;

/**
 * The turn record sheet's number columns (14.3.3) as the ledger stores them, each with the field of
 * the engine's `LedgerRow` it is taken from (`vpTotal` is column 4, the cycle's VP so far).
 */
const LEDGER_SHEET_COLUMNS = {
  tax: 'tax',
  other: 'other',
  vpTotal: 'vp',
  carried: 'carried',
  available: 'available',
  upkeep: 'upkeep',
  purchases: 'purchases',
  administration: 'administration',
  treasury: 'treasury',
  adminPercent: 'adminPercent',
} as const satisfies Record<string, keyof LedgerRow>;
type LedgerSheetColumn = keyof typeof LEDGER_SHEET_COLUMNS;

/** A ledger column: a sheet column, or `vp`, the VP gained that turn (the engine's `vpGained`). */
const LEDGER_COLUMNS = ['vp', ...(Object.keys(LEDGER_SHEET_COLUMNS) as LedgerSheetColumn[])] as const;

/** One value of the record sheet: a player's column in one turn of one cycle. */
const ledgerRowSchema = z.object({
  playerId: z.string(),
  cycle: z.number().int(),
  turn: z.number().int(),
  column: z.enum(LEDGER_COLUMNS),
  value: z.number().int(),
});
export type LedgerColumnRow = z.infer<typeof ledgerRowSchema>;

/**
 * Column 11 of the turn record sheet (14.3.3): the Administration Table roll (2d6) and its result —
 * a named event or a number compared with the turns spent in the stage (10.6.2) — the Rebellion
 * Table rolls it led to, in order, and whether the kingdom became an empire.
 */
export const adminResultRowSchema = z.object({
  playerId: z.string(),
  cycle: z.number().int(),
  turn: z.number().int(),
  roll: z.number().int(),
  result: z.union([z.enum(ADMINISTRATION_EVENTS), z.number().int()]),
  rebellions: z.array(z.number().int()),
  becameEmpire: z.boolean(),
});
export type AdminResultRow = z.infer<typeof adminResultRowSchema>;

const sheetNumber = z.number().int().nullable();
/**
 * One line of a player's turn record sheet (14.3.3) as the server folds it from the ledger: the
 * eleven columns, null where nothing was recorded; column 4 is the cycle's running total.
 */
const sheetLineSchema = z.object({
  player: z.string(),
  cycle: z.number().int(),
  /** 1 game turn */
  turn: z.number().int(),
  /** 2 tax income (the unmodified income) */
  tax: sheetNumber,
  /** 3 modifications and other income */
  other: sheetNumber,
  /** 4 VP total of the cycle so far */
  vpTotal: z.number().int(),
  /** 5 money available */
  available: sheetNumber,
  /** 6 upkeep */
  upkeep: sheetNumber,
  /** 7 spent on new units */
  purchases: sheetNumber,
  /** 8 spent on administration */
  administration: sheetNumber,
  /** 9 treasury balance */
  treasury: sheetNumber,
  /** 10 % of column 2 spent on administration (the column used) */
  adminPercent: sheetNumber,
  /** 11 administration result */
  adminResult: adminResultRowSchema
    .pick({ roll: true, result: true, rebellions: true, becameEmpire: true })
    .nullable(),
});
export type SheetLine = z.infer<typeof sheetLineSchema>;

export const worldListResponseSchema = z.object({ worlds: z.array(worldSummarySchema) });

/**
 * A player's standing when the world closed: the engine's standing (14.3.1 best single cycle,
 * 14.3.2 victory points per turn played) with the name and colour the seat played under.
 */
const finalStandingSchema = z.object({
  playerId: z.string(),
  name: z.string(),
  colour: colourSchema,
  bot: z.boolean(),
  bestCycle: z.number().int(),
  totalVp: z.number().int(),
  turnsPlayed: z.number().int(),
  average: z.number().nullable(),
});
export type FinalStanding = z.infer<typeof finalStandingSchema>;
/** A closed world as the lobby's "finished" list shows it: its summary and its final standings. */
const finishedWorldSchema = worldSummarySchema.extend({
  closedAt: z.string(),
  standings: z.array(finalStandingSchema),
});
export type FinishedWorld = z.infer<typeof finishedWorldSchema>;
export const finishedWorldListResponseSchema = z.object({ worlds: z.array(finishedWorldSchema) });
export const worldResponseSchema = z.object({ world: worldSummarySchema });
/** A new world; one by invitation with its link's token, shown this once (access.ts). */
export const createWorldResponseSchema = worldResponseSchema.extend({ inviteToken: z.string().optional() });
export const worldDetailResponseSchema = z.object({
  world: worldSummarySchema,
  /** The world's options as the engine holds them, every default filled in. */
  options: optionsSchema,
  cycles: z.array(cycleRowSchema),
  /** Every player's record sheet, line by line, oldest turn first. */
  sheet: z.array(sheetLineSchema),
});
export const joinResponseSchema = z.object({ world: worldSummarySchema, seat: seatSchema });

/** A player's public record: the worlds they sit in and every cycle they played, best first. */
export const profileResponseSchema = z.object({
  username: z.string(),
  /** A bot account (a person's program): the name of the person who runs it. */
  programOwner: z.string().optional(),
  since: z.string(),
  worlds: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(WORLD_STATUSES),
      colour: z.string(),
      left: z.boolean(),
    }),
  ),
  cycles: z.array(
    z.object({
      worldId: z.string(),
      worldName: z.string(),
      number: z.number().int(),
      position: z.string(),
      startTurn: z.number().int(),
      kingdomTurn: z.number().int().nullable(),
      empireTurn: z.number().int().nullable(),
      endTurn: z.number().int().nullable(),
      endReason: z.string().nullable(),
      vp: z.number().int(),
    }),
  ),
  /** The player's rating in each pool they have one in (docs/ratings.md). */
  ratings: z.partialRecord(z.enum(RATING_POOLS), shownRatingSchema),
  /** The `all` rating after each rated result, oldest first (the profile's chart and its table). */
  ratingHistory: ratingHistorySchema,
  /** The final tables of the ended worlds they played, newest first. */
  results: z.array(finishedResultSchema),
  /** The bot levels that sat in a world with them. */
  botsFaced: z.array(z.enum(BOT_LEVELS)),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
