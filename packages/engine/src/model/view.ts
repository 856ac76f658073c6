/** What a viewer receives of a game: the state without its dice's future, sealed parts taken out. */
import type { PlayerId } from './ids.ts';
import type { RealmView } from './realm.ts';
import type { GameStateCore } from './state.ts';

/**
 * A player's standing under both victory conditions (14.3.1, 14.3.2): the best single cycle, and
 * all victory points over the turns it held a position (AMBIG-43). AMBIG-56: a running cycle
 * counts as it stands unless `cfg.countIncompleteCycles` is off.
 */
export interface Standing {
  readonly player: PlayerId;
  /** 14.3.1: the best single cycle. */
  readonly bestCycle: number;
  readonly totalVp: number;
  readonly turnsPlayed: number;
  /** 14.3.2: total VP ÷ turns played; null before the first turn played. */
  readonly average: number | null;
}

/** What a viewer may see: everything but the dice's future (2.4: all bookkeeping is open). */
export type GameView = Omit<GameStateCore, 'rng' | 'riggedDice' | 'realm'> & {
  readonly realm?: RealmView;
  readonly viewer: PlayerId | null;
  readonly waitingFor: PlayerId[];
  /** Players who may take back an order now. */
  readonly canUndo: PlayerId[];
  /** Every player's standing, in seat order (computed by the engine; the client only shows it). */
  readonly standings: readonly Standing[];
};

/** What of a view depends on who looks (viewers/game-view.ts `VIEWER_KEYS`): the rest is the spectators'. */
export type ViewerPart = Pick<GameView, 'realm' | 'viewer'>;
