/**
 * 4.2, 9 intro, 7.1: which offered start areas are contested. A new tribe is placed on an empty
 * area (the printed one, or an adjacent non-sea area when that is occupied); it is contested when
 * another player has a unit that could attack it — a non-leader unit in an area next to it by land
 * (7.1: attacks go into adjacent areas; lone leaders never fight, 10.2). The printed start area
 * being occupied makes every fallback next to it contested by the occupier. Only units on the
 * board are read (everyone sees them); nothing about the other players' plans.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import { unitsByArea } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';

/** The chooseStart orders with, for each offered area another player could attack, who could. */
export function withContestedStarts(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  legal: LegalOrder[],
): LegalOrder[] {
  if (!legal.some((o) => o.type === 'chooseStart')) return legal;
  const byArea = unitsByArea(g);
  const rivalsNear = (area: AreaId): PlayerId[] => {
    const by = new Set<PlayerId>();
    for (const l of ctx.map.landLinks(area))
      for (const u of byArea.get(l.to) ?? []) if (u.owner !== player && u.kind !== 'leader') by.add(u.owner);
    return [...by].sort();
  };
  return legal.map((o) => {
    if (o.type !== 'chooseStart') return o;
    const contested = o.areas.flatMap((area) => {
      const by = rivalsNear(area);
      return by.length ? [{ area, by }] : [];
    });
    return contested.length ? { ...o, contested } : o;
  });
}
