/**
 * The engine's contract: create a game, list a player's legal orders (and tell whether they can
 * have changed between two states), apply an order (the new state and the events that are its
 * facts, or a typed error), say who must act, give the defaults for a missed deadline, and say
 * what each viewer may see (its view, and the events it receives). Pure: no I/O, no clock, no
 * Math.random.
 */
import { loadMap } from '@bke/map';
import type { EngineContext } from './model/context.ts';
import type { GameEvent } from './model/events.ts';
import { hashState } from './model/hash.ts';
import type { PlayerId } from './model/ids.ts';
import type { LegalOrder } from './model/legal-orders.ts';
import { indexMap, type MapIndex, type MapInput } from './model/map-index.ts';
import type { Actor } from './model/orders.ts';
import { type Order, parseOrder } from './model/orders.ts';
import { err, ok, type Result } from './model/result.ts';
import type { GameState } from './model/state.ts';
import type { GameView, ViewerPart } from './model/view.ts';
import { type GameSetupInput, gameSetupSchema, initialState } from './scenario/setup.ts';
import { applyWithUndo, ctxOf } from './turn/apply-order.ts';
import { foresee } from './turn/foreseen-consequences.ts';
import { legalOrdersOf, waitingFor } from './turn/legal.ts';
import { settle, startTurn } from './turn/machine.ts';
import { sameLegalOrders } from './turn/same-legal.ts';
import { missedDeadlineOf, type PlayedDefault, timeoutOrdersOf } from './turn/timeout.ts';
import { viewerPartFor, viewFor } from './viewers/game-view.ts';
import { eventsFor } from './viewers/visible-events.ts';

export type { PlayedDefault };

export interface Engine {
  readonly map: MapIndex;
  createGame(setup: GameSetupInput | unknown): Result<GameState>;
  legalOrders(state: GameState, player: PlayerId): LegalOrder[];
  /**
   * True only if `player`'s legal orders in `after` are the same as in `before` (false: they may
   * differ), told without listing them: for a server that sends each player its orders again when
   * they change. Sound by construction, see turn/same-legal.ts: `version` is never read, `undo` only
   * for the player's own orders (4), and in the economic phase (4.5) another decider's plan,
   * pillage choices (9.5) and confirmation leave the player's orders as they were.
   */
  sameLegalOrders(before: GameState, after: GameState, player: PlayerId): boolean;
  applyOrder(
    state: GameState,
    actor: Actor,
    order: Order | unknown,
  ): Result<{ state: GameState; events: GameEvent[] }>;
  waitingFor(state: GameState): PlayerId[];
  timeoutOrders(state: GameState, player: PlayerId): Order[];
  /** A missed deadline: the defaults of each of `players` in turn, each played once, with what it left. */
  missedDeadline(state: GameState, players: readonly PlayerId[]): PlayedDefault[];
  /** What `viewer` (a player, or null for a spectator) may see of the game. */
  view(state: GameState, viewer: PlayerId | null): GameView;
  /**
   * The part of `view(state, viewer)` under `VIEWER_KEYS`, the only keys in which two viewers'
   * views differ: outside them every viewer's view holds what the spectators' holds.
   */
  viewerPart(state: GameState, viewer: PlayerId | null): ViewerPart;
  /** The events of one order that `viewer` may see (the rest are another player's private dealings). */
  eventsFor<E extends GameEvent>(events: readonly E[], viewer: PlayerId | null): readonly E[];
  hash(state: GameState): string;
}

/** Create an engine over a map: @bke/map's compiled map by default; tests pass fixture maps. */
export function createEngine(mapInput: MapInput = loadMap()): Engine {
  const map = indexMap(mapInput);
  const engine: Engine = {
    map,
    createGame(raw) {
      const parsed = gameSetupSchema.safeParse(raw);
      if (!parsed.success) return err('setup/invalid', { issues: parsed.error.message });
      const ctx: EngineContext = { map, options: parsed.data.options };
      const init = initialState(ctx, parsed.data);
      if (!init.ok) return init;
      let g = init.value;
      if (g.players.length > 0) {
        const t = startTurn(ctx, g);
        g = settle(ctx, t.state).state;
      }
      return ok({ ...g, undo: null });
    },
    // Each legal order carries what it would foreseeably cost (src/turn/foreseen-consequences.ts).
    legalOrders: (state, player) =>
      foresee(ctxOf(map, state), state, player, legalOrdersOf(map, state, player)),
    sameLegalOrders: (before, after, player) => sameLegalOrders(before, after, player),
    applyOrder(state, actor, raw) {
      const parsed = parseOrder(raw);
      if (!parsed.ok) return err('order/invalid', { issues: parsed.issues });
      return applyWithUndo(map, state, actor, parsed.order);
    },
    waitingFor: (state) => waitingFor(state),
    timeoutOrders: (state, player) => timeoutOrdersOf(map, state, player),
    missedDeadline: (state, players) => missedDeadlineOf(map, state, players),
    view: (state, viewer) => viewFor(state, viewer),
    viewerPart: (state, viewer) => viewerPartFor(state, viewer),
    eventsFor: (events, viewer) => eventsFor(events, viewer),
    hash: (state) => hashState(state),
  };
  return engine;
}
