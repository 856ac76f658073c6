/**
 * The one typed options object: every optional rule of section 13 (`opt`), the
 * victory conditions (14.3.1/14.3.2) and every interpretation switch of Part E (`cfg`), each
 * with the default proposed by the rules reference. Fixed at game creation; rules read it only
 * through the named predicates at the bottom of this file.
 */
import { z } from 'zod';
import type { People } from './people.ts';

const optSchema = z
  .object({
    tribalSeaCrossings: z.boolean().default(false), // 13.1.1
    tribalAttacksOnNeutralGarrisons: z.boolean().default(false), // 13.1.2
    vikingModifications: z.boolean().default(false), // 13.2.1
    arabsAfricans: z.boolean().default(false), // 13.2.2
    persianKingdom: z.boolean().default(false), // 13.2.3
    optionalCities: z.boolean().default(false), // 13.2.3 / 14.3
    hunModifications: z.boolean().default(false), // 13.2.4
    auction: z.boolean().default(false), // 13.3
    mercenaries: z.boolean().default(false), // 13.4
    byzantium: z.boolean().default(false), // 13.5
    optionalLeaders: z.boolean().default(false), // 13.6
    tribute: z.boolean().default(false), // 13.7
  })
  .strict();

const cfgSchema = z
  .object({
    tribeStrength: z.number().int().min(0).max(4).default(1), // AMBIG-1
    tribeMA: z.number().int().min(1).max(4).default(1), // AMBIG-1
    leaderMA: z.union([z.number().int().min(0).max(9), z.enum(['withStackOnly', 'unlimited'])]).default(4), // AMBIG-2
    crtBelowMin: z.enum(['useLowest', 'autoAE', 'forbidVoluntary']).default('useLowest'), // AMBIG-3
    crtAboveMax: z.enum(['useHighest']).default('useHighest'), // AMBIG-3
    exTie: z.enum(['bothEliminated', 'defenderLoses']).default('bothEliminated'), // AMBIG-4
    neutralStrengthCap: z.number().int().min(2).default(3), // AMBIG-5
    civilDisorderUnit: z.enum(['taxValue', 'cityCount']).default('taxValue'), // AMBIG-8
    revoltedUnits: z.enum(['eliminated']).default('eliminated'), // AMBIG-8
    pirateMarkerIsNeutral: z.boolean().default(false), // AMBIG-9
    unmodifiedIncludesCapital: z.boolean().default(true), // AMBIG-10
    adminMaxColumn: z.number().int().min(10).max(100).default(60), // AMBIG-11
    adminZeroIncome: z.enum(['onePerStep', 'only0', 'literalFree']).default('onePerStep'), // AMBIG-11b
    rollOnConversionTurn: z.boolean().default(false), // AMBIG-12
    countdownCheckTiming: z.enum(['afterLosses', 'beforeLosses']).default('afterLosses'), // AMBIG-13
    sinkingRollTiming: z.enum(['declaredRoute']).default('declaredRoute'), // AMBIG-14
    pickupEnRoute: z.boolean().default(true), // AMBIG-15
    shipAttackRange: z.enum(['seaReachableAdjacent', 'landingsOnly']).default('seaReachableAdjacent'), // AMBIG-16
    failedLanding: z.enum(['treatAsAR']).default('treatAsAR'), // AMBIG-17
    eliteDefenderRecompute: z.boolean().default(true), // AMBIG-18
    tributeCapScope: z.enum(['perPair', 'perPayer']).default('perPair'), // AMBIG-20
    tributeCap: z.number().int().min(0).default(5), // AMBIG-20
    mercenaryPillageAllowed: z.boolean().default(true), // AMBIG-21
    auctionMinBid: z.enum(['upkeep', 'purchaseCost']).default('upkeep'), // AMBIG-22
    tribeAttackStrength: z.number().int().min(0).max(4).default(1), // AMBIG-24
    vikingHunAdminPenaltyBase: z.boolean().default(true), // AMBIG-26
    neutralReappearsIfNeverOwned: z.boolean().default(true), // AMBIG-29
    disbandValidation: z.enum(['minimalSet']).default('minimalSet'), // AMBIG-32
    barbarianMoneyCarries: z.boolean().default(true), // AMBIG-34
    provinceSizeMeasure: z.enum(['friendlyCityValue', 'allCityValue']).default('friendlyCityValue'), // AMBIG-36
    defectionDistanceGraph: z.enum(['all', 'landOnly']).default('all'), // AMBIG-37
    mutinyCountsGarrisons: z.boolean().default(true), // AMBIG-39
    counterLimits: z.enum(['default', 'unlimited']).default('default'), // AMBIG-45
    tribesMayPillage: z.boolean().default(true), // AMBIG-46
    countReentries: z.boolean().default(true), // AMBIG-50
    leaderKilledOnPassThrough: z.boolean().default(true), // AMBIG-53
    byzantiumShiftForNeutral: z.boolean().default(true), // AMBIG-55
    countIncompleteCycles: z.boolean().default(true), // AMBIG-56
    persianOwnsStartCities: z.boolean().default(false), // AMBIG-60
    tribesJoinCombatUnitAttacks: z.boolean().default(true), // AMBIG-61
    interceptExContinue: z.boolean().default(true), // AMBIG-62
    /** Engine decision (docs/rules-decisions.md): a barbarian with no unit left at its
     *  administration phase has finished its cycle and may start a new one next turn. */
    emptyBarbarianEndsCycle: z.boolean().default(true),
  })
  .strict();

