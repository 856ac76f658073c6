/**
 * 13.2.3 The Persian kingdom (opt.persianKingdom, D-22, AMBIG-60): chosen from turn 7, one at a
 * time; it starts as a kingdom dated to the previous turn's administration phase, with 12
 * purchase value (6 upkeep) of kingdom units and a leader in Persia and a treasury of 6 that
 * earns no VP; Ecbatana's and Susa's neutral garrisons are removed.
 */

import type { UnitKind } from '../units.ts';
import { priceOf, purchasableKinds } from './upkeep.ts';

export const PERSIAN_FIRST_TURN = 7;
export const PERSIAN_PURCHASE_VALUE = 12;
export const PERSIAN_TREASURY = 6;

/** D-22: the Persian may start this turn (option on, turn ≥ 7, no Persian in play). */
export function persianMayStart(optionOn: boolean, turn: number, persianInPlay: boolean): boolean {
  return optionOn && turn >= PERSIAN_FIRST_TURN && !persianInPlay;
}

/** D-22: the stage turn of a Persian entering on `turn` (the previous turn's administration). */
export const persianStageTurn = (turn: number): number => turn - 1;

/** 13.2.3: is this set of kingdom units worth exactly the Persian allowance (12 purchase value)? */
export function isPersianArmy(kinds: readonly UnitKind[]): boolean {
  const allowed = purchasableKinds('kingdom');
  return (
    kinds.every((k) => allowed.includes(k)) &&
    kinds.reduce((s, k) => s + priceOf(k, 'kingdom'), 0) === PERSIAN_PURCHASE_VALUE
  );
}
