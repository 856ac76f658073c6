/**
 * Orders: everything a player (or the server, as `system`) can decide. Each order is declared once,
 * as a zod schema (the wire's shape); its TypeScript type is inferred from it. The engine alone
 * judges legality: a parsed order may still be refused with an error code.
 */
import { z } from 'zod';
import { colourSchema } from './colours.ts';
import { areaIdSchema, type PlayerId, playerIdSchema, unitIdSchema } from './ids.ts';
import { startPositionSchema } from './people.ts';
import { unitKindSchema } from './units.ts';

/** Orders of the turn, the barbarian stage and the server (4, 5.1, 6, 9, 10.1, 14.3). */
export const CORE_ORDER_SCHEMAS = [
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
    colour: colourSchema,
  }),
  /** A player leaves for good (14.3): units removed, neutral garrisons in their cities. */
  z.object({ type: z.literal('leave'), player: playerIdSchema }),
  /** An administrator forces an abandon now (same effect as 14.3 abandoning). */
  z.object({ type: z.literal('forceAbandon'), player: playerIdSchema }),
  /**
   * The world's chosen length is reached (14.3.1: "game length set in advance, or play until a set
   * time"): the game ends where it stands; the standings are the final table.
   */
  z.object({ type: z.literal('endWorld'), reason: z.enum(['turnLimit', 'date']) }),
] as const;

/** Orders of the combat phase (7, 8.2, 8.4, 11.4). */
export const COMBAT_ORDER_SCHEMAS = [
  /** 7.1: attack the unfriendly units of one adjacent area with these units. */
  z.object({
    type: z.literal('combatAttack'),
    target: areaIdSchema,
    attackers: z.array(unitIdSchema).min(1).max(24),
  }),
  /** 7.3: retreat one unit along a path (areas entered in order). */
  z.object({ type: z.literal('combatRetreat'), unit: unitIdSchema, path: z.array(areaIdSchema).max(3) }),
  /** 7.2 EX: the units given up. */
  z.object({ type: z.literal('combatExchangeLoss'), units: z.array(unitIdSchema).max(24) }),
  /** 7.2: one unit advances into a vacated area, or pursues to an area on a retreat path. */
  z.object({ type: z.literal('combatAdvance'), unit: unitIdSchema, to: areaIdSchema }),
  /** 7.2: no further unit advances or pursues. */
  z.object({ type: z.literal('combatStop') }),
  /** 11.4: the owner of elites given a retreat accepts it or refuses it. */
  z.object({ type: z.literal('combatEliteChoice'), refuse: z.boolean() }),
  /** 11.4: after a refusal the attacker rerolls (until no retreat for the elite's side) or aborts. */
  z.object({ type: z.literal('combatReroll'), abort: z.boolean() }),
  /** 8.4: after DE against a lone ship, capture it (one attacking unit must advance) or not. */
  z.object({ type: z.literal('combatCapture'), capture: z.boolean() }),
  /** End the combat phase (no combat may be pending, no naval landing owed). */
  z.object({ type: z.literal('combatDone') }),
] as const;

/** 4.5.2–4.5.3: what a kingdom or empire decided for its economic phase. */
export const economicPlanSchema = z.object({
  /** Units disbanded because upkeep cannot be paid (10.4; minimal set, AMBIG-32). */
  disband: z.array(unitIdSchema).max(80),
  /** Isolated empire garrisons disbanded at will (11.3). */
  garrisonDisband: z.array(unitIdSchema).max(80),
  /** Units bought at twice upkeep (10.5, 11.2). */
  purchases: z.array(z.object({ kind: unitKindSchema, area: areaIdSchema })).max(40),
  /** The Administration Table column bought, in percent of unmodified income (10.6.1). */
  adminPercent: z.number().int().min(0).max(100),
  /** 10.3: where the capital marker goes if it must be placed (captured or off board). */
  capital: areaIdSchema.nullable().optional(),
});

