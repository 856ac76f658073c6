/**
 * 13.2.3 The Persian kingdom (opt.persianKingdom, D-22, AMBIG-60): chosen from turn 7, one at a
 * time; it starts as a kingdom dated to the previous turn's administration phase, with 12
 * purchase value (6 upkeep) of kingdom units and a leader in Persia and a treasury of 6 that
 * earns no VP; Ecbatana's and Susa's neutral garrisons are removed.
 */
import type { EngineContext } from '../engine-context.ts';
import type { GameEvent } from '../events.ts';
import type { AreaId, PlayerId, UnitId } from '../ids.ts';
import { persianInPlay } from '../options.ts';
import type { GameStateCore } from '../state.ts';
import { addUnit, updatePlayer } from '../state-ops.ts';
import type { UnitKind } from '../units.ts';
import { priceOf, purchasableKinds } from './upkeep.ts';

export const PERSIAN_FIRST_TURN = 7;
export const PERSIAN_PURCHASE_VALUE = 12;
export const PERSIAN_TREASURY = 6;

/** D-22: the Persian may start this turn (option on, turn ≥ 7, no Persian in play). */
export function persianMayStart(optionOn: boolean, turn: number, persianInPlay: boolean): boolean {
  return optionOn && turn >= PERSIAN_FIRST_TURN && !persianInPlay;
}

/** D-22: the stage turn of a Persian entering on `turn` (the previous turn's administration). */
export const persianStageTurn = (turn: number): number => turn - 1;

/** 13.2.3: is this set of kingdom units worth exactly the Persian allowance (12 purchase value)? */
export function isPersianArmy(kinds: readonly UnitKind[]): boolean {
  const allowed = purchasableKinds('kingdom');
  return (
    kinds.every((k) => allowed.includes(k)) &&
    kinds.reduce((s, k) => s + priceOf(k, 'kingdom'), 0) === PERSIAN_PURCHASE_VALUE
  );
}

/** The province the Persian kingdom starts in (13.2.3). */
export const PERSIA = 'persia';

/** Engine decision (13.2.3 leaves the choice to the player): the army a Persian starts with. */
export const PERSIAN_ARMY: readonly UnitKind[] = ['cavalry', 'infantry', 'bow'];

/** 13.2.3: the areas of Persia where the Persian army may be set up now (free of every unit). */
export function persianStartAreas(ctx: EngineContext, g: GameStateCore): AreaId[] {
  if (!persianInPlay(ctx.options)) return [];
  const held = g.players.some((p) => p.status === 'active' && p.cycle?.people === 'PERSIAN');
  if (!persianMayStart(true, g.turn, held)) return [];
  return freePersianAreas(ctx, g);
}

/** The land areas of Persia holding no unit (neutral garrisons there are removed or stay apart). */
function freePersianAreas(ctx: EngineContext, g: GameStateCore): AreaId[] {
  const occupied = new Set(Object.values(g.units).map((u) => u.area));
  return ctx.map.areaIds.filter(
    (a) =>
      ctx.map.area(a)?.province === PERSIA &&
      ctx.map.area(a)?.kind === 'land' &&
      !occupied.has(a) &&
      (!g.neutrals[a] || a === 'ecbatana' || a === 'susa'),
  );
}

/**
 * 13.2.3 / AMBIG-60 (D-22): the Persian player's cycle begins as a kingdom dated to the previous
 * turn: its army (12 purchase value) and a leader in Persia — the cavalry, the bow and the leader in
 * the chosen area, the infantry in the next free area of Persia —, a treasury of 6 that is not
 * income, Ecbatana's and Susa's neutral garrisons removed. The capital waits off the board until
 * Persia owns a city (or goes on Susa at once with cfg.persianOwnsStartCities).
 * Called by the core once the cycle record exists (stage and money are set here).
 */
export function startPersianKingdom<S extends GameStateCore>(
  ctx: EngineContext,
  g: S,
  player: PlayerId,
  area: AreaId,
): { state: S; events: GameEvent[] } {
  let s = g;
  const placed: UnitId[] = [];
  const others = freePersianAreas(ctx, g).filter((a) => a !== area);
  for (const kind of PERSIAN_ARMY) {
    const at = kind === 'infantry' ? others[0] : area;
    if (!at) continue;
    const [n, id] = addUnit(s, player, kind, at);
    s = n as S;
    placed.push(id);
  }
  const [withLeader, leader] = addUnit(s, player, 'leader', area);
  s = withLeader as S;
  const neutrals = { ...s.neutrals };
  for (const city of ['ecbatana', 'susa']) delete neutrals[city];
  const owns = ctx.options.cfg.persianOwnsStartCities;
  const cities = { ...s.cities };
  if (owns) for (const city of ['ecbatana', 'susa']) cities[city] = { owner: player, everOwned: true };
  s = { ...s, neutrals, cities };
  s = updatePlayer(s, player, (p) => ({
    ...p,
    money: PERSIAN_TREASURY,
    capital: owns ? ('susa' as AreaId) : null,
    cycle: p.cycle ? { ...p.cycle, stage: 'kingdom', stageTurn: persianStageTurn(g.turn) } : p.cycle,
  })) as S;
  return {
    state: s,
    events: [
      { type: 'becameKingdom', player, turn: g.turn, leader, capital: owns ? ('susa' as AreaId) : null },
    ],
  };
}
