/**
 * 5.2 / 5.3 Ships moving in the movement phase: a ship (with at most one non-ship unit and one
 * leader from its start area, 5.2) sails a path through sea areas, along shorelines and by white
 * arrows, ends in a coastal area, and rolls once for sinking against the sea areas of its declared
 * route (AMBIG-14 `declaredRoute`). Areas holding unfriendly units (or neutrals) are not entered.
 * Interceptions (8.1) follow the sinking roll; naval landings (8.2) are not modelled yet.
 */
import { z } from 'zod';
import { rollDie } from '../dice.ts';
import { leaderTypeOf } from '../diplomacy/leaders.ts';
import type { EngineContext } from '../engine-context.ts';
import type { GameEvent } from '../events.ts';
import { type AreaId, areaIdSchema, type PlayerId, type UnitId, unitIdSchema } from '../ids.ts';
import { blocksPlayer, playerById, unitsByArea, unitsOf } from '../queries.ts';
import { err, ok, type Result } from '../result.ts';
import { mayJoin } from '../stacking.ts';
import type { Game, Transition } from '../state-ops.ts';
import { patchUnit, removeUnits } from '../state-ops.ts';
import { movementOf } from '../units.ts';
import { resolveInterceptions } from './intercept-combat.ts';
import { seaAreasEntered, shipDestinations, shipPathProblem } from './sea-graph.ts';
import { sinkingModifier, sinksAfterMove } from './sinking.ts';

export const NAVAL_ORDER_SCHEMAS = [
  /** 5.2: a ship sails `path` (start excluded), carrying `cargo` from its start area. */
  z.object({
    type: z.literal('shipMove'),
    ship: unitIdSchema,
    path: z.array(areaIdSchema).min(1).max(12),
    cargo: z.array(unitIdSchema).max(2),
  }),
] as const;

export type NavalOrder = { type: 'shipMove'; ship: UnitId; path: AreaId[]; cargo: UnitId[] };
export type NavalLegalOrder = NavalOrder;

const movedOf = (g: Game): readonly UnitId[] => (g.step.kind === 'playerTurn' ? g.step.moved : []);

/** 5.2: the units a ship may carry from its area: one non-ship unit that has not moved, one leader. */
export function cargoOptions(g: Game, ship: UnitId): UnitId[][] {
  const s = g.units[ship];
  if (!s) return [];
  const moved = movedOf(g);
  const here = Object.values(g.units).filter(
    (u) => u.area === s.area && u.owner === s.owner && u.id !== s.id && !moved.includes(u.id),
  );
  const troops = here.filter(
    (u) => u.kind !== 'ship' && u.kind !== 'leader' && u.kind !== 'garrison' && !u.inverted,
  );
  const leaders = here.filter((u) => u.kind === 'leader');
  const out: UnitId[][] = [[]];
  for (const t of troops) out.push([t.id]);
  for (const l of leaders) {
    out.push([l.id]);
    for (const t of troops) out.push([t.id, l.id]);
  }
  return out;
}

/** Why a ship move is illegal, or null. */
export function shipMoveProblem(ctx: EngineContext, g: Game, player: PlayerId, o: NavalOrder): string | null {
  const s = g.units[o.ship];
  if (s?.kind !== 'ship') return 'order/unknown_unit';
  if (s.owner !== player) return 'order/not_your_unit';
  if (movedOf(g).includes(s.id)) return 'order/already_moved';
  if (o.path.length > movementOf('ship', ctx.options)) return 'order/unreachable';
  if (shipPathProblem(ctx, s.area, o.path)) return 'order/unreachable';
  const byArea = unitsByArea(g);
  if (o.path.some((a) => blocksPlayer(ctx, g, a, player, byArea))) return 'order/blocked';
  const cargo = cargoOptions(g, s.id).find(
    (c) => c.length === o.cargo.length && c.every((id) => o.cargo.includes(id)),
  );
  if (!cargo) return 'order/invalid';
  const to = o.path[o.path.length - 1]!;
  let present = (byArea.get(to) ?? []).map((u) => ({ kind: u.kind, owner: u.owner as string }));
  for (const id of [s.id, ...o.cargo]) {
    const u = g.units[id]!;
    if (!mayJoin(present, { kind: u.kind, owner: player })) return 'order/area_occupied';
    present = [...present, { kind: u.kind, owner: player }];
  }
  return null;
}

