/**
 * Bot levels: what a world's creator picks for a bot seat. `easy` plays the simulator's simple
 * rule-following policy (it grows, combines, walks to the nearest neutral city, attacks at 2-1,
 * buys and administers at random); `strong` plays the strategy of strong.ts. Both choose only
 * among the engine's legal orders.
 */
import type { Policy } from '../sim/policy.ts';
import { simplePolicy } from '../sim/policy.ts';
import type { Clock } from './clock.ts';
import { strongPolicy } from './strong.ts';

export const BOT_LEVELS = ['easy', 'strong'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** A bot of a level, seeded (its own choices never use the game's dice); `clock` bounds each decision. */
export function createBot(level: BotLevel, seed: string, clock?: () => Clock): Policy {
  return level === 'strong' ? strongPolicy(seed, clock) : simplePolicy(seed);
}
