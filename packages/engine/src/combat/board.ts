/**
 * Adapters from the game state to the small pure inputs of the combat rules: what stands in an
 * area, the retreat board of a player's unit, and what a pursuer or advancing unit may enter.
 */

import { combatStateOf } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { tribesIgnoreDesert } from '../model/options.ts';
import { actingNeutralAt, cityAt, playerById, unitsByArea } from '../model/queries.ts';
import { mayJoin, type StackPiece } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import { movementOf, type Unit } from '../model/units.ts';
import type { RetreatBoard, RetreatingUnit } from './retreat.ts';

const pieceOf = (u: Unit): StackPiece => ({ kind: u.kind, owner: u.owner, inverted: u.inverted === true });

/** 6, 14.1: everything standing in an area as stacking pieces (an acting neutral garrison included). */
export function piecesIn(
  ctx: EngineContext,
  state: GameStateCore,
  area: AreaId,
  exclude?: UnitId,
): StackPiece[] {
  const byArea = unitsByArea(state);
  const pieces = (byArea.get(area) ?? []).filter((u) => u.id !== exclude).map(pieceOf);
  if (actingNeutralAt(ctx, state, area, byArea) && !beatenNeutralAt(state, area))
    pieces.push({ kind: 'neutralGarrison', owner: null });
  return pieces;
}

/**
 * The neutral of the combat being resolved was beaten: until the combat ends it no longer stands in
 * the way (a pillage marker stays in its city and would otherwise still act as a garrison, 9.5).
 */
function beatenNeutralAt(state: GameStateCore, area: AreaId): boolean {
  const pending = combatStateOf(state).pending;
  return pending?.target === area && pending.neutral?.eliminated === true;
}

/** 9.3.1, 13.2.2: does a desert stop this player's tribes? */
function desertStopsTribes(ctx: EngineContext, state: GameStateCore, player: PlayerId): boolean {
  const people = playerById(state, player)?.cycle?.people;
  return !(people && tribesIgnoreDesert(ctx.options, people));
}

/** 7.3: the board as a retreating unit of `player` sees it. */
export function retreatBoard(
  ctx: EngineContext,
  state: GameStateCore,
  unit: UnitId,
  player: PlayerId,
): RetreatBoard {
  const desertStops = desertStopsTribes(ctx, state, player);
  const ship = state.units[unit]?.kind === 'ship';
  return {
    // 8.3: a ship retreats along the coast (coastal area to coastal area); across a sea: naval/.
    neighbours: (area) =>
      ctx.map
        .landLinks(area as AreaId)
        .map((l) => l.to)
        .filter((to) => !ship || ctx.map.area(to)?.coastal === true),
    occupants: (area) => piecesIn(ctx, state, area as AreaId, unit),
    desert: (area) => desertStops && ctx.map.area(area as AreaId)?.desert === true,
    unfriendlyCity: (area) => cityAt(ctx, area as AreaId) !== null && state.cities[area]?.owner !== player,
  };
}

/** 7.3: A unit as the retreat rules see it. */
export function retreatingUnit(ctx: EngineContext, u: Unit): RetreatingUnit {
  return {
    id: u.id,
    kind: u.kind,
    owner: u.owner,
    inverted: u.inverted === true,
    movement: movementOf(u.kind, ctx.options),
  };
}

/** 5.1, 7.2: may a unit moving after combat (advance, pursuit) enter this area at all? */
export function mayEnterAfterCombat(
  ctx: EngineContext,
  state: GameStateCore,
  u: Unit,
  area: AreaId,
): boolean {
  const info = ctx.map.area(area);
  if (info?.kind !== 'land') return false;
  if (u.kind === 'ship' && !info.coastal) return false; // ships stay on the coast (5.2)
  if (u.kind === 'tribe' && info.desert && desertStopsTribes(ctx, state, u.owner)) return false;
  // What `piecesIn` would list, asked without building it (this runs for every area of every
  // pursuit path): no unfriendly unit but a leader, and no neutral garrison still standing.
  const byArea = unitsByArea(state);
  for (const x of byArea.get(area) ?? []) {
    if (x.id !== u.id && x.owner !== u.owner && x.kind !== 'leader') return false;
  }
  return !(actingNeutralAt(ctx, state, area, byArea) && !beatenNeutralAt(state, area));
}

/** 6: may the unit end an advance or pursuit in this area (stacking with what is there)? */
export function mayEndAfterCombat(ctx: EngineContext, state: GameStateCore, u: Unit, area: AreaId): boolean {
  if (!mayEnterAfterCombat(ctx, state, u, area)) return false;
  const present: StackPiece[] = [];
  for (const x of unitsByArea(state).get(area) ?? []) {
    if (x.id !== u.id && x.owner === u.owner) present.push(pieceOf(x));
  }
  return mayJoin(present, pieceOf(u));
}
