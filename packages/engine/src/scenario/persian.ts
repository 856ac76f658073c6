/**
 * 13.2.3 The Persian kingdom (opt.persianKingdom, D-22, AMBIG-60): chosen from turn 7, one at a
 * time; it starts as a kingdom dated to the previous turn's administration phase; its player picks
 * 12 purchase value (6 upkeep) of kingdom units and places them with a leader in Persia; the
 * treasury of 6 earns no VP; Ecbatana's and Susa's neutral garrisons are removed for good.
 */
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import { type AreaId, asAreaId, type PlayerId, type UnitId } from '../model/ids.ts';
import { persianInPlay } from '../model/options.ts';
import type { PersianArmyOrder } from '../model/orders.ts';
import { mayJoin } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import { addUnit, omitKeys, updatePlayer } from '../model/state-ops.ts';
import { exceedsCounterMix, type UnitKind } from '../model/units.ts';
import { priceOf, purchasableKinds } from '../model/upkeep.ts';

const PERSIAN_FIRST_TURN = 7;
const PERSIAN_PURCHASE_VALUE = 12;
const PERSIAN_TREASURY = 6;
/** 13.2.3: the start cities whose neutral garrisons go when PERSIAN is chosen. */
const PERSIAN_CITIES: readonly AreaId[] = ['ecbatana', 'susa'].map(asAreaId);
/** The province the Persian kingdom starts in (13.2.3). */
const PERSIA = 'persia';

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

/**
 * Every army worth the allowance (13.2.3), big units first. The army the engine used to pick
 * (4-4, 4-2, 2-3) comes first: it is the default at a missed deadline.
 */
const PERSIAN_ARMIES: readonly (readonly UnitKind[])[] = (() => {
  const kinds = purchasableKinds('kingdom');
  const out: UnitKind[][] = [];
  const grow = (from: number, left: number, army: UnitKind[]) => {
    if (left === 0) out.push(army);
    for (let i = from; i < kinds.length; i++) {
      const price = priceOf(kinds[i]!, 'kingdom');
      if (price <= left) grow(i, left - price, [...army, kinds[i]!]);
    }
  };
  grow(0, PERSIAN_PURCHASE_VALUE, []);
  const first = ['cavalry', 'infantry', 'bow'].join();
  return out
    .filter((a) => !exceedsCounterMix(a))
    .sort((a, b) => Number(b.join() === first) - Number(a.join() === first));
})();

/** 13.2.3: the areas of Persia where the Persian may be set up now, each with room for some army. */
export function persianStartAreas(ctx: EngineContext, g: GameStateCore): AreaId[] {
  if (!persianInPlay(ctx.options)) return [];
  const held = g.players.some((p) => p.status === 'active' && p.cycle?.people === 'PERSIAN');
  if (!persianMayStart(true, g.turn, held)) return [];
  return freePersianAreas(ctx, g).filter((a) => persianArmyChoices(ctx, g, a).length > 0);
}

/** The land areas of Persia holding no unit and no neutral garrison other than the start cities'. */
function freePersianAreas(ctx: EngineContext, g: GameStateCore): AreaId[] {
  const occupied = new Set(Object.values(g.units).map((u) => u.area));
  return ctx.map.areaIds.filter(
    (a) =>
      ctx.map.area(a)?.province === PERSIA &&
      ctx.map.area(a)?.kind === 'land' &&
      !occupied.has(a) &&
      (!g.neutrals[a] || PERSIAN_CITIES.includes(a)),
  );
}

/** Where the units of one army go by default: each in the first area (the chosen one first) that takes it. */
function placeArmy(
  ctx: EngineContext,
  kinds: readonly UnitKind[],
  areas: readonly AreaId[],
): { kind: UnitKind; area: AreaId }[] | null {
  const placed: { kind: UnitKind; area: AreaId }[] = [];
  for (const kind of kinds) {
    const area = areas.find(
      (a) =>
        (kind !== 'ship' || ctx.map.area(a)?.coastal === true) &&
        mayJoin(
          placed.filter((p) => p.area === a),
          { kind },
        ),
    );
    if (!area) return null;
    placed.push({ kind, area });
  }
  return placed;
}

/**
 * 13.2.3: the armies offered to a Persian set up around `area` (the area chosen with the start
 * position), each placed as it would be by default; `areas` are where its units may go instead.
 */
