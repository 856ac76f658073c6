/** @bke/engine: the rules engine of BKE Online (issue 4, part 1). */
export * from './engine.ts';
export * from './errors.ts';
export type * from './events.ts';
export * from './hash.ts';
export * from './ids.ts';
export * from './map-index.ts';
export * from './options.ts';
export * from './order-schema.ts';
export * from './orders.ts';
export * from './people.ts';
export * from './result.ts';
export * from './rng.ts';
export * from './setup.ts';
export { type Chooser, expand } from './sim/expand.ts';
export { type SimRun, type SimSummary, simSetup, simulate, summarise } from './sim/play.ts';
export { type Policy, seededChooser, simplePolicy } from './sim/policy.ts';
export * from './state.ts';
export * from './units.ts';
