/**
 * Events are facts (STYLE habit 6): enough for the log, animations, chronicle and replay; the
 * client words them. Combat facts come from src/combat.
 */

import type { RealmEvent } from '../realm/orders.ts';
import type { CombatEvent } from './combat-events.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { StartPosition } from './people.ts';
import type { PlayerPhase } from './state.ts';
import type { UnitKind } from './units.ts';

export type CoreEvent =
  | { type: 'playerJoined'; player: PlayerId; seat: number; turn: number }
  | { type: 'playerLeft'; player: PlayerId }
  | { type: 'turnStarted'; turn: number }
  | { type: 'moveOrderRolled'; player: PlayerId; dice: [number, number] }
  | { type: 'moveOrderFixed'; order: PlayerId[] }
  | { type: 'cycleStarted'; player: PlayerId; position: StartPosition; area: AreaId; cycle: number }
  | { type: 'startUnavailable'; player: PlayerId }
  | { type: 'phaseStarted'; player: PlayerId; phase: PlayerPhase }
  | { type: 'tribesCombined'; player: PlayerId; tribes: [UnitId, UnitId]; area: AreaId }
  | { type: 'tribeSplit'; player: PlayerId; tribe: UnitId; newTribe: UnitId; area: AreaId }
  | { type: 'unitMoved'; player: PlayerId; unit: UnitId; path: AreaId[] }
  | { type: 'leaderEliminated'; unit: UnitId; area: AreaId }
  | {
      type: 'seaCrossingRolled';
      player: PlayerId;
      tribe: UnitId;
      sea: AreaId;
      to: AreaId;
      die: number;
      success: boolean;
    }
  | { type: 'entryTribesPlaced'; player: PlayerId; areas: AreaId[]; units: UnitId[] }
  | { type: 'unitsRemoved'; player: PlayerId; units: UnitId[]; reason: RemovalReason }
  | {
      type: 'unitCreated';
      player: PlayerId;
      pair: [UnitId, UnitId];
      area: AreaId;
      die: number;
      units: UnitId[];
      kinds: UnitKind[];
      lost: UnitKind[];
      rerolls: number[];
    }
  | { type: 'economicPhaseStarted'; turn: number }
  | { type: 'cityOwnerChanged'; area: AreaId; from: PlayerId | null; to: PlayerId | null }
  | { type: 'taxCollected'; player: PlayerId; tax: number; cities: AreaId[] }
  | { type: 'cityPillaged'; player: PlayerId; area: AreaId; loot: number; digit: number }
  | { type: 'vpGained'; player: PlayerId; vp: number; total: number }
  | { type: 'administrationStarted'; turn: number }
  | { type: 'markerRemoved'; area: AreaId; digit: number; flippedToNeutral: boolean }
  | { type: 'continuityChecked'; player: PlayerId; groups: number; kept: AreaId[] }
  | {
      type: 'unrestRolled';
      player: PlayerId;
      kind: 'A' | 'B';
      die: number;
      unrest: boolean;
      lossDie?: number;
      loss?: number;
    }
  | { type: 'countdownStarted'; player: PlayerId; turn: number; units: number; kingdomTurn: number }
  | { type: 'becameKingdom'; player: PlayerId; turn: number; leader: UnitId | null; capital: AreaId | null }
  | { type: 'cycleEnded'; player: PlayerId; reason: CycleEndReason; vp: number }
  | { type: 'neutralPlaced'; area: AreaId; strength: number }
  | { type: 'neutralRemoved'; area: AreaId; reason: 'noCityNeighbour' | 'occupied' | 'persianStart' }
  /** 13.2.3: the Persian's chosen army and its leader are set up in Persia. */
  | {
      type: 'persianArmyPlaced';
      player: PlayerId;
      units: { id: UnitId; kind: UnitKind; area: AreaId }[];
      leader: UnitId;
    }
  | { type: 'turnEnded'; turn: number };

/** Why a cycle ended: abandoned (14.3), eliminated (engine decision), collapsed (11.7.2 result 7), left. */
export type CycleEndReason = 'abandoned' | 'eliminated' | 'collapsed' | 'left';

export type RemovalReason =
  | 'overstack'
  | 'tribeLimit'
  | 'continuity'
  | 'unrest'
  | 'conversion'
  | 'abandon'
  | 'desert'
  | 'seaCrossing'
  | 'lostAtSea';

export type GameEvent = CoreEvent | CombatEvent | RealmEvent;
