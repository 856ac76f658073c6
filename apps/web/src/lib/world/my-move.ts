/**
 * Whether the world waits for this viewer: the world page's banner and the tab title say "Your
 * move" from it, and the lobby's list of worlds from the summary the server sends.
 */

import type { GameView } from '@bke/protocol';
import type { WorldSummary } from '../lobby.ts';
import type { WorldStatusMessage } from './link.ts';

/** A paused or closed world takes no orders: nobody's move until it runs again. */
export const isHalted = (status: WorldStatusMessage | null): boolean =>
  status?.status === 'paused' || status?.status === 'closed';

/** On the world page: waited for and not yet declared ready (the view's list follows every patch). */
export function isMyMove(view: GameView, status: WorldStatusMessage | null): boolean {
  if (isHalted(status)) return false;
  if (view.viewer === null || !view.waitingFor.includes(view.viewer)) return false;
  return !(status?.ready ?? []).includes(view.viewer);
}

/** In the lobby: the world waits for the seat this account holds. */
export function isMyMoveIn(world: WorldSummary, userId: string | null | undefined): boolean {
  if (!userId || world.status !== 'running') return false;
  const seat = world.seats.find((s) => s.userId === userId && !s.left);
  return !!seat && world.waitingFor.includes(seat.playerId);
}
