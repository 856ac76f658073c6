/** The decisions open to the phasing player in its current (non-combat) phase, endPhase excluded. */

import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import type { CoreLegalOrder, NavalLegalOrder } from '../model/legal-orders.ts';
import { playerById } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';
import { shipMoveLegal } from '../naval/ship-movement.ts';
import { combinationLegal } from './combination.ts';
import { stackingLegal } from './end-of-movement.ts';
import { growthLegal } from './growth.ts';
import { movementLegal } from './movement-phase.ts';

/** 4.3: the decisions of the phasing player's current phase. */
export function playerPhaseOrders(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
): (CoreLegalOrder | NavalLegalOrder)[] {
  if (g.step.kind !== 'playerTurn' || g.step.player !== player) return [];
  const barbarian = playerById(g, player)?.cycle?.stage === 'barbarian';
  switch (g.step.phase) {
    case 'combination':
      return barbarian ? combinationLegal(ctx, g, player) : [];
    case 'growth':
      return barbarian ? growthLegal(ctx, g, player) : [];
    case 'movement':
      return [...movementLegal(ctx, g, player), ...shipMoveLegal(ctx, g, player)];
    case 'stacking':
      return stackingLegal(g, player);
    case 'combat':
      return [];
  }
}
