/**
 * 4.3.3 Movement phase: land moves (5.1), tribal sea crossings (13.1.1) and the Arab/African
 * entry (13.2.2). Ships' sea movement is naval/ship-movement.ts.
 */

import { checkPath, destinations, mayEnterTerrain } from '../barbarian/land-movement.ts';
import { captureLeaders, capturesLeaders } from '../diplomacy/leader-capture.ts';
import { isLeased } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import { rollDie } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { CoreLegalOrder } from '../model/legal-orders.ts';
import { leaderKilledOnPassThrough, tribalSeaCrossingsFor } from '../model/options.ts';
import { blocksPlayer, playerById, unitsByArea, unitsOf } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import { addUnit, type Game, patchUnit, removeUnits, type Transition } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';
import { empireMoveAllowed } from '../realm/empire-movement.ts';
import { isSupportedAt } from '../realm/support.ts';

const movedSoFar = (g: Game): readonly UnitId[] => (g.step.kind === 'playerTurn' ? g.step.moved : []);

const markMoved = (g: Game, ids: readonly UnitId[]): Game =>
  g.step.kind === 'playerTurn' ? { ...g, step: { ...g.step, moved: [...g.step.moved, ...ids] } } : g;

/** 13.1.1: the marked sea crossings open to this tribe: per sea, the land areas it may reach. */
function seaCrossings(
  ctx: EngineContext,
  g: Game,
  tribe: Unit,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
) {
  const people = playerById(g, tribe.owner)?.cycle?.people;
  if (!people || tribe.kind !== 'tribe' || tribe.inverted || !tribalSeaCrossingsFor(ctx.options, people))
    return [];
  return ctx.map
    .seasOf(tribe.area)
    .filter((sea) => ctx.map.area(sea)?.seaCrossingFor.includes(people))
    .map((sea) => ({
      sea,
      to: ctx.map
        .shoresOf(sea)
        .filter(
          (a) =>
            a !== tribe.area &&
            mayEnterTerrain(ctx, g, tribe, a) &&
            !blocksPlayer(ctx, g, a, tribe.owner, byArea),
        ),
    }))
    .filter((c) => c.to.length > 0);
}

/** 13.2.2: the "A" areas an entering Arab or African player may place its two tribes on. */
function entryAreas(ctx: EngineContext, g: Game, player: PlayerId): AreaId[] {
  const p = playerById(g, player);
  const people = p?.cycle?.people;
  if (!p?.cycle || (people !== 'ARAB' && people !== 'AFRICAN')) return [];
  if (p.cycle.startedTurn !== g.turn || unitsOf(g, player).length > 0) return [];
  const homes = new Set(
    ctx.map
      .startAreas(p.cycle.position)
      .map((a) => ctx.map.area(a)?.province)
      .filter((x): x is string => !!x),
  );
  if (people === 'ARAB') for (const extra of ['syria', 'mesopotamia']) homes.add(extra);
  const byArea = unitsByArea(g);
  return ctx.map.aAreas.filter((a) => {
    const area = ctx.map.area(a);
    return (
      !!area?.province &&
      homes.has(area.province) &&
      (byArea.get(a) ?? []).length === 0 &&
      !blocksPlayer(ctx, g, a, player, byArea)
    );
  });
}

/** 4.3.3, 5.1: every unit's destinations with a path each, sea crossings and entry tribes. */
export function movementLegal(ctx: EngineContext, g: Game, player: PlayerId): CoreLegalOrder[] {
  const byArea = unitsByArea(g);
  const moved = movedSoFar(g);
  const out: CoreLegalOrder[] = [];
  const entry = entryAreas(ctx, g, player);
  if (entry.length >= 2) out.push({ type: 'placeEntryTribes', areas: entry });
  for (const u of [...unitsOf(g, player)].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (moved.includes(u.id)) continue;
    // 11.5 support and the 11.7.2 coup limit empire units' destinations.
    const dests = destinations(ctx, g, u, byArea).filter((d) => empireMoveAllowed(ctx, g, u, d.to));
    if (dests.length > 0) out.push({ type: 'move', unit: u.id, from: u.area, destinations: dests });
    for (const c of seaCrossings(ctx, g, u, byArea))
      out.push({ type: 'seaCrossing', tribe: u.id, sea: c.sea, to: c.to });
  }
  return out;
}

/**
 * 11.5: the empire units that must still try to regain support this movement phase: they stand
 * unsupported, have not moved, and have a move that ends supported. The player may not end the
 * phase while any is left (`order/support_move_owed`); the deadline default moves them.
 */
export function supportMovesOwed(ctx: EngineContext, g: Game, player: PlayerId): UnitId[] {
  if (g.step.kind !== 'playerTurn' || g.step.phase !== 'movement') return [];
  if (playerById(g, player)?.cycle?.stage !== 'empire') return [];
  const byArea = unitsByArea(g);
  const moved = movedSoFar(g);
  const memo = new Map<AreaId, boolean>();
  const supported = (a: AreaId) => {
    if (!memo.has(a)) memo.set(a, isSupportedAt(ctx, g, player, a, byArea));
    return memo.get(a)!;
  };
  return unitsOf(g, player)
    .filter((u) => !moved.includes(u.id) && u.kind !== 'ship' && !isLeased(g, u.id) && !supported(u.area))
    .filter((u) => destinations(ctx, g, u, byArea).some((d) => empireMoveAllowed(ctx, g, u, d.to)))
    .map((u) => u.id)
    .sort();
}

