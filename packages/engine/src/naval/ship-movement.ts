/**
 * 5.2 / 5.3 Ships moving in the movement phase: a ship (with at most one non-ship unit and one
 * leader from its start area, 5.2) sails a path through sea areas, along shorelines and by white
 * arrows, ends in a coastal area, and rolls once for sinking against the sea areas of its declared
 * route (AMBIG-14 `declaredRoute`). Areas holding unfriendly units (or neutrals) are not entered.
 * Interceptions (8.1) follow the sinking roll. A path may end in a coastal area holding unfriendly
 * units, entered from a sea area: a naval landing (8.2), fought in the combat phase (landing-combat.ts).
 * Cargo may be picked up and dropped off in coastal areas along the path (AMBIG-15, `stops`).
 */
import { leaderTypeOf } from '../diplomacy/leader-types.ts';
import type { EngineContext } from '../model/context.ts';
import { rollDie } from '../model/dice.ts';
import type { ErrorCode } from '../model/errors.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { NavalLegalOrder } from '../model/legal-orders.ts';
import type { NavalOrder, ShipStop } from '../model/orders.ts';
import { blocksPlayer, playerById, unitsByArea, unitsOf } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import { mayJoin } from '../model/stacking.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { patchUnit, removeUnits } from '../model/state-ops.ts';
import { movementOf } from '../model/units.ts';
import { type Mover, resolveGroupInterceptions, resolveInterceptions } from './intercept-combat.ts';
import { isLandingForce, landingBlockedAreas, landingsOf, recordLanding } from './landing.ts';
import { seaAreasEntered, shipDestinations, shipPathProblem } from './sea-graph.ts';
import { sinkingModifier, sinksAfterMove } from './sinking.ts';

const movedOf = (g: Game): readonly UnitId[] => (g.step.kind === 'playerTurn' ? g.step.moved : []);

/** 5.2: may this unit be carried (not a ship, a garrison or an inverted tribe)? */
const loadable = (kind: string, inverted: boolean | undefined): boolean =>
  kind !== 'ship' && kind !== 'garrison' && !inverted;

/** 5.2: the units a ship may carry from its area: one non-ship unit that has not moved, one leader. */
export function cargoOptions(g: Game, ship: UnitId): UnitId[][] {
  const s = g.units[ship];
  if (!s) return [];
  const moved = movedOf(g);
  const here = (unitsByArea(g).get(s.area) ?? []).filter(
    (u) => u.owner === s.owner && u.id !== s.id && !moved.includes(u.id),
  );
  const troops = here.filter((u) => u.kind !== 'leader' && loadable(u.kind, u.inverted));
  const leaders = here.filter((u) => u.kind === 'leader');
  const out: UnitId[][] = [[]];
  for (const t of troops) out.push([t.id]);
  for (const l of leaders) {
    out.push([l.id]);
    for (const t of troops) out.push([t.id, l.id]);
  }
  return out;
}

const isSeaArea = (ctx: EngineContext, a: AreaId): boolean => ctx.map.area(a)?.kind === 'sea';

/** One stretch of the voyage between stops, with what is aboard while sailing it. */
interface Leg {
  readonly from: AreaId;
  readonly path: AreaId[];
  readonly aboard: UnitId[];
  /** What happens at the end of the leg (a stop), if anything. */
  readonly stop: ShipStop | null;
}

interface Voyage {
  readonly legs: Leg[];
  /** 8.2: the landing's target and the sea area the force waits in, or null. */
  readonly landing: { target: AreaId; sea: AreaId } | null;
  /** Aboard at the end. */
  readonly final: UnitId[];
  /** Every unit that moves with or from the ship (start cargo, loaded, unloaded). */
  readonly involved: UnitId[];
}

type Problem = { code: ErrorCode; params?: Record<string, unknown> };

const capacityOk = (g: Game, ids: readonly UnitId[]): boolean => {
  const kinds = ids.map((id) => g.units[id]?.kind);
  return kinds.filter((k) => k === 'leader').length <= 1 && kinds.filter((k) => k !== 'leader').length <= 1;
};

/**
 * Why a ship move is illegal, or its voyage (legs, landing, final cargo). `companions` are the other
 * ships and cargo of a group moving with it (8.1): they count for stacking where the force ends and
 * for the landing force (8.2).
 */
