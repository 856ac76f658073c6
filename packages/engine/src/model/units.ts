/**
 * The core's unit record and barbarian-stage unit rules. The kind vocabulary and printed values
 * are the combat side's (src/tables/units.ts, 2.3/B.1); this file adds what the turn machine
 * needs: counter families (C.6), the kingdom conversion (10.1), option-aware strength and MA.
 */

import { UNIT_PROFILES, type UnitKind, unitMovement, unitStrength } from '../tables/units.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { Options } from './options.ts';

export { UNIT_KINDS, UNIT_PROFILES, type UnitKind, unitKindSchema } from '../tables/units.ts';

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

export const isShip = (kind: UnitKind): boolean => UNIT_PROFILES[kind].ship;
