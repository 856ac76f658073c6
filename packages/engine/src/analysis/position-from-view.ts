/**
 * A playable game built from what one person may see of it: the analysis board's starting point
 * (docs/analysis-board.md). A view (model/view.ts) is the game without its hidden parts; a game
 * needs them to be played on. Each is filled with a neutral default — one that decides nothing the
 * viewer could not see — and never with the hidden truth, which the view does not carry:
 *
 * - `rng`: a PRNG seeded from a seed the person chooses (a fresh one each board). The world's own
 *   PRNG would foretell every die of the real game (2.4 keeps only bookkeeping open).
 * - `riggedDice`: none. The board sets the next roll only when the person asks (analysis/set-dice.ts).
 * - `undo`: none. The view gives only who may take back, not the position before the window
 *   opened; on the board, taking back is stepping back.
 * - `realm.players[other]`: as the view has it, which is already neutral (realm/realm-view.ts): no
 *   standing bids (13.3 — that player bids nothing until it bids on the board) and no economic plan
 *   (4.5 — that player's default plan applies, as it would had it not decided yet).
 * - `realm.leases`: those the view shows (running ones and the viewer's own offers); offers
 *   between two others were never made, as far as the board knows (13.4).
 * - `realm.sheet`: empty. The record sheet is open (14.3.3) but reaches a viewer as events, not in
 *   the view; no rule reads it back (column 11 is noted on a row only if there is one), so a board
 *   without it plays the same.
 */

import type { SharedPosition } from '../model/position-link.ts';
import type { RealmState } from '../model/realm.ts';
import { seedRng } from '../model/rng.ts';
import type { GameState } from '../model/state.ts';
import type { GameView } from '../model/view.ts';

/** What the view adds that the engine computes again from the state: never read back. */
type Derived = 'viewer' | 'waitingFor' | 'canUndo' | 'standings';

/** A view of a game, or a shared position (a spectator's view without its derived parts). */
export type VisiblePosition = Omit<GameView, Derived> | SharedPosition;

export function positionFromView(view: VisiblePosition, seed: string): GameState {
  const {
    viewer: _viewer,
    waitingFor: _waiting,
    canUndo: _canUndo,
    standings: _standings,
    realm,
    ...open
  } = view as GameView;
  const state = {
    ...open,
    rng: seedRng(seed),
    riggedDice: [],
    undo: null,
  } as unknown as GameState;
  return realm ? { ...state, realm: { ...(realm as unknown as RealmState), sheet: [] } } : state;
}