/** Orders of kingdoms and empires (4.5, 4.6, 10, 11) and of the optional diplomacy (13.3–13.7, 8.1). */
export const REALM_ORDER_SCHEMAS = [
  /** 4.5.2–4.5.3: upkeep disbanding, purchases, administration column (and the capital if it must move). */
  z.object({ type: z.literal('realmPlan'), plan: economicPlanSchema }),
  /** 11.7.2: the units chosen (removed, or for a defection the one taken; [] to take none). */
  z.object({ type: z.literal('realmUnits'), units: z.array(unitIdSchema).max(80) }),
  /** 11.7.2 results 5/10: the province that revolts. */
  z.object({ type: z.literal('realmProvince'), province: z.string().min(1).max(80) }),
  /** 11.7.2 result 6 (revolting cities) or 4 (the city the pirates pillage). */
  z.object({ type: z.literal('realmCities'), cities: z.array(areaIdSchema).max(80) }),
  /** 10.6.2 Revival: where the capital goes (null: it stays). */
  z.object({ type: z.literal('realmCapital'), area: areaIdSchema.nullable() }),
  /** 11.1: the 4-2s that become (4)-0 garrisons. */
  z.object({ type: z.literal('realmGarrisons'), units: z.array(unitIdSchema).max(80) }),
  /** 13.3 (opt.auction): a standing bid for a unit of this kind if that empire auctions one now. */
  z.object({
    type: z.literal('realmBid'),
    auctioneer: playerIdSchema,
    kind: unitKindSchema,
    amount: z.number().int().min(1).max(999),
  }),
  /** 8.1: the player's standing choice whether its ships intercept (yes by default). */
  z.object({ type: z.literal('realmInterception'), intercept: z.boolean() }),
  /** 13.7 (opt.tribute): pay tribute to the phasing player before its combat phase. */
  z.object({
    type: z.literal('realmTribute'),
    to: playerIdSchema,
    amount: z.number().int().min(1).max(99),
  }),
  /** 13.6 (opt.optionalLeaders): the captor's ransom demand for a prisoner. */
  z.object({
    type: z.literal('realmRansomOffer'),
    leader: unitIdSchema,
    amount: z.number().int().min(1).max(999),
  }),
  /** 13.6: the leader's owner pays the demanded ransom and gets the leader back. */
  z.object({ type: z.literal('realmRansomAccept'), leader: unitIdSchema }),
  /** 13.6: the captor executes a prisoner (its own player turn only). */
  z.object({ type: z.literal('realmExecute'), leader: unitIdSchema }),
  /** 13.6: the captor hands a prisoner to another of its units in the same area (its movement phase). */
  z.object({ type: z.literal('realmPrisonerMove'), leader: unitIdSchema, holder: unitIdSchema }),
  /** 13.4 (opt.mercenaries): a barbarian offers these combat units to a kingdom or empire for a price. */
  z.object({
    type: z.literal('realmLeaseOffer'),
    hirer: playerIdSchema,
    units: z.array(unitIdSchema).min(1).max(40),
    price: z.number().int().min(0).max(999),
  }),
  /** 13.4: the hirer accepts the owner's offer (in force from the next turn start, price paid then). */
  z.object({ type: z.literal('realmLeaseAccept'), owner: playerIdSchema }),
  /** 13.4 (AMBIG-21): the hirer's mercenaries pillage this city of its at this economic phase. */
  z.object({ type: z.literal('realmMercenaryPillage'), area: areaIdSchema }),
  /** 13.4: either side ends the agreement with the other player (`with`). */
  z.object({ type: z.literal('realmLeaseEnd'), with: playerIdSchema }),
] as const;

/** AMBIG-15: in coastal area `at` on the path (not its end) the ship drops `unload`, then takes `load`. */
const shipStopSchema = z.object({
  at: areaIdSchema,
  load: z.array(unitIdSchema).max(2).default([]),
  unload: z.array(unitIdSchema).max(2).default([]),
});

