/**
 * Bot levels: what a world's creator picks for a bot seat, gentlest first (level-names.ts has
 * their names and sentences). `novice` is the simple policy with a newcomer's habits; `easy` the
 * simulator's simple rule-following policy; `normal` the strong strategy that often plays the
 * obvious move instead; `strong` the strategy of strong.ts; `expert` the strong strategy with
 * a search over whole movement phases on samples of what its seat sees (expert.ts). All choose only among the engine's legal orders.
 */
import type { Policy } from '../sim/policy.ts';
import { simplePolicy } from '../sim/policy.ts';
import type { Clock } from './clock.ts';
import { expertPolicy } from './expert.ts';
import { STRONG_GUARD } from './guard.ts';
import type { BotLevel } from './level-names.ts';
import { normalPolicy } from './normal.ts';
import { novicePolicy } from './novice.ts';
import { strongPolicy } from './strong.ts';

export {
  BOT_LEVEL_TEXT,
  BOT_LEVELS,
  type BotLevel,
  botLevelFrom,
  GENTLEST_BOT_LEVEL,
} from './level-names.ts';

/** A bot of a level, seeded (its own choices never use the game's dice); `clock` bounds each decision. */
export function createBot(level: BotLevel, seed: string, clock?: () => Clock): Policy {
  switch (level) {
    case 'novice':
      return novicePolicy(seed);
    case 'easy':
      return simplePolicy(seed);
    case 'normal':
      return normalPolicy(seed, STRONG_GUARD, clock);
    case 'strong':
      return strongPolicy(seed, clock);
    case 'expert':
      return expertPolicy(seed, clock);
  }
}
