/**
 * What a viewer receives of a game (2.4: all bookkeeping is open): the state without its dice's
 * future, the undo record reduced to who may undo, and the realm with the sealed parts of others
 * taken out (realm/realm-view.ts: standing bids 13.3, plans not yet carried out 4.5, lease offers
 * between two other players 13.4). A spectator (`null`) sees what every player sees of the others.
 */
import type { PlayerId } from '../model/ids.ts';
import type { GameState } from '../model/state.ts';
import type { GameView, ViewerPart } from '../model/view.ts';
import { realmViewFor } from '../realm/realm-view.ts';
import { standingsOf } from '../realm/record.ts';
import { waitingFor } from '../turn/legal.ts';

/**
 * The top-level keys of a view that depend on who looks. Every other key holds the same for every
 * viewer as for a spectator, so a player's change of view is the spectators' change outside these
 * keys plus the change of its own part (the server builds each seat's patch that way).
 */
export const VIEWER_KEYS = ['realm', 'viewer'] as const satisfies readonly (keyof GameView)[];

/** The part of `viewer`'s view under VIEWER_KEYS; the same objects `viewFor` puts there. */
export function viewerPartFor(state: GameState, viewer: PlayerId | null): ViewerPart {
  return { realm: realmViewFor(state.realm, viewer), viewer };
}

export function viewFor(state: GameState, viewer: PlayerId | null): GameView {
  const { rng: _rng, riggedDice: _rigged, undo, ...pub } = state;
  return {
    ...pub,
    ...viewerPartFor(state, viewer),
    waitingFor: waitingFor(state),
    canUndo: [...new Set((undo?.orders ?? []).map((o) => o.actor))],
    // Standings are public (2.4: all bookkeeping is open) and computed here once, not by clients.
    standings: standingsOf(state),
  };
}
