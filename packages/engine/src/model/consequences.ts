/**
 * What an order would foreseeably cost, told before the player commits to it. Each consequence
 * names the rulebook section that causes it; the client puts it in words. "Foreseeable" means: if
 * nothing else changes before the rule is applied (other units may still move, so some can be
 * avoided — `avoidable` / `mendable` say so).
 */
import type { CombatResult } from './combat.ts';
import type { AreaId, UnitId } from './ids.ts';

export type Consequence =
  /**
   * 9.2, 6: at the end of movement this area would hold more than the rules allow. `automatic`:
   * surplus tribes are removed without a choice (9.2); otherwise the owner picks what goes (6).
   * `avoidable`: a unit standing there has not moved yet and could still leave.
   */
  | {
      kind: 'stackingLoss';
      section: '6' | '9.2';
      area: AreaId;
      lose: number;
      automatic: boolean;
      avoidable: boolean;
    }
  /**
   * 9.3.4: the tribes would stand in two or more groups; in the administration phase one group is
   * kept and the tribes of the others are removed. `tribesAtRisk`: the tribes outside the biggest
   * group. `mendable`: other units have not moved yet and might join the groups again.
   */
  | {
      kind: 'hordeCutApart';
      section: '9.3.4';
      groups: AreaId[][];
      tribesAtRisk: number;
      mendable: boolean;
    }
  /** 11.5: these other empire units would stand unsupported, and be removed in the economic phase. */
  | { kind: 'supportLost'; section: '11.5'; units: UnitId[] }
  /** 13.1.1: a die decides; with probability `chance` the unit is lost. */
  | { kind: 'mayBeLost'; section: '13.1.1'; unit: UnitId; chance: number }
  /**
   * 14.3, 7.2: the attack uses every unit the horde has; with probability `chance` the result
   * removes them all, and a barbarian left with no units has finished its cycle. `by`: the
   * results that would, each with its chance.
   */
  | {
      kind: 'hordeMayEnd';
      section: '14.3';
      chance: number;
      by: { result: CombatResult; chance: number }[];
    }
  /**
   * 14.3, 13.1.1: the tribe crossing the sea is the last unit the horde has; if the die loses it
   * (probability `chance`), the barbarian is left with no units and has finished its cycle.
   */
  | { kind: 'hordeMayEndAtSea'; section: '14.3'; unit: UnitId; chance: number }
  /**
   * 11.7.2 result 7, 14.3: this turn's administration can end the empire in a Complete Collapse,
   * with probability `chance`. `percent`: the column the administration roll is read on;
   * `rebellion`: the chance that roll calls for the Rebellion Table (10.6.2, 11.6); `capitalLost`:
   * the capital was lost this turn, which calls for one more Rebellion roll (10.3).
   */
  | {
      kind: 'realmMayCollapse';
      section: '11.7.2';
      chance: number;
      percent: number;
      rebellion: number;
      capitalLost: boolean;
    }
  /** 10.4: upkeep exceeds the money available; this plan disbands these units to pay. */
  | { kind: 'upkeepShortfall'; section: '10.4'; upkeep: number; available: number; disband: UnitId[] };

/** Consequences attached to one choice; `onlyLoses` marks a choice whose only effect is a loss. */
export type Foreseen = {
  consequences?: Consequence[];
  /** The player ends with fewer units and gains no area: nothing but a loss (if nothing else moves). */
  onlyLoses?: true;
};
