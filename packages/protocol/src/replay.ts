/** A past game turn replayed for one viewer: the board as the turn began, then each order's patch. */
import { z } from 'zod';
import { gameViewSchema, worldEventSchema } from './engine-shapes.ts';
import { patchOpSchema } from './patch.ts';

export const turnReplaySchema = z.object({
  turn: z.number().int(),
  /** The viewer's view just before the turn's first order (the board as the turn began). */
  start: z.object({ seq: z.number().int(), view: gameViewSchema }),
  /**
   * Each order of the turn, in log order: the ops taking the viewer's previous view to its view
   * after this order, and the order's events the viewer was sent.
   */
  steps: z.array(
    z.object({
      seq: z.number().int(),
      ops: z.array(patchOpSchema),
      events: z.array(worldEventSchema),
    }),
  ),
});
export type TurnReplay = z.infer<typeof turnReplaySchema>;
