/**
 * The bot levels' ratings as measured in the arena (`npm run -s arena -- --ratings-out
 * packages/engine/src/bot/ratings.json`, src/cli/arena.ts): Bradley–Terry on the Elo scale with
 * 95% intervals and mean best-cycle VP (ladder.ts). A committed file, checked here when loaded, so
 * the server and the create form show measured strength, never a claimed one.
 */
import { z } from 'zod';
import { BOT_LEVELS } from './level-names.ts';
import ratingsJson from './ratings.json';

const rungSchema = z.object({
  rating: z.number(),
  low: z.number(),
  high: z.number(),
  meanBestCycleVp: z.number(),
});
export type LevelRating = z.infer<typeof rungSchema>;

export const botRatingsSchema = z.object({
  /** The arena command line that measured them, and the machine's load average meanwhile. */
  command: z.string(),
  loadAverage: z.string().optional(),
  games: z.number().int().min(0),
  turns: z.number().int().min(1).optional(),
  levels: z.partialRecord(z.enum(BOT_LEVELS), rungSchema),
});
export type BotRatings = z.infer<typeof botRatingsSchema>;

export const BOT_RATINGS: BotRatings = botRatingsSchema.parse(ratingsJson);
