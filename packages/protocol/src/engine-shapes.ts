/**
 * The engine's own shapes on the wire. Orders come in and are parsed with the engine's schemas
 * (declared once, in @bke/engine's model). Views, legal orders and events go out: the engine made
 * them, so they are typed as the engine's types and only checked for their outline here; the
 * generated reference points at the engine's types for their fields.
 */
import type * as Engine from '@bke/engine/types';
import { z } from 'zod';

/**
 * A shape as JSON carries it: the engine's branded ids (`AreaId`, `UnitId`, `PlayerId`) are plain
 * strings once they leave it, so a client holds them as strings; every other field is the engine's.
 */
type Plain<T> = T extends string
  ? T extends z.$brand
    ? string
    : T
  : T extends object
    ? { [K in keyof T]: Plain<T[K]> }
    : T;

/** The engine's types as a client receives and sends them (@bke/engine/types, ids as strings). */
export type GameView = Plain<Engine.GameView>;
export type ViewPlayer = Plain<Engine.PlayerState>;
export type ViewUnit = Plain<Engine.Unit>;
export type Step = Plain<Engine.Step>;
export type GameEvent = Plain<Engine.GameEvent>;
export type LegalOrder = Plain<Engine.LegalOrder>;
export type Order = Plain<Engine.Order>;
export type EconomicPlan = Plain<Engine.EconomicPlan>;
export type Consequence = Plain<Engine.Consequence>;
export type Foreseen = Plain<Engine.Foreseen>;
export type Standing = Plain<Engine.Standing>;
export type { PlayerPhase, StartPosition, StepKind } from '@bke/engine/types';

/** The server's own fact in a world's events: a moderator took the world back to the start of `turn`. */
interface WorldRolledBack {
  readonly type: 'worldRolledBack';
  readonly turn: number;
  /** The order the world went back to (its state is the one after it). */
  readonly toSeq: number;
}

/** An event as a world's log carries it: one of the engine's facts, or the server's own. */
export type WorldEvent = GameEvent | WorldRolledBack;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const hasType = (v: unknown): boolean => isObject(v) && typeof v.type === 'string';

/** A viewer's `GameView` (@bke/engine/types, src/model/view.ts): the state as this viewer may see it. */
export const gameViewSchema = z
  .custom<GameView>(isObject)
  .meta({ description: "The engine's GameView for this viewer (@bke/engine/types)." });

/** A `WorldEvent`: a fact an order made happen (src/model/events.ts), worded by the client. */
export const worldEventSchema = z.custom<WorldEvent>(hasType).meta({
  description: "One of the engine's GameEvent facts (@bke/engine/types), by `type`, or `worldRolledBack`.",
});

/** A `LegalOrder` (src/model/legal-orders.ts): what the player may send now, grouped. */
export const legalOrderSchema = z
  .custom<LegalOrder>(hasType)
  .meta({ description: "One of the engine's LegalOrder entries (@bke/engine/types), by `type`." });

/**
 * An `EconomicPlan` as the plan-cost question carries it: the engine prices and checks it (an
 * `order/invalid` answer names what is wrong), so only its outline is checked here.
 */
export const economicPlanOutlineSchema = z
  .custom<EconomicPlan>(isObject)
  .meta({ description: "The engine's EconomicPlan (the `plan` of a `realmPlan` order)." });
