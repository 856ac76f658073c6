/** The rating pools as players read them (docs/ratings.md, "Pools"). */
import type { RATING_POOLS } from '@bke/protocol';

export type RatingPool = (typeof RATING_POOLS)[number];

export const POOL_WORDS: Record<RatingPool, { tab: string; long: string }> = {
  all: { tab: 'All worlds', long: 'every rated world' },
  basic: { tab: 'Basic victory', long: 'worlds won by the best single cycle (14.3.1)' },
  advanced: { tab: 'Advanced victory', long: 'worlds won by victory points per turn played (14.3.2)' },
};
