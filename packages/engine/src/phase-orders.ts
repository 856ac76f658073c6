/** The decisions open to the phasing player in its current (non-combat) phase, endPhase excluded. */

import type { EngineContext } from './engine-context.ts';
import type { PlayerId } from './ids.ts';
import { type NavalLegalOrder, shipMoveLegal } from './naval/movement.ts';
import type { CoreLegalOrder } from './orders.ts';
import { combinationLegal } from './phases/combination.ts';
import { stackingLegal } from './phases/end-of-movement.ts';
import { growthLegal } from './phases/growth.ts';
import { movementLegal } from './phases/movement.ts';
import { playerById } from './queries.ts';
import type { Game } from './state-ops.ts';

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
