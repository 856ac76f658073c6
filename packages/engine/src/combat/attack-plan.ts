/**
 * 7.1 An attack as declared: the area attacked and what it offers (one player's units or a
 * neutral), the units attacking with the strength each brings, and the odds with their shifts.
 * Read by the combat phase and by the capture of a lone ship (8.4).
 */
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { Unit } from '../model/units.ts';
import type { ColumnShifts, Odds } from './odds.ts';

/** What an area offers to be attacked: one player's not-yet-attacked units, or a neutral. */
export interface TargetDefence {
  readonly defender: PlayerId | null;
  readonly units: readonly Unit[];
  readonly neutral: { readonly strength: number; readonly source: 'garrison' | 'marker' } | null;
}

export interface PlannedAttacker {
  readonly unit: Unit;
  readonly halved: boolean;
  /** Strength it attacks with before halving (a tribe against a neutral uses AMBIG-24's value). */
  readonly strength: number;
  /** 8.2: part of a naval landing force (its attack is compulsory). */
  readonly landing?: boolean;
}

export interface AttackPlan extends TargetDefence {
  readonly attacker: PlayerId;
  readonly target: AreaId;
  readonly attackers: readonly PlannedAttacker[];
  readonly attackHalf: number;
  readonly defenceHalf: number;
  readonly shifts: ColumnShifts;
  readonly odds: Odds;
}