function planVoyage(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  o: NavalOrder,
  companions: readonly UnitId[] = [],
): Problem | Voyage {
  const s = g.units[o.ship];
  if (s?.kind !== 'ship') return { code: 'order/unknown_unit' };
  if (s.owner !== player) return { code: 'order/not_your_unit' };
  const moved = movedOf(g);
  if (moved.includes(s.id)) return { code: 'order/already_moved' };
  if (o.path.length > movementOf('ship', ctx.options)) return { code: 'order/unreachable' };
  if (shipPathProblem(ctx, s.area, o.path)) return { code: 'order/unreachable' };
  const byArea = unitsByArea(g);
  const to = o.path[o.path.length - 1]!;
  if (o.path.slice(0, -1).some((a) => blocksPlayer(ctx, g, a, player, byArea)))
    return { code: 'order/blocked' };
  // 8.2: an unfriendly end area may only be landed in, across a sea-area boundary.
  const before = o.path.length > 1 ? o.path[o.path.length - 2]! : s.area;
  const landing =
    blocksPlayer(ctx, g, to, player, byArea) && ctx.map.area(to)?.kind === 'land'
      ? isSeaArea(ctx, before)
        ? { target: to, sea: before }
        : null
      : null;
  if (!landing && blocksPlayer(ctx, g, to, player, byArea)) return { code: 'order/blocked' };
  const cargo = cargoOptions(g, s.id).find(
    (c) => c.length === o.cargo.length && c.every((id) => o.cargo.includes(id)),
  );
  if (!cargo) return { code: 'order/invalid', params: { reason: 'cargo' } };
  // AMBIG-15: the stops, in path order, each in a coastal area the ship passes before its end.
  const stops = [...(o.stops ?? [])];
  if (stops.length > 0 && !ctx.options.cfg.pickupEnRoute)
    return { code: 'order/invalid', params: { reason: 'pickupEnRoute' } };
  const indexOf = (a: AreaId) => o.path.indexOf(a);
  for (const st of stops) {
    const i = indexOf(st.at);
    if (i < 0 || i >= o.path.length - 1 || isSeaArea(ctx, st.at))
      return { code: 'order/invalid', params: { reason: 'stop', at: st.at } };
  }
  if (new Set(stops.map((st) => st.at)).size !== stops.length)
    return { code: 'order/invalid', params: { reason: 'stop' } };
  stops.sort((a, b) => indexOf(a.at) - indexOf(b.at));
  let aboard = [...o.cargo];
  const involved = [...o.cargo];
  const legs: Leg[] = [];
  let from = s.area;
  let cut = 0;
  for (const st of stops) {
    const i = indexOf(st.at);
    legs.push({ from, path: o.path.slice(cut, i + 1), aboard: [...aboard], stop: st });
    if (!st.unload.every((id) => aboard.includes(id)))
      return { code: 'order/invalid', params: { reason: 'unload', at: st.at } };
    aboard = aboard.filter((id) => !st.unload.includes(id));
    for (const id of st.load) {
      const u = g.units[id];
      if (
        !u ||
        u.owner !== player ||
        u.area !== st.at ||
        moved.includes(id) ||
        involved.includes(id) ||
        !loadable(u.kind, u.inverted)
      )
        return { code: 'order/invalid', params: { reason: 'load', unit: id } };
      aboard.push(id);
    }
    if (!capacityOk(g, aboard)) return { code: 'order/invalid', params: { reason: 'capacity', at: st.at } };
    involved.push(...st.load);
    // 6 / AMBIG-15: what is dropped off must stack legally where it stays.
    let present = (byArea.get(st.at) ?? [])
      .filter((u) => !st.load.includes(u.id))
      .map((u) => ({ kind: u.kind, owner: u.owner as string }));
    for (const id of st.unload) {
      const u = g.units[id]!;
      if (!mayJoin(present, { kind: u.kind, owner: player })) return { code: 'order/area_occupied' };
      present = [...present, { kind: u.kind, owner: player }];
    }
    from = st.at;
    cut = i + 1;
  }
  legs.push({ from, path: o.path.slice(cut), aboard: [...aboard], stop: null });
  const mine = [s.id, ...aboard, ...companions];
  if (landing) {
    // 8.2: one or two ships, or one ship with its carried unit, per target; tribes never land.
    const others = landingsOf(g).filter((l) => l.target === landing.target);
    const kinds = [...mine, ...others.flatMap((l) => [l.ship, ...l.cargo])]
      .map((id) => g.units[id]?.kind)
      .filter((k) => k !== undefined);
    if (!isLandingForce(kinds) || aboard.some((id) => g.units[id]?.kind === 'tribe'))
      return { code: 'order/invalid', params: { reason: 'landingForce' } };
    if (others.some((l) => l.player !== player)) return { code: 'order/blocked' };
  }
  // 6: stacking where the ship and its cargo end (for a landing: the sea area where the force waits).
  const end = landing ? landing.sea : to;
  let present = (byArea.get(end) ?? [])
    .filter((u) => !mine.includes(u.id))
    .map((u) => ({ kind: u.kind, owner: u.owner as string }));
  for (const id of mine) {
    const u = g.units[id]!;
    if (!mayJoin(present, { kind: u.kind, owner: player })) return { code: 'order/area_occupied' };
    present = [...present, { kind: u.kind, owner: player }];
  }
  return { legs, landing, final: aboard, involved };
}

