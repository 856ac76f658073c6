/**
 * Legal orders as the rules list them for a player: what the client highlights and offers. Grouped
 * where listing every order would explode (per unit its destinations with paths); the player picks
 * one and sends it as an `Order`.
 */
import type { CombatResult } from './combat.ts';
import type { Consequence, Foreseen } from './consequences.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { NavalOrder, PersianArmyOrder, RealmOrder } from './orders.ts';
import type { StartPosition } from './people.ts';

/** Legal orders of the turn and the barbarian stage. */
export type CoreLegalOrder =
  | {
      type: 'chooseStart';
      position: StartPosition;
      areas: AreaId[];
      /** 4.2, 7.1: offered areas next to another player's units, and whose (scenario/contested-starts.ts). */
      contested?: { area: AreaId; by: PlayerId[] }[];
    }
  /** A concrete army with its default placement; `areas` lists where its units may go instead. */
  | (PersianArmyOrder & { areas: AreaId[] })
  | { type: 'combine'; tribes: [UnitId, UnitId]; areas: AreaId[] }
  | { type: 'split'; tribe: UnitId }
  /** Each destination with what ending there would foreseeably cost (6, 9.2, 9.3.4, 11.5). */
  | {
      type: 'move';
      unit: UnitId;
      from: AreaId;
      destinations: ({ to: AreaId; path: AreaId[] } & Foreseen)[];
    }
  | ({ type: 'seaCrossing'; tribe: UnitId; sea: AreaId; to: AreaId[] } & Foreseen)
  | { type: 'placeEntryTribes'; areas: AreaId[] }
  | { type: 'disband'; unit: UnitId }
  | { type: 'pillage'; area: AreaId }
  | { type: 'keepGroup'; area: AreaId; group: AreaId[] }
  | { type: 'removeUnits'; count: number; candidates: UnitId[] }
  | { type: 'foundKingdom'; leaderWith: UnitId[]; capital: (AreaId | null)[] }
  | { type: 'declareAbandon'; abandon: boolean }
  /** Ending the phase now: what the end of movement and the administration phase would cost. */
  | ({ type: 'endPhase' } & Foreseen)
  | { type: 'undo' };

/** One way to make an attack, with the column it would be fought on (shown before confirming). */
export interface AttackChoice {
  attackers: UnitId[];
  /** Column id, e.g. '3-2', or 'autoAE' (AMBIG-3). */
  odds: string;
  shift: number;
  /** 7.1: the chance of each combat result at these odds (from the table, 2d6), shown before confirming. */
  outcomes: { result: CombatResult; chance: number }[];
  /** What the attack can cost beyond the combat itself (14.3: the end of the horde). */
  consequences?: Consequence[];
}

export type CombatLegalOrder =
  | {
      type: 'combatAttack';
      target: AreaId;
      defender: PlayerId | null;
      defenders: UnitId[];
      neutral: number | null;
      eligible: { unit: UnitId; from: AreaId; halved: boolean }[];
      /** Every subset when few units are eligible; otherwise all, each alone, and all but one. */
      choices: AttackChoice[];
      /** 8.2: a naval landing's compulsory attack; every choice includes the whole landing force. */
      landing?: true;
    }
  | { type: 'combatRetreat'; unit: UnitId; from: AreaId; paths: AreaId[][]; eliminated: boolean }
  | { type: 'combatExchangeLoss'; owed: number; sets: UnitId[][] }
  | { type: 'combatAdvance'; unit: UnitId; from: AreaId; to: AreaId[]; pursuit: boolean }
  | { type: 'combatStop' }
  | { type: 'combatEliteChoice'; refuse: boolean; elites: UnitId[] }
  | { type: 'combatReroll'; abort: boolean }
  | { type: 'combatCapture'; capture: boolean; ship: UnitId }
  | { type: 'combatDone' };

/**
 * Legal realm orders are concrete orders (a bounded list of the useful ones); an economic plan
 * carries what it costs (10.4 upkeep shortfall).
 */
export type RealmLegalOrder = RealmOrder & Foreseen;

/**
 * A legal ship move as listed: a concrete order (one shortest path per destination and start cargo),
 * plus `landing` when it ends in a naval landing (8.2) and `pickups`, the units waiting in coastal
 * areas on the path that a `stops` entry could take aboard (AMBIG-15). Drop-offs are possible in any
 * coastal area on the path before its end.
 */
export type NavalLegalOrder = NavalOrder & {
  landing?: true;
  pickups?: { at: AreaId; units: UnitId[] }[];
  /**
   * 8.1 grouping: the player's other unmoved ships in the same start area, which may be sent along
   * in `with` (each with one of its own listed cargoes for the same path); the combined force must
   * still stack where it ends and, for a landing, be one or two ships (8.2).
   */
  companions?: UnitId[];
};

export type LegalOrder = CoreLegalOrder | CombatLegalOrder | RealmLegalOrder | NavalLegalOrder;