/**
 * AMBIG-53 / 10.2: enemy lone leaders in areas a unit entered are eliminated — or, with optional
 * leaders (13.6), captured by that unit.
 */
const killLoneLeaders = (
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  areas: readonly AreaId[],
  mover?: Unit,
): Transition => {
  const byArea = unitsByArea(g);
  const dead: Unit[] = [];
  const checked = leaderKilledOnPassThrough(ctx.options) ? areas : areas.slice(-1);
  for (const a of checked) {
    const here = byArea.get(a) ?? [];
    for (const u of here) if (u.kind === 'leader' && u.owner !== player) dead.push(u);
  }
  if (mover && mover.kind !== 'leader' && capturesLeaders(g)) return captureLeaders(g, dead, mover);
  const events: GameEvent[] = dead.map((u) => ({ type: 'leaderEliminated', unit: u.id, area: u.area }));
  return {
    state: removeUnits(
      g,
      dead.map((u) => u.id),
    ),
    events,
  };
};

/** 5.1: a unit moves along a path. */
export function applyMove(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: { unit: UnitId; path: AreaId[] },
): Result<Transition> {
  const u = g.units[order.unit];
  if (!u) return err('order/unknown_unit', { unit: order.unit });
  if (u.owner !== player) return err('order/not_your_unit', { unit: order.unit });
  if (movedSoFar(g).includes(u.id)) return err('order/already_moved', { unit: u.id });
  if (u.inverted) return err('order/tribe_inverted', { unit: u.id });
  const problem = checkPath(ctx, g, u, order.path, unitsByArea(g), player);
  if (problem) return err(problem.code, { unit: u.id, at: problem.at });
  const to = order.path[order.path.length - 1]!;
  if (!empireMoveAllowed(ctx, g, u, to)) return err('order/unreachable', { unit: u.id, at: to });
  const moved = markMoved(patchUnit(g, u.id, { area: to }), [u.id]);
  const kill = killLoneLeaders(ctx, moved, player, order.path, moved.units[u.id]);
  return ok({
    state: kill.state,
    events: [{ type: 'unitMoved', player, unit: u.id, path: order.path }, ...kill.events],
  });
}

/** 13.1.1: the highest roll of one die on which a crossing tribe lands; above it the tribe is lost. */
const SEA_CROSSING_LANDS_UP_TO = 3;

/** 13.1.1: the chance that the die loses a crossing tribe (read off the same rule the roll uses). */
export const seaCrossingLossChance = (): number => (6 - SEA_CROSSING_LANDS_UP_TO) / 6;

/** 13.1.1: roll 1d6; 1–3 the tribe lands beyond the sea, 4–6 it is lost. Replaces its move. */
export function applySeaCrossing(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: { tribe: UnitId; sea: AreaId; to: AreaId },
): Result<Transition> {
  const t = g.units[order.tribe];
  if (!t) return err('order/unknown_unit', { unit: order.tribe });
  if (t.owner !== player) return err('order/not_your_unit', { unit: order.tribe });
  if (movedSoFar(g).includes(t.id)) return err('order/already_moved', { unit: t.id });
  if (t.kind !== 'tribe') return err('order/not_a_tribe', { unit: t.id });
  const people = playerById(g, player)?.cycle?.people;
  if (!ctx.options.opt.tribalSeaCrossings) return err('order/option_off', { option: 'tribalSeaCrossings' });
  if (!people || !tribalSeaCrossingsFor(ctx.options, people))
    return err('order/not_allowed_for_people', { people });
  const options = seaCrossings(ctx, g, t, unitsByArea(g));
  if (!options.some((c) => c.sea === order.sea && c.to.includes(order.to))) {
    return err('order/sea_crossing_invalid', { sea: order.sea, to: order.to });
  }
  const roll = rollDie(g);
  const success = roll.value <= SEA_CROSSING_LANDS_UP_TO;
  let s = markMoved(roll.state, [t.id]);
  s = success ? patchUnit(s, t.id, { area: order.to }) : removeUnits(s, [t.id]);
  const events: GameEvent[] = [
    {
      type: 'seaCrossingRolled',
      player,
      tribe: t.id,
      sea: order.sea,
      to: order.to,
      die: roll.value,
      success,
    },
  ];
  if (!success) events.push({ type: 'unitsRemoved', player, units: [t.id], reason: 'seaCrossing' });
  return ok({ state: s, events });
}

/** 13.2.2: the entering Arab/African player places two tribes on "A" areas; they may not move on. */
export function applyPlaceEntryTribes(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  areas: [AreaId, AreaId],
): Result<Transition> {
  const allowed = entryAreas(ctx, g, player);
  if (areas[0] === areas[1] || !areas.every((a) => allowed.includes(a))) {
    return err('order/invalid_placement', { areas });
  }
  const [s1, a] = addUnit(g, player, 'tribe', areas[0]);
  const [s2, b] = addUnit(s1, player, 'tribe', areas[1]);
  return ok({
    state: markMoved(s2, [a, b]),
    events: [{ type: 'entryTribesPlaced', player, areas: [...areas], units: [a, b] }],
  });
}
