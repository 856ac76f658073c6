/**
 * The combat phase's bookkeeping inside the game state (plain JSON): who has attacked and been
 * attacked this player turn (7.1), and the combat awaiting a player's choice.
 */

import type { AreaId, PlayerId, UnitId } from './ids.ts';

/** The results of the combat results table (7.2), from the worst to the best for the attacker. */
export const COMBAT_RESULTS = ['AE', 'AR3', 'AR2', 'AR1', 'EX', 'DR1', 'DR2', 'DR3', 'DE'] as const;
export type CombatResult = (typeof COMBAT_RESULTS)[number];

/** A retreat route as it was taken: pursuit follows it (7.2). */
export interface RetreatRoute {
  readonly origin: AreaId;
  readonly path: readonly AreaId[];
}

/** The decisions a resolved combat still needs, first one first. */
export type CombatStep =
  | {
      /** 7.2 EX: the surviving side removes at least `owed` unmodified strength. */
      readonly kind: 'exchangeLoss';
      readonly player: PlayerId;
      readonly owed: number;
      readonly candidates: readonly UnitId[];
    }
  | {
      /** 7.2, 7.3: these units retreat `distance` areas, one at a time, their owner choosing paths. */
      readonly kind: 'retreat';
      readonly player: PlayerId;
      readonly side: 'attacker' | 'defender';
      readonly distance: number;
      readonly units: readonly UnitId[];
      /** Areas holding the units they fought (criterion 2). */
      readonly fought: readonly AreaId[];
      /** Start areas already left by a retreat of this combat: never re-entered (no swapping, 7.3). */
      readonly vacated: readonly AreaId[];
    }
  | {
      /**
       * 7.2: after DE/EX up to `max` units may advance into a vacated area (`into`); after a retreat
       * the winners may pursue along `routes`. Each unit moves at most once; `combatStop` ends it.
       */
      readonly kind: 'advance';
      readonly player: PlayerId;
      readonly pursuit: boolean;
      readonly into: readonly AreaId[];
      readonly routes: readonly RetreatRoute[];
      readonly candidates: readonly UnitId[];
      readonly moved: readonly UnitId[];
      readonly max: number | null;
      /** 8.4: after a capture at least this many units must advance (no `combatStop` before). */
      readonly min?: number;
    }
  | {
      /** 8.4, AMBIG-59: a lone ship got DE; the attacker captures it (one unit must advance) or not. */
      readonly kind: 'capture';
      readonly player: PlayerId;
      readonly ship: UnitId;
    }
  | {
      /** 11.4: the owner of elites given a retreat decides whether they retreat or refuse. */
      readonly kind: 'eliteChoice';
      readonly player: PlayerId;
      readonly side: 'attacker' | 'defender';
      readonly distance: number;
      readonly elites: readonly UnitId[];
      readonly fought: readonly AreaId[];
    }
  | {
      /** 11.4: an elite refused; the attacker rerolls (until no retreat for that side) or aborts. */
      readonly kind: 'reroll';
      readonly player: PlayerId;
      readonly side: 'attacker' | 'defender';
      readonly elites: readonly UnitId[];
    };

export interface PendingCombat {
  readonly attacker: PlayerId;
  readonly defender: PlayerId | null;
  readonly target: AreaId;
  readonly result: CombatResult;
  /** The units that took part on each side (for an elite's reroll, 11.4). */
  readonly attackers: readonly UnitId[];
  readonly defenders: readonly UnitId[];
  /** Units of this combat that have retreated (they leave the combat, 11.4 example). */
  readonly retreated: readonly UnitId[];
  /** The neutral garrison fought, if any, and whether it was eliminated (for 14.1 regeneration). */
  readonly neutral: {
    readonly strength: number;
    readonly source: 'garrison' | 'marker';
    readonly eliminated: boolean;
  } | null;
  /** Retreat routes taken so far by the losing side (for pursuit). */
  readonly routes: readonly RetreatRoute[];
  /** An attacking unit moved into the target area (advance or pursuit): no regeneration (14.1). */
  readonly attackerEntered: boolean;
  /** 8.2: the landing force of this combat (ships and cargo waiting at sea), if it is a landing. */
  readonly landing?: readonly UnitId[];
  /** 8.2, AMBIG-17: the landing force has landed or been turned back (it is no longer owed). */
  readonly landingClosed?: boolean;
  readonly steps: readonly CombatStep[];
}

/**
 * 8.2: a naval landing declared in the movement phase. The landing force (the ship and what it
 * carries) waits in `sea`, the last sea area it crossed, until its compulsory attack on `target` in
 * the combat phase: it is never in the same area as the units it must attack.
 */
export interface Landing {
  readonly player: PlayerId;
  readonly target: AreaId;
  readonly sea: AreaId;
  readonly ship: UnitId;
  /** What the ship carries: at most one non-ship unit and one leader (5.2). */
  readonly cargo: readonly UnitId[];
}

export interface CombatPhaseState {
  /** Units that have attacked this player turn (7.1: once per turn). */
  readonly attackers: readonly UnitId[];
  /** Units that have been attacked this player turn (7.1: once per turn). */
  readonly defenders: readonly UnitId[];
  /** Areas whose neutral garrison (or acting pillage marker) was attacked this player turn. */
  readonly neutralAreas: readonly AreaId[];
  readonly pending: PendingCombat | null;
  /** 8.2: landings declared this player turn whose combat has not been fought yet. */
  readonly landings?: readonly Landing[];
}

/** The empty bookkeeping, at the start of every player turn. */
export function initialCombatState(): CombatPhaseState {
  return { attackers: [], defenders: [], neutralAreas: [], pending: null };
}

/** The combat sub-state of a game state, tolerating a state written before it existed. */
export function combatStateOf(state: { readonly combat: unknown }): CombatPhaseState {
  const c = state.combat as CombatPhaseState | null | undefined;
  return c && Array.isArray(c.attackers) ? c : initialCombatState();
}