export const optionsSchema = z
  .object({
    opt: optSchema.default(() => optSchema.parse({})),
    cfg: cfgSchema.default(() => cfgSchema.parse({})),
    victory: z.enum(['basic', 'advanced']).default('basic'), // 14.3.1 / 14.3.2
  })
  .strict();

export type Options = z.infer<typeof optionsSchema>;
export type OptionsInput = z.input<typeof optionsSchema>;

export const DEFAULT_OPTIONS: Options = optionsSchema.parse({});

/**
 * Every optional rule of section 13 on, read from the schema so that a rule added there is in it
 * too: the set-up of the tests and checks that play with all of them.
 */
export const EVERY_OPTIONAL_RULE = Object.fromEntries(Object.keys(optSchema.shape).map((k) => [k, true])) as {
  [K in keyof Options['opt']]: true;
};

// ---- named predicates: rules ask these, never the raw object ----

/** 13.1.1: may this people's tribes try marked sea crossings? */
export const tribalSeaCrossingsFor = (o: Options, people: People): boolean =>
  o.opt.tribalSeaCrossings && (people === 'VIKING' || people === 'PICT' || people === 'ARAB');

/** 9.3.1 / 13.2.2: Arab and African tribes may enter deserts (only when their positions are in play). */
export const tribesIgnoreDesert = (o: Options, people: People): boolean =>
  o.opt.arabsAfricans && (people === 'ARAB' || people === 'AFRICAN');

/** 13.2.2: Arab and African start positions exist. */
export const arabsAfricansInPlay = (o: Options): boolean => o.opt.arabsAfricans;

/** 13.2.3: optional cities are on the board (forced by the Persian kingdom). */
export const optionalCitiesInPlay = (o: Options): boolean => o.opt.optionalCities || o.opt.persianKingdom;

/** 13.2.3: the Persian position exists (it starts as a kingdom, scenario/persian.ts). */
export const persianInPlay = (o: Options): boolean => o.opt.persianKingdom;

/** 4.2 / 13.2.x: the earliest game turn on which a start position may be chosen. */
export const earliestStartTurn = (o: Options, people: People): number => {
  if (people === 'VIKING') return o.opt.vikingModifications ? 3 : 1;
  if (people === 'ARAB' || people === 'AFRICAN') return 3;
  if (people === 'PERSIAN') return 7;
  return 1;
};

/** AMBIG-46: may a tribe (not only a combat unit) pillage? */
export const tribesMayPillage = (o: Options): boolean => o.cfg.tribesMayPillage;

/** AMBIG-13: is the 10-unit countdown test made after the continuity and unrest losses? */
export const countdownAfterLosses = (o: Options): boolean => o.cfg.countdownCheckTiming === 'afterLosses';

/** AMBIG-45 / C.6: are counters limited? */
export const countersLimited = (o: Options): boolean => o.cfg.counterLimits === 'default';

/** AMBIG-1: tribe strength and movement capability. */
export const tribeStrength = (o: Options): number => o.cfg.tribeStrength;
/** AMBIG-1: a tribe's movement capability. */
export const tribeMA = (o: Options): number => o.cfg.tribeMA;

/** AMBIG-2: how far a leader may move alone (null = only with its stack). */
export const leaderMA = (o: Options): number | null =>
  o.cfg.leaderMA === 'withStackOnly' ? null : o.cfg.leaderMA === 'unlimited' ? 99 : o.cfg.leaderMA;

/** AMBIG-29: does a neutral garrison reappear in a never-owned city left empty? */
export const neutralReappearsIfNeverOwned = (o: Options): boolean => o.cfg.neutralReappearsIfNeverOwned;

/** Engine decision: an empty barbarian position ends its cycle at the administration phase. */
export const emptyBarbarianEndsCycle = (o: Options): boolean => o.cfg.emptyBarbarianEndsCycle;

/** AMBIG-53: is a lone enemy leader killed by a unit merely passing through? */
export const leaderKilledOnPassThrough = (o: Options): boolean => o.cfg.leaderKilledOnPassThrough;
