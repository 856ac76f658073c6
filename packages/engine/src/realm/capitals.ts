/** 10.3 Capitals: where a capital marker may be placed or moved. */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { cityAt } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';

/** 10.6.2 Revival / 10.3: where the capital may move: friendly unpillaged cities. */
export function capitalMoves(ctx: EngineContext, g: Game, player: PlayerId): AreaId[] {
  return ctx.map.cityAreas.filter(
    (a) =>
      cityAt(ctx, a) &&
      g.cities[a]?.owner === player &&
      !g.markers.some((m) => m.area === a) &&
      !g.neutrals[a],
  );
}
