/**
 * Players in an open world (1, 4.2, 14.3): joining (entering at the next turn start), choosing
 * a start position under the availability rules, ending a cycle (abandon, elimination) and
 * leaving for good.
 */

import { mayEnterTerrain } from '../barbarian/land-movement.ts';
import type { Colour } from '../model/colours.ts';
import type { EngineContext } from '../model/context.ts';
import type { CycleEndReason, GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { CoreLegalOrder } from '../model/legal-orders.ts';
import { arabsAfricansInPlay, earliestStartTurn, persianInPlay } from '../model/options.ts';
import { peopleOf, START_POSITIONS, type StartPosition } from '../model/people.ts';
import {
  actingNeutralAt,
  cityAt,
  neutralGarrisonStrengthAt,
  playerById,
  unitsByArea,
  unitsOf,
} from '../model/queries.ts';
import { clearRealmPlayer } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import { NO_FINISHED_CYCLES, type PlayerState } from '../model/state.ts';
import { addUnit, type Game, removeUnits, type Transition, updatePlayer } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';
import { persianArmyChoices, persianStartAreas, startPersianKingdom } from './persian.ts';

/** 14.3: a player who joined; it enters at the next turn start (4.2). */
export function newPlayer(
  id: PlayerId,
  name: string,
  seat: number,
  colour: Colour,
  turn: number,
): PlayerState {
  return {
    id,
    name,
    seat,
    colour,
    joinedTurn: turn,
    status: 'waiting',
    cycle: null,
    finished: NO_FINISHED_CYCLES,
    money: 0,
    turnsPlayed: 0,
    capital: null,
    abandoning: false,
  };
}

/** 4.2: a position is taken while another player's barbarian or kingdom cycle came from it. */
function positionHeld(g: Game, position: StartPosition, except: PlayerId): boolean {
  return g.players.some(
    (p) =>
      p.id !== except &&
      p.status === 'active' &&
      p.cycle?.position === position &&
      p.cycle.stage !== 'empire',
  );
}

/** AMBIG-57: an area is occupied by any unit or (acting) neutral garrison. */
const occupied = (
  ctx: EngineContext,
  g: Game,
  a: AreaId,
  byArea: ReadonlyMap<AreaId, readonly Unit[]>,
): boolean => (byArea.get(a) ?? []).length > 0 || actingNeutralAt(ctx, g, a, byArea) !== null;

/**
 * 4.2 / 9 intro / 13.2: the areas where this position's first tribe may go now: the labelled
 * area, or if occupied an adjacent unoccupied land area. Arab and African players enter in the
 * movement phase (13.2.2), so their choice is only of the label.
 */
export function startAreasFor(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  position: StartPosition,
): AreaId[] {
  const people = peopleOf(position);
  if (people === 'PERSIAN' && !persianInPlay(ctx.options)) return [];
  if (people === 'PERSIAN') return persianStartAreas(ctx, g); // 13.2.3 (scenario/persian.ts)
  if ((people === 'ARAB' || people === 'AFRICAN') && !arabsAfricansInPlay(ctx.options)) return [];
  if (g.turn < earliestStartTurn(ctx.options, people)) return [];
  if (positionHeld(g, position, player)) return [];
  const labelled = ctx.map.startAreas(position);
  if (labelled.length === 0) return [];
  if (people === 'ARAB' || people === 'AFRICAN') return [...labelled];
  const byArea = unitsByArea(g);
  const probe: Unit = { id: 'probe' as Unit['id'], owner: player, kind: 'tribe', area: labelled[0]! };
  const out = new Set<AreaId>();
  for (const a of labelled) {
    if (!occupied(ctx, g, a, byArea)) {
      out.add(a);
      continue;
    }
    for (const l of ctx.map.landLinks(a)) {
      if (!occupied(ctx, g, l.to, byArea) && mayEnterTerrain(ctx, g, probe, l.to)) out.add(l.to);
    }
  }
  return [...out].sort();
}

/** 4.2, 14.3: the start positions a waiting player may choose now. */
export function entryLegal(ctx: EngineContext, g: Game, player: PlayerId): CoreLegalOrder[] {
  if (g.step.kind !== 'entry' || g.step.queue[0] !== player) return [];
  // 13.2.3: a Persian who has taken the position picks its army before anyone else enters.
  if (g.step.army?.player === player) return persianArmyChoices(ctx, g, g.step.army.area);
  return START_POSITIONS.map((position) => ({ position, areas: startAreasFor(ctx, g, player, position) }))
    .filter((o) => o.areas.length > 0)
    .map((o) => ({ type: 'chooseStart', position: o.position, areas: o.areas }));
}

/** 4.2: start a cycle: place one tribe (Arab/African: none yet, 13.2.2). */
export function applyChooseStart(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: { position: StartPosition; area: AreaId },
  orderRoll: number,
): Result<Transition> {
  const people = peopleOf(order.position);
  if (g.turn < earliestStartTurn(ctx.options, people))
    return err('order/start_too_early', { position: order.position });
  const areas = startAreasFor(ctx, g, player, order.position);
  if (areas.length === 0) return err('order/start_unavailable', { position: order.position });
  if (!areas.includes(order.area)) return err('order/start_area_invalid', { area: order.area });
  const p = playerById(g, player);
  if (!p) return err('system/unknown_player', { player });
  const number = p.finished.count + 1;
  let s = updatePlayer(g, player, (q) => ({
    ...q,
    status: 'active',
    money: 0,
    capital: null,
    abandoning: false,
    cycle: {
      number,
      position: order.position,
      people,
      stage: 'barbarian',
      startedTurn: g.turn,
      orderRoll,
      countdownStartTurn: null,
      stageTurn: g.turn,
      vp: 0,
    },
  }));
  const started: GameEvent = {
    type: 'cycleStarted',
    player,
    position: order.position,
    area: order.area,
    cycle: number,
  };
  if (people === 'PERSIAN') {
    // 13.2.3: the Persian starts as a kingdom; its army follows (`persianArmy`).
    const t = startPersianKingdom(ctx, s, player);
    return ok({ state: t.state, events: [started, ...t.events] });
  }
  if (people !== 'ARAB' && people !== 'AFRICAN') s = addUnit(s, player, 'tribe', order.area)[0];
  return ok({ state: s, events: [started] });
}

/**
 * 14.3: a position ends (abandoned, eliminated, or the player leaves): all its units go, its
 * cities get neutral garrisons, its treasury is lost; VP stay with the finished cycle.
 */
export function endCycle(ctx: EngineContext, g: Game, player: PlayerId, reason: CycleEndReason): Transition {
  const p = playerById(g, player);
  if (!p?.cycle) return { state: g, events: [] };
  const cycle = p.cycle;
  let s = removeUnits(
    g,
    unitsOf(g, player).map((u) => u.id),
  );
  const events: GameEvent[] = [{ type: 'cycleEnded', player, reason, vp: cycle.vp }];
  const cities = { ...s.cities };
  let neutrals = s.neutrals;
  for (const a of ctx.map.cityAreas) {
    if (cities[a]?.owner !== player || !cityAt(ctx, a)) continue;
    cities[a] = { owner: null, everOwned: true };
    // Not beside another player's unit standing in the city (it takes the city at the next economic
    // phase), nor under a pillage marker acting as one (9.5); a pirates' marker is none (AMBIG-9).
    const occupied = Object.values(s.units).some((u) => u.area === a && u.kind !== 'leader');
    if (!occupied && !neutrals[a] && !actingNeutralAt(ctx, s, a)) {
      const strength = neutralGarrisonStrengthAt(ctx, a);
      neutrals = { ...neutrals, [a]: { strength } };
      events.push({ type: 'neutralPlaced', area: a, strength });
    }
  }
  s = clearRealmPlayer({ ...s, cities, neutrals }, player); // AMBIG-42: pending effects are lost
  s = updatePlayer(s, player, (q) => ({
    ...q,
    status: reason === 'left' ? 'left' : 'waiting',
    cycle: null,
    money: 0,
    capital: null,
    abandoning: false,
    finished: {
      count: cycle.number,
      bestVp: Math.max(q.finished.bestVp, cycle.vp),
      totalVp: q.finished.totalVp + cycle.vp,
    },
  }));
  return { state: s, events };
}
