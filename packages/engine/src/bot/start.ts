/**
 * Choosing a start position (4.2, 9 intro) by its prospects: the cities within reach of the
 * offered area, worth more the nearer and the less defended, worth less where other players'
 * units already stand. The positions and areas themselves are the engine's legal `chooseStart`.
 */
import type { Engine } from '../engine.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { type Board, pull, threat } from './board-facts.ts';

type StartOrder = Extract<LegalOrder, { type: 'chooseStart' }>;

function startScore(board: Board, state: GameState, area: string): number {
  return pull(board, area as never, 10) - 0.6 * threat(board, state, area as never, 4);
}

export function chooseStart(
  _engine: Engine,
  state: GameState,
  board: Board,
  starts: readonly StartOrder[],
): Order | null {
  let best: { order: Order; score: number } | null = null;
  for (const s of starts) {
    for (const area of s.areas) {
      const score = startScore(board, state, area);
      if (!best || score > best.score)
        best = { order: { type: 'chooseStart', position: s.position, area }, score };
    }
  }
  return best?.order ?? null;
}
