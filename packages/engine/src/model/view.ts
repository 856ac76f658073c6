/** What a viewer receives of a game: the state without its dice's future, sealed parts taken out. */
import type { PlayerId } from './ids.ts';
import type { RealmView } from './realm.ts';
import type { GameStateCore } from './state.ts';

/** What a viewer may see: everything but the dice's future (2.4: all bookkeeping is open). */
export type GameView = Omit<GameStateCore, 'rng' | 'riggedDice' | 'realm'> & {
  readonly realm?: RealmView;
  readonly viewer: PlayerId | null;
  readonly waitingFor: PlayerId[];
  /** Players who may take back an order now. */
  readonly canUndo: PlayerId[];
};
