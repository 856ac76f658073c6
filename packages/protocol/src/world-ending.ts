/**
 * How a world ends, chosen at creation (14.3.1: "game length set in advance, or play until a set
 * time"): open-ended as the Open Scenario is by default, until a game turn, or until a date; and
 * whether its results change the players' ratings (docs/ratings.md).
 */
import { z } from 'zod';

/** Longer than any world has run; a bound, so a typo cannot make a world that never ends. */
const MAX_LAST_TURN = 1000;

export const worldEndingSchema = z
  .object({
    until: z.enum(['open', 'turn', 'date']).default('open'),
    /** `until: 'turn'`: the last game turn played. */
    turn: z.number().int().min(1).max(MAX_LAST_TURN).optional(),
    /** `until: 'date'`: play stops at the first turn end after this moment. */
    at: z.iso.datetime({ offset: true }).optional(),
    rated: z.boolean().default(true),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.until === 'turn' && e.turn === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['turn'],
        message: 'a world played until a turn needs that turn',
      });
    if (e.until === 'date' && e.at === undefined)
      ctx.addIssue({ code: 'custom', path: ['at'], message: 'a world played until a date needs that date' });
  });
