/** Combat facts (STYLE habit 6): what happened, never UI text. */

import type { CombatResult } from '../tables/crt.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { RealmEvent } from './realm-events.ts';

/** 8.1 facts that a ship retreating across a sea (8.3) may also produce. */
export type InterceptionEvent = Extract<
  RealmEvent,
  { type: 'shipIntercepted' | 'shipSinkingRolled' | 'realmUnitsRemoved' }
>;

export type CombatEvent =
  | {
      type: 'combatResolved';
      attacker: PlayerId;
      /** The defending player, or null for a neutral garrison (or a pillage marker acting as one). */
      defender: PlayerId | null;
      target: AreaId;
      attackers: UnitId[];
      defenders: UnitId[];
      neutral: { strength: number; source: 'garrison' | 'marker' } | null;
      /** Totals in half-points (7.1). */
      attack: number;
      defence: number;
      /** The column fought on, or 'autoAE' (AMBIG-3). */
      odds: string;
      /** The column before shifts (index into the CRT), and the net shift. */
      rawColumn: number;
      shift: number;
      /** What made the shift: each side's leader (10.2, 13.6) and the Byzantium fortification (13.5). */
      shifts: { attackerLeader: number; defenderLeader: number; fortified: boolean };
      dice: [number, number] | null;
      result: CombatResult;
    }
  | {
      /** 11.4: an elite refused a retreat and the attacker rerolled until it no longer had to retreat. */
      type: 'combatRerolled';
      attacker: PlayerId;
      target: AreaId;
      attackers: UnitId[];
      defenders: UnitId[];
      attack: number;
      defence: number;
      odds: string;
      rolls: [number, number][];
      result: CombatResult;
    }
  | { type: 'combatLeaderEliminated'; unit: UnitId; area: AreaId }
  | { type: 'combatLeaderMoved'; unit: UnitId; from: AreaId; to: AreaId }
  /** 13.6: with optional leaders, a leader met by an unfriendly unit is captured, held under `holder`. */
  | { type: 'combatLeaderCaptured'; unit: UnitId; area: AreaId; captor: PlayerId; holder: UnitId }
  | {
      type: 'combatUnitsEliminated';
      player: PlayerId;
      units: UnitId[];
      area: AreaId | null;
      cause: EliminationCause;
    }
  | { type: 'combatNeutralEliminated'; area: AreaId; cause: EliminationCause }
  | { type: 'combatNeutralRegenerated'; area: AreaId; strength: number }
  | {
      type: 'combatRetreated';
      player: PlayerId;
      unit: UnitId;
      from: AreaId;
      path: AreaId[];
      eliminated: boolean;
    }
  | { type: 'combatAdvanced'; player: PlayerId; unit: UnitId; from: AreaId; to: AreaId; pursuit: boolean }
  | { type: 'combatPhaseEnded'; player: PlayerId }
  | {
      /** 8.2: a ship (with its cargo) will land on `target`; it waits in `sea` until its combat. */
      type: 'navalLandingDeclared';
      player: PlayerId;
      ship: UnitId;
      cargo: UnitId[];
      sea: AreaId;
      target: AreaId;
    }
  | { type: 'navalLanded'; player: PlayerId; target: AreaId; units: UnitId[] }
  /** 8.2, AMBIG-17: the landing did not clear its target (AR1 for the force: cargo lost, ships to sea). */
  | { type: 'navalLandingFailed'; player: PlayerId; target: AreaId; units: UnitId[] }
  /** 8.2 / 8.3: a ship that retreated across a sea area rolled 1d6 and sinks on a 1. */
  | {
      type: 'combatShipSinkingRolled';
      player: PlayerId;
      ship: UnitId;
      die: number;
      modifier: number;
      sunk: boolean;
    }
  /** 8.4: a lone ship given DE was captured: `ship` is gone, `captured` is the captor's new ship. */
  | {
      type: 'combatShipCaptured';
      player: PlayerId;
      from: PlayerId;
      ship: UnitId;
      captured: UnitId;
      area: AreaId;
    }
  | InterceptionEvent;

export const ELIMINATION_CAUSES = ['DE', 'AE', 'exchange', 'retreat'] as const;
export type EliminationCause = (typeof ELIMINATION_CAUSES)[number];
