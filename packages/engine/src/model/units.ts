/**
 * Units (2.3, B.1): the kind vocabulary, the printed profiles (strength, movement, size class),
 * the unit record on the board, counter families (C.6) and the compulsory flips of 10.1. A unit
 * is named by its kind; its values are read from here, never stored on the unit.
 */
import { z } from 'zod';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { Options } from './options.ts';

export const UNIT_KINDS = [
  'tribe',
  'barbarianInfantry',
  'barbarianHorse',
  'horseBow',
  'bow',
  'infantry',
  'cavalry',
  'elite',
  'garrison',
  'ship',
  'leader',
] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];
export const unitKindSchema = z.enum(UNIT_KINDS);

/**
 * How a unit counts for stacking (6): `alone` units (tribes, garrisons) never share an area,
 * `big` units are strength 3–5, `small` units strength 1–2, `free` units (leaders) never count.
 */
export const STACK_CLASSES = ['alone', 'big', 'small', 'free'] as const;
export type StackClass = (typeof STACK_CLASSES)[number];

export interface UnitProfile {
  /** Printed ("unmodified") combat strength; a tribe's is an option (AMBIG-1), 1 by default. */
  readonly strength: number;
  /** Printed movement capability (MA). */
  readonly movement: number;
  /** Parenthesised strength: may defend but not attack (2.3). Tribes attack tribes only (9.3.2). */
  readonly mayAttack: boolean;
  readonly stackClass: StackClass;
  /** Ships are never halved and move by sea (7.1, 5.2). */
  readonly ship: boolean;
  /** Empire 5-3 elites may refuse retreats (11.4). */
  readonly elite: boolean;
  /** The book's short name, e.g. "3-3" or "(4)-0". */
  readonly label: string;
}

const profile = (
  strength: number,
  movement: number,
  stackClass: StackClass,
  label: string,
  extra: Partial<Pick<UnitProfile, 'mayAttack' | 'ship' | 'elite'>> = {},
): UnitProfile => ({
  strength,
  movement,
  stackClass,
  label,
  mayAttack: true,
  ship: false,
  elite: false,
  ...extra,
});

export const UNIT_PROFILES: Readonly<Record<UnitKind, UnitProfile>> = {
  tribe: profile(1, 1, 'alone', '(1)-1', { mayAttack: false }),
  barbarianInfantry: profile(3, 3, 'big', '3-3'),
  barbarianHorse: profile(3, 4, 'big', '3-4'),
  horseBow: profile(2, 4, 'small', '2-4'),
  bow: profile(2, 3, 'small', '2-3'),
  infantry: profile(4, 2, 'big', '4-2'),
  cavalry: profile(4, 4, 'big', '4-4'),
  elite: profile(5, 3, 'big', '5-3', { elite: true }),
  garrison: profile(4, 0, 'alone', '(4)-0', { mayAttack: false }),
  ship: profile(1, 4, 'small', '1-4', { ship: true }),
  leader: profile(0, 4, 'free', '+1', { mayAttack: false }),
};

/** Tribe values are not printed in the rulebook (AMBIG-1); the options may change them. */
export interface TribeValues {
  readonly strength: number;
  readonly movement: number;
}
export const DEFAULT_TRIBE_VALUES: TribeValues = { strength: 1, movement: 1 };

/** 2.3 / AMBIG-1: the unmodified strength of a unit of this kind. */
export function unitStrength(kind: UnitKind, tribe: TribeValues = DEFAULT_TRIBE_VALUES): number {
  return kind === 'tribe' ? tribe.strength : UNIT_PROFILES[kind].strength;
}

/** 2.3 / AMBIG-1: the movement capability of a unit of this kind. */
export function unitMovement(kind: UnitKind, tribe: TribeValues = DEFAULT_TRIBE_VALUES): number {
  return kind === 'tribe' ? tribe.movement : UNIT_PROFILES[kind].movement;
}

