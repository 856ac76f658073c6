/**
 * Events are facts, never words: what an order made happen, enough for the log, the animations,
 * the chronicle and a replay. The client words them. Three families: the turn and the barbarian
 * stage (`CoreEvent`), the combat phase (`CombatEvent`), kingdoms, empires and the optional
 * diplomacy (`RealmEvent`).
 */
import type { CombatResult } from './combat.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { StartPosition } from './people.ts';
import type { AdministrationResult, LedgerRow, RebellionResult } from './realm.ts';
import type { PlayerPhase } from './state.ts';
import type { UnitKind } from './units.ts';
import type { Standing } from './view.ts';

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
  | { type: 'turnEnded'; turn: number }
  /** 14.3.1: the world's set length is reached; `standings` is the final table's source. */
  | { type: 'worldEnded'; turn: number; reason: 'turnLimit' | 'date'; standings: Standing[] };

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

/** Facts of the combat phase (7, 8). */
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

/** Facts of kingdoms, empires, the record sheet and the optional diplomacy (10, 11, 13, 14.3.3). */
export type RealmEvent =
  | {
      type: 'capitalCaptured';
      player: PlayerId;
      by: PlayerId;
      area: AreaId;
      kept: number;
      plunder: number;
      lost: number;
    }
  | {
      type: 'capitalPlaced';
      player: PlayerId;
      area: AreaId | null;
      reason: 'captured' | 'revival' | 'founded' | 'regained';
    }
  | { type: 'realmTaxCollected'; player: PlayerId; tax: number; other: number; cities: AreaId[] }
  | { type: 'unsupportedRemoved'; player: PlayerId; units: UnitId[] }
  | { type: 'upkeepPaid'; player: PlayerId; upkeep: number; disbanded: UnitId[] }
  | {
      type: 'unitsPurchased';
      player: PlayerId;
      units: { id: UnitId; kind: UnitKind; area: AreaId }[];
      cost: number;
    }
  | { type: 'administrationBought'; player: PlayerId; percent: number; cost: number }
  | {
      type: 'administrationRolled';
      player: PlayerId;
      percent: number;
      dice: [number, number];
      result: AdministrationResult;
    }
  | { type: 'becameEmpire'; player: PlayerId; turn: number; garrisons: UnitId[]; removed: UnitId[] }
  | {
      type: 'rebellionRolled';
      player: PlayerId;
      dice: [number, number];
      result: RebellionResult;
      cause: string;
    }
  | { type: 'citiesRevolted'; player: PlayerId; cities: AreaId[]; units: UnitId[]; reason: string }
  | { type: 'treasuryLost'; player: PlayerId; amount: number }
  | { type: 'realmUnitsRemoved'; player: PlayerId; units: UnitId[]; reason: string }
  | { type: 'unitDefected'; from: PlayerId; to: PlayerId; unit: UnitId; newUnit: UnitId }
  | { type: 'revival'; player: PlayerId; turn: number }
  | { type: 'coupDeclared'; player: PlayerId; turn: number }
  | {
      type: 'shipSinkingRolled';
      player: PlayerId;
      ship: UnitId;
      seas: number;
      die: number;
      modifier: number;
      sunk: boolean;
    }
  | { type: 'leaderTypeRolled'; player: PlayerId; die: number; leaderType: string }
  | { type: 'tributePaid'; from: PlayerId; to: PlayerId; amount: number }
  | {
      type: 'unitAuctioned';
      auctioneer: PlayerId;
      unit: UnitId;
      winner: PlayerId;
      bid: number;
      newUnit: UnitId;
    }
  | {
      type: 'shipIntercepted';
      player: PlayerId;
      ship: UnitId;
      /** 8.1 grouping: every ship of a group moving together (lead first), when more than one. */
      group?: UnitId[];
      sea: AreaId;
      by: PlayerId;
      interceptors: UnitId[];
      odds: string;
      dice: [number, number];
      result: string;
    }
  | { type: 'ledgerRow'; row: LedgerRow }
  /** 13.6 capture and ransom (opt.optionalLeaders); `area` null: no friendly unit to come back to. */
  | {
      type: 'leaderCaptured';
      leader: UnitId;
      owner: PlayerId;
      captor: PlayerId;
      holder: UnitId;
      area: AreaId;
    }
  | { type: 'leaderFreed'; leader: UnitId; owner: PlayerId; captor: PlayerId; area: AreaId | null }
  | { type: 'ransomOffered'; leader: UnitId; owner: PlayerId; captor: PlayerId; amount: number }
  | {
      type: 'ransomPaid';
      leader: UnitId;
      owner: PlayerId;
      captor: PlayerId;
      amount: number;
      area: AreaId | null;
    }
  | { type: 'leaderExecuted'; leader: UnitId; owner: PlayerId; captor: PlayerId }
  | { type: 'prisonerMoved'; leader: UnitId; captor: PlayerId; holder: UnitId }
  /** 13.4 mercenary leases (opt.mercenaries). */
  | { type: 'leaseOffered'; owner: PlayerId; hirer: PlayerId; units: UnitId[]; price: number }
  | { type: 'leaseAccepted'; owner: PlayerId; hirer: PlayerId; price: number }
  /** Either side ended it: at once if not in force yet, else at the next turn start. */
  | { type: 'leaseEnded'; owner: PlayerId; hirer: PlayerId; by: PlayerId; atTurnStart: boolean }
  | { type: 'leaseStarted'; owner: PlayerId; hirer: PlayerId; units: UnitId[]; price: number }
  /** An accepted lease that could not start (the hirer could not pay, or a party no longer qualifies). */
  | { type: 'leaseLapsed'; owner: PlayerId; hirer: PlayerId }
  /** 13.4: the hirer's mercenaries pillaged its city; the loot went to their barbarian owner. */
  | { type: 'mercenaryPillage'; hirer: PlayerId; owner: PlayerId; area: AreaId; loot: number; digit: number }
  | {
      type: 'leaseDissolved';
      owner: PlayerId;
      hirer: PlayerId;
      units: UnitId[];
      reason: 'ended' | 'ownerGone' | 'hirerGone';
    };
