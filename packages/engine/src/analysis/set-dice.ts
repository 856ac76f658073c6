/**
 * The analysis board's set dice: the person decides what the next roll shows, to see a line play
 * out under a given result (7.1: an attack's two dice). The faces go where the engine already takes
 * scripted dice from before its PRNG (model/dice.ts), so every rule rolls them as it would roll any
 * die. Only the board calls this: a world's state never has dice set (the server has no path to
 * it), and a position built from a view starts without any (analysis/position-from-view.ts).
 */
import { z } from 'zod';
import { type PositionResult, refusePosition } from '../model/position-link.ts';
import type { GameState } from '../model/state.ts';

/** The faces of the next roll, in the order the rules read them (one die, or 2d6 as two). */
export const diceFacesSchema = z.array(z.number().int().min(1).max(6)).min(1).max(12);

/** The state whose next dice are `faces` (replacing any set before and not yet rolled). */
export function withNextRoll(state: GameState, faces: readonly number[]): PositionResult<GameState> {
  const parsed = diceFacesSchema.safeParse(faces);
  if (!parsed.success)
    return refusePosition('position/invalid', 'dice faces are whole numbers from 1 to 6, at most 12 of them');
  return { ok: true, value: { ...state, riggedDice: parsed.data } };
}
