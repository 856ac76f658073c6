/** What the driver and its search workers say to each other (search-pool.ts, search-worker.ts). */
import type { GameState, Plan, PlayerId } from '@bke/engine';

/** Search `player`'s movement phase on `state` (the world as it stood) for at most `budgetMs`. */
export interface SearchAsk {
  id: number;
  state: GameState;
  player: PlayerId;
  budgetMs: number;
  seed: string;
}

export type SearchAnswer = { id: number; plan: Plan } | { id: number; failed: string };