/** 5.2: every ship's legal moves now, as concrete orders (each destination with each cargo). */
export function shipMoveLegal(ctx: EngineContext, g: Game, player: PlayerId): NavalLegalOrder[] {
  const byArea = unitsByArea(g);
  const moved = movedOf(g);
  const out: NavalLegalOrder[] = [];
  for (const s of unitsOf(g, player).filter((u) => u.kind === 'ship' && !moved.includes(u.id))) {
    const dests = shipDestinations(ctx, s.area, movementOf('ship', ctx.options), (a) =>
      blocksPlayer(ctx, g, a, player, byArea),
    );
    for (const d of dests)
      for (const cargo of cargoOptions(g, s.id)) {
        const o: NavalOrder = { type: 'shipMove', ship: s.id, path: d.path, cargo };
        if (shipMoveProblem(ctx, g, player, o) === null) out.push(o);
      }
  }
  return out;
}

/** 5.2 / 5.3: carry out a ship move: one sinking roll for the declared route, then the move. */
export function applyShipMove(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  o: NavalOrder,
): Result<Transition> {
  const problem = shipMoveProblem(ctx, g, player, o);
  if (problem) return err(problem as 'order/invalid', { ship: o.ship });
  const ship = g.units[o.ship]!;
  const cycle = playerById(g, player)?.cycle;
  const seas = seaAreasEntered(ctx, o.path);
  let s = g;
  const events: GameEvent[] = [];
  if (seas > 0) {
    const d = rollDie(s);
    s = d.state;
    const naval = o.cargo.some((id) => g.units[id]?.kind === 'leader') && leaderTypeOf(g, player) === 'naval';
    const mod = cycle ? sinkingModifier(cycle.people, cycle.stage, naval) : 0;
    const sunk = sinksAfterMove(seas, d.value, mod) === true;
    events.push({
      type: 'shipSinkingRolled',
      player,
      ship: ship.id,
      seas,
      die: d.value,
      modifier: mod,
      sunk,
    });
    if (sunk) {
      const lost = [ship.id, ...o.cargo];
      s = removeUnits(s, lost);
      events.push({ type: 'unitsRemoved', player, units: lost, reason: 'lostAtSea' });
      return ok({ state: markMoved(s, lost), events });
    }
  }
  // 8.1: interceptions along the route, after the sinking roll (AMBIG-14).
  const naval = o.cargo.some((id) => g.units[id]?.kind === 'leader') && leaderTypeOf(g, player) === 'naval';
  const modifier = cycle ? sinkingModifier(cycle.people, cycle.stage, naval) : 0;
  const run = resolveInterceptions(ctx, s, player, ship.id, ship.area, o.path, o.cargo, modifier);
  s = run.state;
  events.push(...run.events);
  if (run.fate !== 'arrived') return ok({ state: markMoved(s, [ship.id, ...o.cargo]), events });
  const to = o.path[o.path.length - 1]!;
  for (const id of [ship.id, ...o.cargo]) s = patchUnit(s, id, { area: to });
  events.push({ type: 'unitMoved', player, unit: ship.id, path: [...o.path] });
  for (const id of o.cargo) events.push({ type: 'unitMoved', player, unit: id, path: [...o.path] });
  return ok({ state: markMoved(s, [ship.id, ...o.cargo]), events });
}

const markMoved = (g: Game, ids: readonly UnitId[]): Game =>
  g.step.kind === 'playerTurn' ? { ...g, step: { ...g.step, moved: [...g.step.moved, ...ids] } } : g;