const isProblem = <T extends object>(v: Problem | T): v is Problem => 'code' in v;

/** One ship of a group order, with its own cargo, as a single-ship order: its approach, then the shared path. */
const membersOf = (o: NavalOrder): NavalOrder[] => [
  { type: 'shipMove', ship: o.ship, path: o.path, cargo: o.cargo },
  ...(o.with ?? []).map((w) => ({
    type: 'shipMove' as const,
    ship: w.ship,
    path: [...(w.approach ?? []), ...o.path],
    cargo: w.cargo,
  })),
];

/**
 * 8.1 grouping: why a group order is illegal, or each member's voyage. Every ship starts in the lead
 * ship's area or reaches it along the coast first (an approach with no sea area, so no sinking
 * count, no interception of its own), so the group enters each sea area from the same area and
 * leaves it together; ships and cargo appear once, no stops; each member is checked as its own move
 * (its full path within MA 4, 5.2), with the others counted for stacking and for the landing force.
 */
function planGroup(ctx: EngineContext, g: Game, player: PlayerId, o: NavalOrder): Problem | Voyage[] {
  if (o.stops?.length) return { code: 'order/invalid', params: { reason: 'groupStops' } };
  const members = membersOf(o);
  const ids = members.flatMap((m) => [m.ship, ...m.cargo]);
  if (new Set(ids).size !== ids.length) return { code: 'order/invalid', params: { reason: 'group' } };
  const start = g.units[o.ship]?.area;
  for (const w of o.with ?? []) {
    const approach = w.approach ?? [];
    const meets = approach.length ? approach[approach.length - 1] : g.units[w.ship]?.area;
    if (meets !== start || approach.some((a) => isSeaArea(ctx, a)))
      return { code: 'order/invalid', params: { reason: 'groupStart', ship: w.ship } };
  }
  const out: Voyage[] = [];
  for (const m of members) {
    const others = members.filter((x) => x !== m).flatMap((x) => [x.ship, ...x.cargo]);
    const v = planVoyage(ctx, g, player, m, others);
    if (isProblem(v)) return { ...v, params: { ...v.params, ship: m.ship } };
    out.push(v);
  }
  return out;
}

/** AMBIG-15: friendly units that could be picked up in the coastal areas a path passes. */
function pickupsAlong(ctx: EngineContext, g: Game, player: PlayerId, path: readonly AreaId[]) {
  if (!ctx.options.cfg.pickupEnRoute) return [];
  const moved = movedOf(g);
  const byArea = unitsByArea(g);
  const out: { at: AreaId; units: UnitId[] }[] = [];
  for (const at of path.slice(0, -1)) {
    if (isSeaArea(ctx, at)) continue;
    const units = (byArea.get(at) ?? [])
      .filter((u) => u.owner === player && !moved.includes(u.id) && loadable(u.kind, u.inverted))
      .map((u) => u.id);
    if (units.length) out.push({ at, units });
  }
  return out;
}

