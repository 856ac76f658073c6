/**
 * 4.5 Economic phase. City ownership is fixed first (3); then every player with a decision acts
 * at once (barbarians choosing cities to pillage, 9.5); then, in move order, tax and loot are
 * collected and counted as VP (9.4, 14.3.1). Kingdoms and empires (upkeep, purchases, capitals) are realm/economic-orders.ts.
 */
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import { tribesMayPillage } from '../model/options.ts';
import { actingNeutralAt, cityAt, moveOrder, playerById, unitsByArea } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { CityState } from '../model/state.ts';
import { type Game, gainIncome, type Transition } from '../model/state-ops.ts';
import {
  realmEconomicDeciders,
  realmEconomicLegal,
  resolveEconomicWithRealms,
} from '../realm/economic-orders.ts';

/** 3: a city belongs to the last player with a non-leader unit in it at the start of an economic phase. */
export function fixOwnership(ctx: EngineContext, g: Game): Transition {
  const byArea = unitsByArea(g);
  const cities: Record<string, CityState> = { ...g.cities };
  const events: GameEvent[] = [];
  for (const id of ctx.map.cityAreas) {
    if (!cityAt(ctx, id)) continue;
    const before = cities[id] ?? { owner: null, everOwned: false };
    const occupant = (byArea.get(id) ?? []).find((u) => u.kind !== 'leader')?.owner ?? null;
    let owner = occupant ?? before.owner;
    if (g.neutrals[id] || actingNeutralAt(ctx, g, id, byArea)) owner = null;
    if (owner !== before.owner)
      events.push({ type: 'cityOwnerChanged', area: id, from: before.owner, to: owner });
    const everOwned = before.everOwned || owner !== null;
    // An unchanged record is kept as it is (most cities, every economic phase).
    if (cities[id] !== before || owner !== before.owner || everOwned !== before.everOwned)
      cities[id] = { owner, everOwned };
  }
  return { state: { ...g, cities }, events };
}

/** 9.5: the cities this barbarian may pillage now: owned, occupied by its unit, no marker. */
function pillageable(ctx: EngineContext, g: Game, player: PlayerId): AreaId[] {
  const p = playerById(g, player);
  if (p?.cycle?.stage !== 'barbarian') return [];
  const byArea = unitsByArea(g);
  return ctx.map.cityAreas.filter((id) => {
    if (!cityAt(ctx, id) || g.cities[id]?.owner !== player) return false;
    if (g.markers.some((m) => m.area === id)) return false;
    return (byArea.get(id) ?? []).some(
      (u) =>
        u.owner === player && u.kind !== 'leader' && (u.kind !== 'tribe' || tribesMayPillage(ctx.options)),
    );
  });
}

const chosen = (g: Game, player: PlayerId): readonly AreaId[] =>
  g.step.kind === 'economic' ? (g.step.pillage[player] ?? []) : [];

/** 4.5, 9.5: the cities a barbarian may pillage. */
export function economicLegal(ctx: EngineContext, g: Game, player: PlayerId): LegalOrder[] {
  if (g.step.kind !== 'economic' || !g.step.pending.includes(player)) return [];
  const done = chosen(g, player);
  const pillage: LegalOrder[] = pillageable(ctx, g, player)
    .filter((a) => !done.includes(a))
    .map((area) => ({ type: 'pillage', area }));
  // A kingdom's or empire's plan (upkeep disbanding, purchases, administration spending).
  return [...pillage, ...realmEconomicLegal(ctx, g, player)];
}

/** 9.5: a barbarian pillages this city instead of taxing it. */
export function applyPillageChoice(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  area: AreaId,
): Result<Transition> {
  if (g.step.kind !== 'economic') return err('order/wrong_phase');
  const p = playerById(g, player);
  if (p?.cycle?.stage !== 'barbarian') return err('order/not_a_barbarian', { player });
  if (!pillageable(ctx, g, player).includes(area) || chosen(g, player).includes(area)) {
    return err('order/not_pillageable', { area });
  }
  const pillage = { ...g.step.pillage, [player]: [...chosen(g, player), area] };
  return ok({ state: { ...g, step: { ...g.step, pillage } }, events: [] });
}

/** 9.5 marker digit: (last digit of the turn + 5) mod 10. */
export const pillageDigit = (turn: number): number => ((turn % 10) + 5) % 10;

/** 4.5.1 for one player: tax from owned unpillaged cities, loot from pillaged ones (3×), VP. */
export function collect(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  pillaged: readonly AreaId[],
): Transition {
  const events: GameEvent[] = [];
  let s = g;
  const taxed: AreaId[] = [];
  let tax = 0;
  for (const id of ctx.map.cityAreas) {
    const city = cityAt(ctx, id);
    if (!city || s.cities[id]?.owner !== player || pillaged.includes(id)) continue;
    if (s.markers.some((m) => m.area === id)) continue;
    tax += city.tax;
    taxed.push(id);
  }
  const p = playerById(s, player);
  if (p?.capital && p.cycle && p.cycle.stage !== 'barbarian' && s.cities[p.capital]?.owner === player)
    tax += 2;
  events.push({ type: 'taxCollected', player, tax, cities: taxed });
  let loot = 0;
  for (const id of pillaged) {
    const value = (cityAt(ctx, id)?.tax ?? 0) * 3;
    loot += value;
    const digit = pillageDigit(s.turn);
    s = { ...s, markers: [...s.markers, { area: id, digit, pillager: player, turn: s.turn }] };
    events.push({ type: 'cityPillaged', player, area: id, loot: value, digit });
  }
  s = gainIncome(s, player, tax + loot);
  const total = playerById(s, player)?.cycle?.vp ?? 0;
  if (tax + loot > 0) events.push({ type: 'vpGained', player, vp: tax + loot, total });
  return { state: s, events };
}

/** Resolve the phase in move order once every pending player is done (4.5). */
export function resolveEconomic(ctx: EngineContext, g: Game): Transition {
  if (g.step.kind !== 'economic') return { state: g, events: [] };
  const choices = g.step.pillage;
  // realm/economic-orders.ts resolves kingdoms and empires (capitals, upkeep, purchases, ledger) and calls back
  // `collect` for barbarians, all in move order.
  return resolveEconomicWithRealms(ctx, g, (s, id) => collect(ctx, s, id, choices[id] ?? []));
}

/** 4.5, 9.5: who has an economic decision to make (acting at once): barbarians able to pillage. */
export function economicDeciders(ctx: EngineContext, g: Game): PlayerId[] {
  const deciders = new Set([
    ...moveOrder(g).filter((id) => pillageable(ctx, g, id).length > 0),
    ...realmEconomicDeciders(ctx, g),
  ]);
  return moveOrder(g).filter((id) => deciders.has(id));
}
