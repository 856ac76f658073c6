/**
 * Unit kinds and their printed profiles (2.3, B.1). The engine's state names a unit by its kind;
 * strength, movement and size class are read from here, never stored on the unit.
 */
import { z } from 'zod';

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
