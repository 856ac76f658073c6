/**
 * 10.3 / 10.6.2 / 4.5.1 Tax income of kingdoms and empires: owned unpillaged city values, the
 * capital's +2, Good Ruler and Corruption, and the three-way treasury split when the capital is
 * captured. Pure arithmetic first, then the reading of a game state.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { cityAt, playerById, unitsIn } from '../model/queries.ts';
import type { IncomeEffect } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';

/** 10.3: what the capital pays: 2, or 3 under Good Ruler and 1 under Corruption (10.6.2). */
function capitalBonus(effect: IncomeEffect | null): number {
  return effect === 'goodRuler' ? 3 : effect === 'corruption' ? 1 : 2;
}

/**
 * 10.6.2 (D-19): the tax actually collected from a city value, with the capital bonus if the
 * capital marker is on the board and not captured: 1.5× or 0.5× rounded up under the effects.
 */
export function modifiedTax(cityValue: number, capitalPays: boolean, effect: IncomeEffect | null): number {
  const cities =
    effect === 'goodRuler'
      ? Math.ceil(cityValue * 1.5)
      : effect === 'corruption'
        ? Math.ceil(cityValue * 0.5)
        : cityValue;
  return cities + (capitalPays ? capitalBonus(effect) : 0);
}

/** 10.6.1 / AMBIG-10: the unmodified income (record-sheet column 2). */
export function unmodifiedIncome(cityValue: number, capitalPays: boolean, includeCapital: boolean): number {
  return cityValue + (capitalPays && includeCapital ? 2 : 0);
}

/** 10.3 (D-7): the treasury split when the capital is captured: owner keeps ⌊T/3⌋, capturer ⌊T/3⌋. */
export function capitalSplit(treasury: number): { kept: number; plunder: number; lost: number } {
  const third = Math.floor(Math.max(0, treasury) / 3);
  return { kept: third, plunder: third, lost: Math.max(0, treasury) - 2 * third };
}

/** 4.5.1: the player's owned cities that pay tax (no pillage marker on them). */
export function taxableCities(ctx: EngineContext, g: GameStateCore, player: PlayerId): AreaId[] {
  return ctx.map.cityAreas.filter(
    (a) => cityAt(ctx, a) && g.cities[a]?.owner === player && !g.markers.some((m) => m.area === a),
  );
}

/** 10.3: the total tax value of a set of city areas. */
export function cityValue(ctx: EngineContext, areas: readonly AreaId[]): number {
  return areas.reduce((s, a) => s + (cityAt(ctx, a)?.tax ?? 0), 0);
}

/**
 * 10.3 / AMBIG-19: who holds the capital area at the owner's tax collection: the owner of an
 * unfriendly non-leader player unit there (neutral garrisons cannot capture), else null.
 */
export function capitalCapturer(g: GameStateCore, player: PlayerId): PlayerId | null {
  const capital = playerById(g, player)?.capital;
  if (!capital) return null;
  const enemy = unitsIn(g, capital).find((u) => u.owner !== player && u.kind !== 'leader');
  return enemy?.owner ?? null;
}
