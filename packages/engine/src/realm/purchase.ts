/**
 * 10.5 / 11.2 / 11.3 Purchases: what a kingdom or empire may buy, at twice upkeep, and where the
 * new units may be placed: friendly unpillaged cities within stacking (ships only in coastal
 * cities, AMBIG-33), garrisons in the friendly areas of 11.3; the counter mix (C.6, AMBIG-45).
 */

import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { countersLimited } from '../model/options.ts';
import type { Stage } from '../model/people.ts';
import { actingNeutralAt, cityAt, unitsByArea } from '../model/queries.ts';
import { mayJoin } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import { exceedsCounterMix, type UnitKind } from '../model/units.ts';
import { priceOf, purchasableKinds } from '../model/upkeep.ts';
import { garrisonBuildAreas } from './garrisons.ts';

export interface Purchase {
  readonly kind: UnitKind;
  readonly area: AreaId;
}

/** 10.5: the friendly unpillaged cities (the only places for non-garrison purchases). */
export function purchaseCities(ctx: EngineContext, g: GameStateCore, player: PlayerId): AreaId[] {
  const byArea = unitsByArea(g);
  return ctx.map.cityAreas.filter(
    (a) =>
      cityAt(ctx, a) !== null &&
      g.cities[a]?.owner === player &&
      !g.markers.some((m) => m.area === a) &&
      !g.neutrals[a] &&
      actingNeutralAt(ctx, g, a, byArea) === null &&
      !(byArea.get(a) ?? []).some((u) => u.owner !== player && u.kind !== 'leader'),
  );
}

/**
 * 10.5: is a list of purchases placeable, taken in order (each within stacking with what is
 * there and what was bought before it)? Returns the index of the first bad one, or -1.
 */
export function firstBadPurchase(
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  stage: Stage,
  purchases: readonly Purchase[],
): number {
  return purchaseChecker(ctx, g, player, stage)(purchases);
}

/** 10.5, 11.3: where a purchase may be placed: the player's purchase cities, and (empires) garrison areas. */
interface PurchaseAreas {
  readonly cities: readonly AreaId[];
  readonly garrisons: readonly AreaId[];
}

const purchaseAreas = (
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  stage: Stage,
): PurchaseAreas => ({
  cities: purchaseCities(ctx, g, player),
  garrisons: stage === 'empire' ? garrisonBuildAreas(ctx, g, player) : [],
});

/**
 * `firstBadPurchase` for many lists in one position: what the position decides (the cities, the
 * garrison areas, the units) is read once, not once per list asked.
 */
function purchaseChecker(
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  stage: Stage,
  where: PurchaseAreas = purchaseAreas(ctx, g, player, stage),
): (purchases: readonly Purchase[]) => number {
  const kinds = purchasableKinds(stage);
  const cities = new Set(where.cities);
  const garrisonAreas = new Set(where.garrisons);
  const byArea = unitsByArea(g);
  const ownedBefore: UnitKind[] = [];
  for (const u of Object.values(g.units)) if (u.owner === player) ownedBefore.push(u.kind);
  return (purchases) => {
    const placed = new Map<AreaId, UnitKind[]>();
    const owned = [...ownedBefore];
    for (let i = 0; i < purchases.length; i++) {
      const p = purchases[i]!;
      if (!kinds.includes(p.kind)) return i;
      const okArea =
        p.kind === 'garrison' ? garrisonAreas.has(p.area) || cities.has(p.area) : cities.has(p.area);
      if (!okArea) return i;
      if (p.kind === 'ship' && !ctx.map.area(p.area)?.coastal) return i;
      const here = [
        ...(byArea.get(p.area) ?? []).map((u) => ({ kind: u.kind, owner: u.owner as string })),
        ...(placed.get(p.area) ?? []).map((k) => ({ kind: k, owner: player as string })),
      ];
      if (!mayJoin(here, { kind: p.kind, owner: player })) return i;
      owned.push(p.kind);
      if (countersLimited(ctx.options) && exceedsCounterMix(owned)) return i;
      placed.set(p.area, [...(placed.get(p.area) ?? []), p.kind]);
    }
    return -1;
  };
}

/** 10.5: total price of a list of purchases. */
export function purchaseCost(stage: Stage, purchases: readonly Purchase[]): number {
  return purchases.reduce((s, p) => s + priceOf(p.kind, stage), 0);
}

/** 10.5: every single purchase placeable now (kind × area), for the legal-order list. */
export function singlePurchases(
  ctx: EngineContext,
  g: GameStateCore,
  player: PlayerId,
  stage: Stage,
): Purchase[] {
  const where = purchaseAreas(ctx, g, player, stage);
  const areas = [...new Set([...where.cities, ...where.garrisons])].sort();
  const firstBad = purchaseChecker(ctx, g, player, stage, where);
  const out: Purchase[] = [];
  for (const kind of purchasableKinds(stage))
    for (const area of areas) if (firstBad([{ kind, area }]) === -1) out.push({ kind, area });
  return out;
}
