/**
 * @bke/engine: the rules engine of BKE Online. The contract (`createEngine`), the state, orders,
 * views, events and error codes it speaks in, the set-up schema, and the simulator. Types alone
 * are also at `@bke/engine/types`, the wire's schemas at `@bke/engine/schemas`.
 */

export {
  positionFromView,
  type VisiblePosition,
} from './analysis/position-from-view.ts';
export { diceFacesSchema, withNextRoll } from './analysis/set-dice.ts';
export { openPosition, sharePosition } from './analysis/shared-position.ts';
export { budget, type Clock, UNBOUNDED } from './bot/clock.ts';
export { type ExpertPolicy, type Plan, search as expertSearch } from './bot/expert.ts';
export {
  BOT_LEVEL_TEXT,
  BOT_LEVELS,
  type BotLevel,
  botLevelFrom,
  createBot,
  GENTLEST_BOT_LEVEL,
} from './bot/levels.ts';
export * from './engine.ts';
export * from './model/colours.ts';
export type * from './model/consequences.ts';
export * from './model/errors.ts';
export type * from './model/events.ts';
export * from './model/game-record.ts';
export * from './model/hash.ts';
export * from './model/ids.ts';
export type * from './model/legal-orders.ts';
export * from './model/map-index.ts';
export * from './model/options.ts';
export * from './model/orders.ts';
export * from './model/people.ts';
export * from './model/position-link.ts';
export { initialRealmPlayer } from './model/realm.ts';
export * from './model/result.ts';
export * from './model/rng.ts';
export * from './model/state.ts';
export * from './model/units.ts';
export { isCurrentState, upgradeState, upgradeView } from './model/upgrade.ts';
export type * from './model/view.ts';
export { type RealmPlanCost, realmPlanCost } from './realm/plan-cost.ts';
export { playerScore, standingOf, standingsOf } from './realm/record.ts';
export * from './record/replay.ts';
export * from './record/write.ts';
export * from './scenario/setup.ts';
export { type SimRun, type SimSummary, simSetup, simulate, summarise } from './sim/play.ts';
export { type Policy, seededChooser, simplePolicy } from './sim/policy.ts';
export { CRT, CRT_ROLLS, crtChances, crtResult } from './tables/crt.ts';
export { type Chooser, expand } from './turn/concrete-orders.ts';
export { VIEWER_KEYS } from './viewers/game-view.ts';
