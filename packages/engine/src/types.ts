/**
 * `@bke/engine/types`: what the engine speaks in, for the protocol and the client, without the
 * engine itself — the view, orders and legal orders, events, error codes and the state's shapes.
 * Types only, except closed vocabularies that load nothing else: the error codes (every code the
 * engine can return, each needing words on screen), the player-turn phases and the named
 * Administration Table results, the bot levels and their sentences.
 */
export {
  BOT_LEVEL_TEXT,
  BOT_LEVELS,
  type BotLevel,
  botLevelFrom,
  GENTLEST_BOT_LEVEL,
} from './bot/level-names.ts';
export type * from './model/colours.ts';
export type * from './model/combat.ts';
export type * from './model/consequences.ts';
export type * from './model/errors.ts';
export { COMBAT_ERROR_CODES, CORE_ERROR_CODES, ERROR_CODES } from './model/errors.ts';
export type * from './model/events.ts';
export type * from './model/ids.ts';
export type * from './model/legal-orders.ts';
export type * from './model/options.ts';
export type * from './model/orders.ts';
export type * from './model/people.ts';
export type * from './model/realm.ts';
export { ADMINISTRATION_EVENTS } from './model/realm.ts';
export type * from './model/result.ts';
export type * from './model/state.ts';
export { PLAYER_PHASES, STEP_KINDS } from './model/state.ts';
export type * from './model/units.ts';
export type * from './model/view.ts';
export type { RealmPlanCost } from './realm/plan-cost.ts';