/** 5.2, 8.2: every ship's legal moves now, as concrete orders (each destination with each start cargo). */
export function shipMoveLegal(ctx: EngineContext, g: Game, player: PlayerId): NavalLegalOrder[] {
  const byArea = unitsByArea(g);
  const moved = movedOf(g);
  const out: NavalLegalOrder[] = [];
  const blocked = (a: AreaId) => blocksPlayer(ctx, g, a, player, byArea);
  const ships = unitsOf(g, player).filter((u) => u.kind === 'ship' && !moved.includes(u.id));
  for (const s of ships) {
    const companions = ships.filter((c) => c.area === s.area && c.id !== s.id).map((c) => c.id);
    const dests = shipDestinations(ctx, s.area, movementOf('ship', ctx.options), blocked, blocked);
    for (const d of dests) {
      const pickups = pickupsAlong(ctx, g, player, d.path);
      for (const cargo of cargoOptions(g, s.id)) {
        const o: NavalOrder = { type: 'shipMove', ship: s.id, path: d.path, cargo };
        const v = planVoyage(ctx, g, player, o);
        if (isProblem(v)) continue;
        out.push({
          ...o,
          ...(v.landing ? { landing: true } : {}),
          ...(pickups.length ? { pickups } : {}),
          ...(companions.length ? { companions } : {}),
        });
      }
    }
  }
  return out;
}

/** 5.2 / 5.3 / 8.1 / 8.2: carry out a ship move: one sinking roll for the declared route, then the voyage. */
export function applyShipMove(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  o: NavalOrder,
): Result<Transition> {
  if (o.with?.length) return applyGroupMove(ctx, g, player, o);
  const voyage = planVoyage(ctx, g, player, o);
  if (isProblem(voyage)) return err(voyage.code, { ship: o.ship, ...voyage.params });
  const ship = g.units[o.ship]!;
  const seas = seaAreasEntered(ctx, o.path);
  const modifier = sinkModifierOf(g, player, o.cargo);
  const sinking = sinkingRoll(g, player, ship.id, o.cargo, seas, modifier);
  let s = sinking.state;
  const events: GameEvent[] = [...sinking.events];
  if (sinking.lost.length > 0) return ok({ state: markMoved(s, sinking.lost), events });
  // 8.1: interceptions along the route, after the sinking roll (AMBIG-14), leg by leg; ships in an
  // area a landing was made into (this one included) no longer intercept (8.2).
  const blockedAreas = [...landingBlockedAreas(s), ...(voyage.landing ? [voyage.landing.target] : [])];
  let used: readonly UnitId[] = [];
  for (const leg of voyage.legs) {
    const run = resolveInterceptions(
      ctx,
      s,
      player,
      ship.id,
      leg.from,
      leg.path,
      leg.aboard,
      modifier,
      blockedAreas,
      used,
    );
    s = run.state;
    used = run.used;
    events.push(...run.events);
    if (run.fate === 'lost') return ok({ state: markMoved(s, [ship.id, ...voyage.involved]), events });
    if (run.fate === 'returned') {
      // 8.1: back to the last coastal area it left (its start, or its last stop), cargo aboard.
      for (const id of [ship.id, ...leg.aboard]) if (s.units[id]) s = patchUnit(s, id, { area: leg.from });
      return ok({ state: markMoved(s, [ship.id, ...voyage.involved]), events });
    }
    const st = leg.stop;
    if (!st) continue;
    for (const id of st.unload) {
      if (!s.units[id]) continue;
      s = patchUnit(s, id, { area: st.at });
      events.push({ type: 'unitMoved', player, unit: id, path: o.path.slice(0, o.path.indexOf(st.at) + 1) });
    }
  }
  const to = o.path[o.path.length - 1]!;
  const aboard = voyage.final.filter((id) => s.units[id]);
  if (voyage.landing) {
    // 8.2: the force waits in the sea area it crossed last; its attack is owed in the combat phase.
    const { target, sea } = voyage.landing;
    for (const id of [ship.id, ...aboard]) s = patchUnit(s, id, { area: sea });
    s = recordLanding(s, { player, target, sea, ship: ship.id, cargo: aboard });
    events.push({ type: 'navalLandingDeclared', player, ship: ship.id, cargo: aboard, sea, target });
    return ok({ state: markMoved(s, [ship.id, ...voyage.involved]), events });
  }
  for (const id of [ship.id, ...aboard]) s = patchUnit(s, id, { area: to });
  events.push({ type: 'unitMoved', player, unit: ship.id, path: [...o.path] });
  for (const id of aboard) events.push({ type: 'unitMoved', player, unit: id, path: [...o.path] });
  return ok({ state: markMoved(s, [ship.id, ...voyage.involved]), events });
}

