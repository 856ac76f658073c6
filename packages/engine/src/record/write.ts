/**
 * Writing a complete record of a game the engine played by itself (`engine sim --record`): the
 * set-up it was created from, each order in the order it was applied, and the final state's hash.
 * A simulated game has no clock, so its orders carry no time.
 */
import type { Engine } from '../engine.ts';
import { type CompleteRecord, RECORD_FORMAT, RECORD_VERSION } from '../model/game-record.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import type { GameSetup } from '../scenario/setup.ts';

export interface PlayedOrder {
  readonly actor: string;
  readonly order: Order;
}

export function completeRecordOf(
  engine: Engine,
  setup: GameSetup,
  log: readonly PlayedOrder[],
  final: GameState,
): CompleteRecord {
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    kind: 'complete',
    rulesVersion: setup.rulesVersion,
    mapVersion: engine.map.version,
    setup: { seed: setup.seed, options: setup.options, players: setup.players },
    orders: log.map((o, i) => ({
      seq: i + 1,
      actor: o.actor as CompleteRecord['orders'][number]['actor'],
      kind: 'player' as const,
      at: null,
      order: o.order,
    })),
    final: { turn: final.turn, hash: engine.hash(final) },
  };
}
