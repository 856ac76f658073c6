/**
 * Ratings on the wire (docs/ratings.md): a rating as a player reads it (on the bot ladder's Elo
 * scale, with its uncertainty and whether it is still provisional), a world's final table with what
 * it did to each person's rating, and the leaderboards.
 */
import { BOT_LEVELS } from '@bke/engine/types';
import { z } from 'zod';

export const RATING_POOLS = ['all', 'basic', 'advanced'] as const;
const ratingPoolSchema = z.enum(RATING_POOLS);

export const shownRatingSchema = z.object({
  rating: z.number().int(),
  /** One standard deviation, in rating points. */
  uncertainty: z.number().int(),
  provisional: z.boolean(),
  /** Rated results taken in. */
  results: z.number().int(),
});

export const finalTableResponseSchema = z.object({
  worldId: z.string(),
  victory: z.enum(['basic', 'advanced']),
  rated: z.boolean(),
  rows: z.array(
    z.object({
      playerId: z.string(),
      /** The account's name, or null for a bot's seat. */
      username: z.string().nullable(),
      bot: z.enum(BOT_LEVELS).nullable(),
      rank: z.number().int(),
      /** Best-cycle VP (basic) or VP per turn played (advanced). */
      score: z.number(),
      /** The `all` rating before and after this result; null for a bot or an unrated world. */
      ratingBefore: z.number().int().nullable(),
      ratingAfter: z.number().int().nullable(),
      /** Whether the rating after this result was still provisional; null with no rating. */
      provisional: z.boolean().nullable(),
    }),
  ),
});

export const leaderboardQuerySchema = z.object({ pool: ratingPoolSchema.default('all') }).strict();

export const leaderboardResponseSchema = z.object({
  pool: ratingPoolSchema,
  rows: z.array(
    z.object({
      rank: z.number().int(),
      username: z.string(),
      /** A bot account (a person's program): the name of the person who runs it. */
      programOwner: z.string().optional(),
      rating: z.number().int(),
      /** One standard deviation, in rating points. */
      uncertainty: z.number().int(),
      results: z.number().int(),
    }),
  ),
  /** Rated players of the pool left off because their rating is still provisional. */
  provisional: z.number().int(),
});

export const ratingHistorySchema = z.array(
  z.object({
    at: z.string(),
    worldId: z.string(),
    worldName: z.string(),
    rank: z.number().int(),
    before: z.number().int(),
    after: z.number().int(),
  }),
);
/** A world's final table as one player's line on their profile. */
export const finishedResultSchema = z.object({
  worldId: z.string(),
  worldName: z.string(),
  /** When the result was recorded. */
  at: z.string(),
  rank: z.number().int(),
  /** Seats in the table, bots included. */
  of: z.number().int(),
  victory: z.enum(['basic', 'advanced']),
  rated: z.boolean(),
});

export type FinalTableResponse = z.infer<typeof finalTableResponseSchema>;
export type LeaderboardResponse = z.infer<typeof leaderboardResponseSchema>;
