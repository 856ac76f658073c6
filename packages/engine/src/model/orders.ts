/**
 * Orders: everything a player (or the server, as 'system') can decide, as a discriminated
 * union with zod schemas for the wire (STYLE habit 4). The engine alone judges legality.
 * Combat-phase orders come from src/combat and are merged in ./order-schema.ts.
 */
import { z } from 'zod';
import type { PersianArmyOrder } from '../realm/persian.ts';
import {
  type AreaId,
  areaIdSchema,
  type PlayerId,
  playerIdSchema,
  type UnitId,
  unitIdSchema,
} from './ids.ts';
import { type StartPosition, startPositionSchema } from './people.ts';
import { COLOURS } from './state.ts';
import { unitKindSchema } from './units.ts';

export const coreOrderSchemas = [
  /** 4.2: place the first tribe of a new cycle. */
  z.object({ type: z.literal('chooseStart'), position: startPositionSchema, area: areaIdSchema }),
  /** 13.2.3: the Persian's army (12 purchase value of kingdom units) and its leader, placed in Persia. */
  z.object({
    type: z.literal('persianArmy'),
    units: z
      .array(z.object({ kind: unitKindSchema, area: areaIdSchema }))
      .min(1)
      .max(6),
    leader: areaIdSchema,
  }),
  /** 4.3.1: two tribes move ≤1 area each into one area and are inverted. */
  z.object({ type: z.literal('combine'), tribes: z.tuple([unitIdSchema, unitIdSchema]), area: areaIdSchema }),
  /** 4.3.2 / 9.2: a tribe splits into two. */
  z.object({ type: z.literal('split'), tribe: unitIdSchema }),
  /** 5.1: move a unit along a path (start area excluded, destination last). */
  z.object({ type: z.literal('move'), unit: unitIdSchema, path: z.array(areaIdSchema).min(1).max(12) }),
  /** 13.1.1: a tribe tries a marked sea crossing instead of moving. */
  z.object({ type: z.literal('seaCrossing'), tribe: unitIdSchema, sea: areaIdSchema, to: areaIdSchema }),
  /** 13.2.2: Arab/African first turn: two tribes on "A" areas of the home province. */
  z.object({ type: z.literal('placeEntryTribes'), areas: z.tuple([areaIdSchema, areaIdSchema]) }),
  /** 6: remove one of your own units from an overstacked area (owner's choice). */
  z.object({ type: z.literal('disband'), unit: unitIdSchema }),
  /** 9.5: pillage an occupied city instead of taxing it. */
  z.object({ type: z.literal('pillage'), area: areaIdSchema }),
  /** 9.3.4: keep the group of tribes containing this area. */
  z.object({ type: z.literal('keepGroup'), area: areaIdSchema }),
  /** 9.3.5: the units lost to tribal unrest, chosen by their owner. */
  z.object({ type: z.literal('removeUnits'), units: z.array(unitIdSchema).max(60) }),
  /** 10.1: place the new kingdom's leader (with a combat unit) and capital (an owned city, or none). */
  // leaderWith null: no unit left to take the leader (e.g. all leased out, 13.4) — no leader (10.1).
  z.object({
    type: z.literal('foundKingdom'),
    leaderWith: unitIdSchema.nullable(),
    capital: areaIdSchema.nullable(),
  }),
  /** 14.3: abandon the position in this turn's administration phase (or take it back). */
  z.object({ type: z.literal('declareAbandon'), abandon: z.boolean() }),
  /** Finish the current phase or economic decision. */
  z.object({ type: z.literal('endPhase') }),
  /** Take back your last order of this phase (until a die is rolled or something is revealed). */
  z.object({ type: z.literal('undo') }),
  // ---- system orders (actor 'system') ----
  /** A player joins the world; they enter at the next turn start (4.2, 14.3). */
  z.object({
    type: z.literal('join'),
    player: playerIdSchema,
    name: z.string().min(1).max(60),
    seat: z.number().int().min(0).max(5),
    colour: z.enum(COLOURS),
  }),
  /** A player leaves for good (14.3): units removed, neutral garrisons in their cities. */
  z.object({ type: z.literal('leave'), player: playerIdSchema }),
  /** An administrator forces an abandon now (same effect as 14.3 abandoning). */
  z.object({ type: z.literal('forceAbandon'), player: playerIdSchema }),
] as const;

export type CoreOrder =
  | { type: 'chooseStart'; position: StartPosition; area: AreaId }
  | PersianArmyOrder
  | { type: 'combine'; tribes: [UnitId, UnitId]; area: AreaId }
  | { type: 'split'; tribe: UnitId }
  | { type: 'move'; unit: UnitId; path: AreaId[] }
  | { type: 'seaCrossing'; tribe: UnitId; sea: AreaId; to: AreaId }
  | { type: 'placeEntryTribes'; areas: [AreaId, AreaId] }
  | { type: 'disband'; unit: UnitId }
  | { type: 'pillage'; area: AreaId }
  | { type: 'keepGroup'; area: AreaId }
  | { type: 'removeUnits'; units: UnitId[] }
  | { type: 'foundKingdom'; leaderWith: UnitId | null; capital: AreaId | null }
  | { type: 'declareAbandon'; abandon: boolean }
  | { type: 'endPhase' }
  | { type: 'undo' }
  | { type: 'join'; player: PlayerId; name: string; seat: number; colour: (typeof COLOURS)[number] }
  | { type: 'leave'; player: PlayerId }
  | { type: 'forceAbandon'; player: PlayerId };

export const SYSTEM_ORDER_TYPES = ['join', 'leave', 'forceAbandon'] as const;

/**
 * Legal orders as the client needs them: grouped where listing every order would explode
 * (per unit its destinations with paths, like chessground's dests).
 */
export type CoreLegalOrder =
  | { type: 'chooseStart'; position: StartPosition; areas: AreaId[] }
  /** A concrete army with its default placement; `areas` lists where its units may go instead. */
  | (PersianArmyOrder & { areas: AreaId[] })
  | { type: 'combine'; tribes: [UnitId, UnitId]; areas: AreaId[] }
  | { type: 'split'; tribe: UnitId }
  | { type: 'move'; unit: UnitId; from: AreaId; destinations: { to: AreaId; path: AreaId[] }[] }
  | { type: 'seaCrossing'; tribe: UnitId; sea: AreaId; to: AreaId[] }
  | { type: 'placeEntryTribes'; areas: AreaId[] }
  | { type: 'disband'; unit: UnitId }
  | { type: 'pillage'; area: AreaId }
  | { type: 'keepGroup'; area: AreaId; group: AreaId[] }
  | { type: 'removeUnits'; count: number; candidates: UnitId[] }
  | { type: 'foundKingdom'; leaderWith: UnitId[]; capital: (AreaId | null)[] }
  | { type: 'declareAbandon'; abandon: boolean }
  | { type: 'endPhase' }
  | { type: 'undo' };
