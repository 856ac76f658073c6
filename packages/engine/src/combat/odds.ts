/**
 * 7.1 Odds: attack strength in exact half-points, the odds column by cross-multiplication, and the
 * column shifts of leaders (10.2), Byzantium (13.5) and optional leaders (13.6). No floating point.
 */
import type { Crt } from '../tables/crt.ts';

/** One attacking unit's contribution: its unmodified strength and whether it is halved. */
export interface AttackContribution {
  readonly strength: number;
  readonly halved: boolean;
}

/** What lies between an attacker and the target area (one map edge), as far as halving goes. */
export interface AttackCrossing {
  readonly mountain: boolean;
  readonly river: boolean;
  readonly redArrow: boolean;
  /** The unit is carried by a ship making a naval landing (8.2). */
  readonly navalLanding?: boolean;
}

/**
 * 7.1: a non-ship unit is halved attacking across a mountain range or river, along a red arrow or
 * in a naval landing; ships are never halved.
 */
export function isHalved(isShip: boolean, crossing: AttackCrossing): boolean {
  if (isShip) return false;
  return crossing.mountain || crossing.river || crossing.redArrow || crossing.navalLanding === true;
}

/** 7.1: total attack strength in half-points (a halved 3 counts 3 half-points, i.e. 1½). */
export function attackHalfPoints(attackers: readonly AttackContribution[]): number {
  return attackers.reduce((sum, a) => sum + (a.halved ? a.strength : 2 * a.strength), 0);
}

/** 7.1: defenders are never halved; total defence strength in half-points. */
export function defenceHalfPoints(strengths: readonly number[]): number {
  return strengths.reduce((sum, s) => sum + 2 * s, 0);
}

/** The raw odds before shifts: a column index, or below the lowest column. */
export type RawOdds = { readonly kind: 'column'; readonly index: number } | { readonly kind: 'belowTable' };

/**
 * 7.1, C.1.b: the highest column a:d with a·defence ≤ d·attack (odds round down, in the
 * defender's favour). Both strengths are in half-points, so the ratio is exact. Odds above the top
 * column use the top column (AMBIG-3, `crtAboveMax = useHighest`).
 */
export function rawOddsColumn(crt: Crt, attackHalf: number, defenceHalf: number): RawOdds {
  if (defenceHalf <= 0) return { kind: 'column', index: crt.columns.length - 1 };
  let best = -1;
  crt.columns.forEach((column, index) => {
    if (attackHalf * column.defence >= defenceHalf * column.attack) best = index;
  });
  return best < 0 ? { kind: 'belowTable' } : { kind: 'column', index: best };
}

/** The things that shift the column (7.1, 10.2, 13.5, 13.6), each already a count of columns. */
export interface ColumnShifts {
  /** The best land shift among the attacking side's leaders: 1, or 2 for a great general (13.6). */
  readonly attackerLeader: number;
  /** The best land shift among the defending side's leaders. */
  readonly defenderLeader: number;
  /** 13.5 `opt.byzantium`: the defender stands in Byzantium (one column left). */
  readonly fortified: boolean;
}

export const NO_SHIFTS: ColumnShifts = { attackerLeader: 0, defenderLeader: 0, fortified: false };

/** 7.1: the net column shift; positive favours the attacker. Opposite shifts cancel. */
function netShift(shifts: ColumnShifts): number {
  return shifts.attackerLeader - shifts.defenderLeader - (shifts.fortified ? 1 : 0);
}

const BELOW_MIN_POLICIES = ['useLowest', 'autoAE', 'forbidVoluntary'] as const;
/** AMBIG-3 `crtBelowMin`: what odds below the lowest column (after shifts) do. */
export type BelowMinPolicy = (typeof BELOW_MIN_POLICIES)[number];

/** The column a combat is fought on, or the off-table outcomes of AMBIG-3. */
export type Odds =
  | {
      readonly kind: 'column';
      readonly index: number;
      readonly id: string;
      readonly raw: number;
      readonly shift: number;
    }
  | { readonly kind: 'autoAE'; readonly shift: number }
  | { readonly kind: 'forbidden'; readonly shift: number };

/**
 * 7.1, AMBIG-3: the final column. Raw odds above the table use the top column. Under `useLowest`,
 * raw odds below the table use the lowest column, then the shift applies and the result is clamped
 * again. Under `autoAE` and `forbidVoluntary`, odds below the table count as one column left of the
 * lowest; if the shifted column is still off the table the attack is an automatic AE, or (when
 * voluntary) not allowed; a compulsory attack (naval landing) is then fought on the lowest column.
 */
export function oddsColumn(
  crt: Crt,
  attackHalf: number,
  defenceHalf: number,
  shifts: ColumnShifts,
  belowMin: BelowMinPolicy,
  compulsory = false,
): Odds {
  const raw = rawOddsColumn(crt, attackHalf, defenceHalf);
  const shift = netShift(shifts);
  const top = crt.columns.length - 1;
  const rawIndex = raw.kind === 'column' ? raw.index : belowMin === 'useLowest' ? 0 : -1;
  const shifted = Math.min(rawIndex + shift, top);
  if (shifted < 0 && belowMin === 'autoAE') return { kind: 'autoAE', shift };
  if (shifted < 0 && belowMin === 'forbidVoluntary' && !compulsory) return { kind: 'forbidden', shift };
  const index = Math.max(shifted, 0);
  return { kind: 'column', index, id: crt.columns[index]!.id, raw: rawIndex, shift };
}