export function persianArmyChoices(
  ctx: EngineContext,
  g: GameStateCore,
  area: AreaId,
): (PersianArmyOrder & { areas: AreaId[] })[] {
  // The chosen area first, then the others, deserts last (kingdom units may stand there, 9.3.1).
  const rest = freePersianAreas(ctx, g).filter((a) => a !== area);
  const desert = (a: AreaId) => ctx.map.area(a)?.desert === true;
  const areas = [area, ...rest.filter((a) => !desert(a)), ...rest.filter(desert)];
  const out: (PersianArmyOrder & { areas: AreaId[] })[] = [];
  for (const kinds of PERSIAN_ARMIES) {
    const units = placeArmy(ctx, kinds, areas);
    // 10.2: the leader goes with a friendly combat unit: in the chosen area when a unit stands
    // there, else with the first unit (an army of ships stands on the coast, off an inland area).
    const leader = units?.some((u) => u.area === area) ? area : units?.[0]?.area;
    if (units && leader) out.push({ type: 'persianArmy', units, leader, areas });
  }
  return out;
}

/** Why this army may not be set up (13.2.3, 10.2, 6, C.6), or null. */
export function persianArmyProblem(
  ctx: EngineContext,
  g: GameStateCore,
  area: AreaId,
  order: PersianArmyOrder,
): string | null {
  const kinds = order.units.map((u) => u.kind);
  if (!isPersianArmy(kinds) || exceedsCounterMix(kinds)) return 'army';
  const free = new Set([area, ...freePersianAreas(ctx, g)]);
  for (const [i, u] of order.units.entries()) {
    if (!free.has(u.area)) return 'notInPersia';
    if (u.kind === 'ship' && !ctx.map.area(u.area)?.coastal) return 'shipInland';
    if (
      !mayJoin(
        order.units.slice(0, i).filter((x) => x.area === u.area),
        { kind: u.kind },
      )
    )
      return 'stacking';
  }
  // 10.2: the leader is placed with a combat unit.
  if (!order.units.some((u) => u.area === order.leader)) return 'leaderAlone';
  return null;
}

/**
 * 13.2.3 / AMBIG-60 (D-22): the PERSIAN position is taken: the cycle is a kingdom dated to the
 * previous turn, with a treasury of 6 that is not income; Ecbatana's and Susa's neutral garrisons
 * go and stay gone; the capital waits off the board until Persia owns a city (or goes on Susa at
 * once with cfg.persianOwnsStartCities). The army follows with the player's `persianArmy` order.
 * Called once the cycle record exists.
 */
export function startPersianKingdom<S extends GameStateCore>(
  ctx: EngineContext,
  g: S,
  player: PlayerId,
): { state: S; events: GameEvent[] } {
  const events: GameEvent[] = [];
  for (const area of PERSIAN_CITIES)
    if (g.neutrals[area]) events.push({ type: 'neutralRemoved', area, reason: 'persianStart' });
  const owns = ctx.options.cfg.persianOwnsStartCities;
  const cities = { ...g.cities };
  for (const area of PERSIAN_CITIES) {
    const before = cities[area] ?? { owner: null, everOwned: false };
    cities[area] = owns ? { owner: player, everOwned: true } : { ...before, garrisonRemoved: true };
  }
  let s = { ...g, neutrals: omitKeys(g.neutrals, PERSIAN_CITIES), cities } as S;
  s = updatePlayer(s, player, (p) => ({
    ...p,
    money: PERSIAN_TREASURY,
    capital: owns ? ('susa' as AreaId) : null,
    cycle: p.cycle ? { ...p.cycle, stage: 'kingdom', stageTurn: persianStageTurn(g.turn) } : p.cycle,
  })) as S;
  return { state: s, events };
}

/** 13.2.3: the Persian's army and leader go on the board; the kingdom is founded (10.1's facts). */
export function placePersianArmy<S extends GameStateCore>(
  g: S,
  player: PlayerId,
  order: PersianArmyOrder,
): { state: S; events: GameEvent[] } {
  let s = g;
  const units: { id: UnitId; kind: UnitKind; area: AreaId }[] = [];
  for (const u of order.units) {
    const [n, id] = addUnit(s, player, u.kind, u.area);
    s = n as S;
    units.push({ id, kind: u.kind, area: u.area });
  }
  const [withLeader, leader] = addUnit(s, player, 'leader', order.leader);
  s = withLeader as S;
  const capital = s.players.find((p) => p.id === player)?.capital ?? null;
  return {
    state: s,
    events: [
      { type: 'persianArmyPlaced', player, units, leader },
      { type: 'becameKingdom', player, turn: g.turn, leader, capital },
    ],
  };
}
