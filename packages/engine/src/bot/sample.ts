/**
 * Information-set sampling: a game state a bot may search on, made only from what its seat sees.
 * The dice's future (the PRNG, rigged dice) is replaced by a sample from the bot's own seed; other
 * players' sealed parts (standing bids 13.3, plans not yet carried out 4.5, lease offers between
 * two others 13.4) are taken out exactly as the viewer's view takes them out (realm/realm-view.ts), so in
 * the search those players act as if they had not yet decided; the undo log (others' orders since
 * the last die) is dropped. Two states that show the seat the same view give the same sample.
 */
import type { PlayerId } from '../model/ids.ts';
import type { RealmState } from '../model/realm.ts';
import { seedRng } from '../model/rng.ts';
import type { GameState } from '../model/state.ts';
import { realmViewFor } from '../realm/realm-view.ts';

export function sampleFor(state: GameState, viewer: PlayerId, seed: string): GameState {
  const view = realmViewFor(state.realm, viewer);
  const realm = view && state.realm ? ({ ...view, sheet: state.realm.sheet } as RealmState) : state.realm;
  return { ...state, rng: seedRng(seed), riggedDice: [], undo: null, ...(realm ? { realm } : {}) };
}
