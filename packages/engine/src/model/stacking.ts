/**
 * 6 Stacking (and the matrix B.6). Checked at the end of movement, at the end of combat, at every
 * step of a retreat (7.3) and where purchases and creation results are placed.
 */
import { type StackClass, UNIT_PROFILES, type UnitKind } from './units.ts';

/** Anything that may stand in an area: a player's unit, or a neutral garrison (14.1). */
export type StackKind = UnitKind | 'neutralGarrison';

export interface StackPiece {
  readonly kind: StackKind;
  /** A tribe inverted for combination (9.1); two of them may share an area until creation. */
  readonly inverted?: boolean;
  /** Owning player, or null for neutral pieces; pieces with different owners never share an area. */
  readonly owner?: string | null;
}

const STACK_VIOLATIONS = ['stack/unfriendly', 'stack/notAlone', 'stack/twoBig', 'stack/tooMany'] as const;
export type StackViolation = (typeof STACK_VIOLATIONS)[number];

/** The most units (leaders and markers not counted) one area may hold (6). */
const MAX_STACK = 2;

/** How a piece counts for stacking: tribes, garrisons and neutral garrisons stand alone (6). */
function stackClassOf(kind: StackKind): StackClass {
  return kind === 'neutralGarrison' ? 'alone' : UNIT_PROFILES[kind].stackClass;
}

/**
 * 6: why these pieces may not share one area, or null if they may. Leaders never count; an
 * inverted tribe pair is the one exception to "tribes stand alone".
 */
export function stackViolation(pieces: readonly StackPiece[]): StackViolation | null {
  // One pass, no intermediate lists (asked for every step of every retreat, advance and purchase).
  let owner: string | null | undefined;
  let counted = 0;
  let invertedTribes = 0;
  let alone = false;
  let big = 0;
  for (const p of pieces) {
    if (p.owner !== undefined) {
      if (owner === undefined) owner = p.owner;
      else if (p.owner !== owner) return 'stack/unfriendly';
    }
    const cls = stackClassOf(p.kind);
    if (cls === 'free') continue;
    counted++;
    if (p.kind === 'tribe' && p.inverted === true) invertedTribes++;
    if (cls === 'alone') alone = true;
    else if (cls === 'big') big++;
  }
  if (counted <= 1) return null;
  if (counted === 2 && invertedTribes === 2) return null; // the inverted pair
  if (alone) return 'stack/notAlone';
  if (counted > MAX_STACK) return 'stack/tooMany';
  if (big > 1) return 'stack/twoBig';
  return null;
}

/** 6: whether these pieces may share one area. */
export function isLegalStack(pieces: readonly StackPiece[]): boolean {
  return stackViolation(pieces) === null;
}

/** 6, 7.3: whether `piece` may stand in an area already holding `present` (ending or passing a retreat). */
export function mayJoin(present: readonly StackPiece[], piece: StackPiece): boolean {
  return isLegalStack([...present, piece]);
}
