/**
 * What a viewer receives of a game (2.4: all bookkeeping is open): the state without its dice's
 * future, the undo record reduced to who may undo, and the realm with the sealed parts of others
 * taken out (realm/view.ts: standing bids 13.3, plans not yet carried out 4.5, lease offers
 * between two other players 13.4). A spectator (`null`) sees what every player sees of the others.
 */
import type { PlayerId } from '../model/ids.ts';
import type { GameState } from '../model/state.ts';
import type { GameView } from '../model/view.ts';
import { standingsOf } from '../realm/record.ts';
import { realmViewFor } from '../realm/view.ts';
import { waitingFor } from '../turn/legal.ts';

export function viewFor(state: GameState, viewer: PlayerId | null): GameView {
  const { rng: _rng, riggedDice: _rigged, undo, ...pub } = state;
  return {
    ...pub,
    realm: realmViewFor(state.realm, viewer),
    viewer,
    waitingFor: waitingFor(state),
    canUndo: [...new Set((undo?.orders ?? []).map((o) => o.actor))],
    // Standings are public (2.4: all bookkeeping is open) and computed here once, not by clients.
    standings: standingsOf(state),
  };
}
