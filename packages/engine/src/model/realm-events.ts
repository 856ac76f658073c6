/**
 * Facts of the kingdom, empire and cycle rules (STYLE habit 6), for the log, the chronicle and
 * replays. Merged by the core into GameEvent.
 */

import type { RebellionResult } from '../realm/rebellion.ts';
import type { LedgerRow } from '../realm/record.ts';
import type { AdministrationResult } from '../tables/administration.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { UnitKind } from './units.ts';

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