const markMoved = (g: Game, ids: readonly UnitId[]): Game =>
  g.step.kind === 'playerTurn'
    ? { ...g, step: { ...g.step, moved: [...new Set([...g.step.moved, ...ids])] } }
    : g;

/**
 * 5.3: one ship's sinking roll for the sea areas of its route (none: no roll). A ship that sinks
 * goes down with the cargo it started with (AMBIG-15, engine decision); units it would have picked
 * up stay ashore, unmoved. `lost` is what went down.
 */
function sinkingRoll(
  g: Game,
  player: PlayerId,
  ship: UnitId,
  cargo: readonly UnitId[],
  seas: number,
  modifier: number,
): { state: Game; events: GameEvent[]; lost: UnitId[] } {
  if (seas <= 0) return { state: g, events: [], lost: [] };
  const d = rollDie(g);
  const sunk = sinksAfterMove(seas, d.value, modifier) === true;
  const events: GameEvent[] = [
    { type: 'shipSinkingRolled', player, ship, seas, die: d.value, modifier, sunk },
  ];
  if (!sunk) return { state: d.state, events, lost: [] };
  const lost = [ship, ...cargo];
  events.push({ type: 'unitsRemoved', player, units: lost, reason: 'lostAtSea' });
  return { state: removeUnits(d.state, lost), events, lost };
}

/** 5.3 / 13.6: the sinking modifier of one ship: the people's, plus a naval leader aboard it. */
function sinkModifierOf(g: Game, player: PlayerId, cargo: readonly UnitId[]): number {
  const cycle = playerById(g, player)?.cycle;
  const naval = cargo.some((id) => g.units[id]?.kind === 'leader') && leaderTypeOf(g, player) === 'naval';
  return cycle ? sinkingModifier(cycle.people, cycle.stage, naval) : 0;
}

/**
 * 8.1 grouping, 5.3: ships moving together. Each rolls for sinking on its own (in the order given);
 * the survivors are intercepted as one unit along the shared path (`resolveGroupInterceptions`);
 * those sent back stay at the start, the others arrive together, or wait at sea together for a
 * landing (8.2, one landing record per ship).
 */
function applyGroupMove(ctx: EngineContext, g: Game, player: PlayerId, o: NavalOrder): Result<Transition> {
  const plan = planGroup(ctx, g, player, o);
  if (isProblem(plan)) return err(plan.code, { ship: o.ship, ...plan.params });
  const voyages = plan;
  const members = membersOf(o);
  let s = g;
  const events: GameEvent[] = [];
  const movers: (Mover & { path: AreaId[] })[] = [];
  for (const m of members) {
    const modifier = sinkModifierOf(g, player, m.cargo);
    const sinking = sinkingRoll(s, player, m.ship, m.cargo, seaAreasEntered(ctx, m.path), modifier);
    s = sinking.state;
    events.push(...sinking.events);
    if (sinking.lost.length > 0) continue;
    movers.push({ ship: m.ship, cargo: m.cargo, sinkModifier: modifier, path: m.path });
  }
  const involved = members.flatMap((m) => [m.ship, ...m.cargo]);
  const landing = voyages[0]!.landing;
  const blockedAreas = [...landingBlockedAreas(s), ...(landing ? [landing.target] : [])];
  const run = resolveGroupInterceptions(ctx, s, player, movers, o.path, blockedAreas);
  s = run.state;
  events.push(...run.events);
  const to = o.path[o.path.length - 1]!;
  for (const m of movers) {
    if (run.fates[m.ship] !== 'arrived') continue;
    const aboard = m.cargo.filter((id) => s.units[id]);
    if (landing) {
      for (const id of [m.ship, ...aboard]) s = patchUnit(s, id, { area: landing.sea });
      s = recordLanding(s, { player, target: landing.target, sea: landing.sea, ship: m.ship, cargo: aboard });
      events.push({
        type: 'navalLandingDeclared',
        player,
        ship: m.ship,
        cargo: aboard,
        sea: landing.sea,
        target: landing.target,
      });
      continue;
    }
    for (const id of [m.ship, ...aboard]) s = patchUnit(s, id, { area: to });
    for (const id of [m.ship, ...aboard])
      events.push({ type: 'unitMoved', player, unit: id, path: [...m.path] });
  }
  return ok({ state: markMoved(s, involved), events });
}