/** Orders of ships in the movement phase (5.2, 8.1, 8.2). */
export const NAVAL_ORDER_SCHEMAS = [
  /**
   * 5.2: a ship sails `path` (start excluded), carrying `cargo` from its start area; `stops` pick up
   * and drop off units in coastal areas passed on the way (AMBIG-15). A path whose last area holds
   * unfriendly units, entered from a sea area, is a naval landing (8.2).
   */
  z.object({
    type: z.literal('shipMove'),
    ship: unitIdSchema,
    path: z.array(areaIdSchema).min(1).max(12),
    cargo: z.array(unitIdSchema).max(2),
    stops: z.array(shipStopSchema).max(12).optional(),
    /**
     * 8.1 grouping: more ships of the same player sailing the same `path` together, each with its own
     * cargo, from the lead ship's area — or first along the coast into it (`approach`, no sea area,
     * ending in the lead ship's area). Not with `stops`.
     */
    with: z
      .array(
        z.object({
          ship: unitIdSchema,
          cargo: z.array(unitIdSchema).max(2),
          approach: z.array(areaIdSchema).min(1).max(3).optional(),
        }),
      )
      .max(5)
      .optional(),
  }),
] as const;

/** Who gives an order: a player, or the server for its own orders (`join`, `leave`, `forceAbandon`, `endWorld`). */
export type Actor = PlayerId | 'system';

/** Every order's schema, by family. */
export const ORDER_SCHEMAS = [
  ...CORE_ORDER_SCHEMAS,
  ...COMBAT_ORDER_SCHEMAS,
  ...REALM_ORDER_SCHEMAS,
  ...NAVAL_ORDER_SCHEMAS,
] as const;

/** The wire schema of every order. */
export const orderSchema = z.discriminatedUnion('type', ORDER_SCHEMAS);

export type Order = z.infer<typeof orderSchema>;
export type CoreOrder = z.infer<(typeof CORE_ORDER_SCHEMAS)[number]>;
export type CombatOrder = z.infer<(typeof COMBAT_ORDER_SCHEMAS)[number]>;
export type RealmOrder = z.infer<(typeof REALM_ORDER_SCHEMAS)[number]>;
export type NavalOrder = z.infer<(typeof NAVAL_ORDER_SCHEMAS)[number]>;
export type OrderType = Order['type'];
export type EconomicPlan = z.infer<typeof economicPlanSchema>;
export type ShipStop = z.infer<typeof shipStopSchema>;
export type PersianArmyOrder = Extract<Order, { type: 'persianArmy' }>;

/** One schema per order type: parsing goes straight to it (much faster than trying the union). */
const SCHEMA_BY_TYPE = new Map<string, z.ZodType>(
  ORDER_SCHEMAS.map((schema) => [schema.shape.type.value, schema]),
);

/**
 * Orders that are their type alone (`endPhase`, `combatDone`, `combatStop`, `undo`: about 40% of a
 * game's orders). Each schema is a plain (stripping) object of one literal, so zod's answer for
 * any non-array object carrying such a type is `{ type }`; it is given without running zod.
 */
const TYPE_ONLY = new Set(
  [...SCHEMA_BY_TYPE]
    .filter(([, schema]) => {
      const def = (schema as z.ZodObject)._zod.def;
      return Object.keys(def.shape).length === 1 && def.catchall === undefined;
    })
    .map(([type]) => type),
);

/** Parse untrusted input (the server's socket, the CLI's files) into an order. */
export function parseOrder(raw: unknown): { ok: true; order: Order } | { ok: false; issues: string } {
  const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && TYPE_ONLY.has(type) && !Array.isArray(raw))
    return { ok: true, order: { type } as Order };
  const schema = typeof type === 'string' ? SCHEMA_BY_TYPE.get(type) : undefined;
  const r = (schema ?? orderSchema).safeParse(raw);
  return r.success ? { ok: true, order: r.data as Order } : { ok: false, issues: r.error.message };
}