/** A player's unit on the board. Neutral garrisons are not units: see GameState.neutrals. */
export interface Unit {
  readonly id: UnitId;
  readonly owner: PlayerId;
  readonly kind: UnitKind;
  readonly area: AreaId;
  /** A tribe combined this turn (4.3.1): two inverted tribes share an area until creation. */
  readonly inverted?: boolean;
}

const tribeValues = (o: Options) => ({ strength: o.cfg.tribeStrength, movement: o.cfg.tribeMA });

/** Printed (unmodified) strength; tribes per AMBIG-1. */
export const strengthOf = (kind: UnitKind, o: Options): number => unitStrength(kind, tribeValues(o));

/** Movement capability (5.1); tribes per AMBIG-1, leaders per AMBIG-2. */
export const movementOf = (kind: UnitKind, o: Options): number => {
  if (kind === 'leader') {
    const ma = o.cfg.leaderMA;
    return ma === 'unlimited' ? 99 : ma === 'withStackOnly' ? 0 : ma;
  }
  return unitMovement(kind, tribeValues(o));
};

/** Barbarian combat units: every non-tribe unit a barbarian may own (9.1, 9.2 growth ban). */
export const isNonTribe = (kind: UnitKind): boolean => kind !== 'tribe' && kind !== 'leader';

/** Counter families of the default counter mix (C.6, AMBIG-45): double-sided counters share one. */
export const COUNTER_FAMILIES = [
  'tribe',
  'infantry',
  'horse',
  'horseBow',
  'bow',
  'ship',
  'elite',
  'leader',
] as const;
export type CounterFamily = (typeof COUNTER_FAMILIES)[number];

const FAMILY: Readonly<Record<UnitKind, CounterFamily>> = {
  tribe: 'tribe',
  garrison: 'tribe',
  barbarianInfantry: 'infantry',
  infantry: 'infantry',
  barbarianHorse: 'horse',
  cavalry: 'horse',
  horseBow: 'horseBow',
  bow: 'bow',
  ship: 'ship',
  elite: 'elite',
  leader: 'leader',
};

/** C.6 reconstructed counters per colour. */
export const COUNTER_LIMITS: Readonly<Record<CounterFamily, number>> = {
  tribe: 36,
  infantry: 16,
  horse: 10,
  horseBow: 8,
  bow: 6,
  ship: 8,
  elite: 10,
  leader: 1,
};

/**
 * C.6 / AMBIG-45: would one colour need more counters than the mix holds for these units? The
 * 2-4 horse bows are the faces of 8 double-sided counters whose backs are 2-3 bows, beside 6
 * separate 2-3s: a horse bow needs a double-sided counter, a 2-3 bow takes either kind (one
 * flipped at kingdom stage, 10.1, stays on its double-sided counter). Tribes and garrisons share
 * their 36 counters.
 */
export function exceedsCounterMix(kinds: Iterable<UnitKind>): boolean {
  const n = new Map<CounterFamily, number>();
  for (const k of kinds) n.set(FAMILY[k], (n.get(FAMILY[k]) ?? 0) + 1);
  for (const [family, count] of n) {
    if (family !== 'bow' && count > COUNTER_LIMITS[family]) return true;
  }
  const horseBows = n.get('horseBow') ?? 0;
  return horseBows + (n.get('bow') ?? 0) > COUNTER_LIMITS.horseBow + COUNTER_LIMITS.bow;
}

/** 10.1: the compulsory flips when a barbarian becomes a kingdom; tribes are removed (null). */
export const kingdomKindOf = (kind: UnitKind): UnitKind | null => {
  switch (kind) {
    case 'tribe':
      return null;
    case 'barbarianInfantry':
      return 'infantry';
    case 'barbarianHorse':
      return 'cavalry';
    case 'horseBow':
      return 'bow';
    default:
      return kind;
  }
};

/** 2.3: is a unit of this kind a ship (it moves by sea, 5.2)? */
export const isShip = (kind: UnitKind): boolean => UNIT_PROFILES[kind].ship;
