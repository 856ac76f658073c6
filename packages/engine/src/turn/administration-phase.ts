/**
 * 4.6 Administration phase (A.4-X, AMBIG-13 order). Global first: pillage markers whose digit
 * matches the turn go (9.5). Then each player in move order: abandon (14.3); barbarians run
 * continuity (9.3.4) → unrest (9.3.5) → countdown (9.3.x) → conversion (10.1). Global last:
 * city-less neutral garrisons with no garrisoned city next door are removed (14.1).
 * Kingdoms' and empires' Administration Table is realm/realm-administration.ts.
 */
import { tribeGroups } from '../barbarian/continuity.ts';
import { countdownEnds, countdownStarts, kingdomTurn } from '../barbarian/countdown.ts';
import { rollUnrest } from '../barbarian/unrest.ts';
import { assignLeaderType } from '../diplomacy/leader-types.ts';
import { leasedOut } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import { countdownAfterLosses, emptyBarbarianEndsCycle } from '../model/options.ts';
import {
  actingNeutralAt,
  cityAt,
  countUnits,
  neutralGarrisonStrengthAt,
  playerById,
  unitsByArea,
  unitsOf,
} from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { AdminTask } from '../model/state.ts';
import {
  addUnit,
  type Game,
  patchUnit,
  removeUnits,
  type Transition,
  updatePlayer,
} from '../model/state-ops.ts';
import { kingdomKindOf } from '../model/units.ts';
import { realmAdminLegal } from '../realm/choices.ts';
import { administerRealm } from '../realm/realm-administration.ts';
import { endCycle } from '../scenario/cycles.ts';

/** 9.5: markers whose digit is this turn's last digit are removed; acting as a garrison, they flip. */
export function removeDueMarkers(ctx: EngineContext, g: Game): Transition {
  const digit = g.turn % 10;
  const byArea = unitsByArea(g);
  const events: GameEvent[] = [];
  let neutrals = g.neutrals;
  const keep = g.markers.filter((m) => {
    if (m.digit !== digit || m.turn === g.turn) return true;
    const acting = actingNeutralAt(ctx, g, m.area, byArea)?.source === 'marker';
    if (acting) neutrals = { ...neutrals, [m.area]: { strength: neutralGarrisonStrengthAt(ctx, m.area) } };
    events.push({ type: 'markerRemoved', area: m.area, digit: m.digit, flippedToNeutral: acting });
    return false;
  });
  return { state: { ...g, markers: keep, neutrals }, events };
}

/** The barbarian tasks in the order AMBIG-13 / cfg.countdownCheckTiming gives. */
export function adminTasks(ctx: EngineContext, g: Game, player: PlayerId): AdminTask[] {
  const p = playerById(g, player);
  const tasks: AdminTask[] = p?.abandoning ? ['abandon'] : [];
  if (p?.abandoning) return tasks;
  if (p?.cycle?.stage === 'kingdom' || p?.cycle?.stage === 'empire') return [...tasks, 'realm'];
  if (p?.cycle?.stage !== 'barbarian') return tasks;
  return countdownAfterLosses(ctx.options)
    ? ['continuity', 'unrest', 'countdown', 'conversion']
    : ['countdown', 'continuity', 'unrest', 'conversion'];
}

type TaskOutcome = Transition & { choice: import('../model/state.ts').AdminChoice | null; stop?: boolean };

/** 4.6: run one task; it may leave a choice for the player. */
export function runTask(ctx: EngineContext, g: Game, player: PlayerId, task: AdminTask): TaskOutcome {
  const p = playerById(g, player);
  const cycle = p?.cycle;
  if (!p || !cycle) return { state: g, events: [], choice: null, stop: true };
  switch (task) {
    case 'realm':
      return administerRealm(ctx, g, player);
    case 'abandon': {
      const t = endCycle(ctx, g, player, 'abandoned');
      return { ...t, choice: null, stop: true };
    }
    case 'continuity': {
      const groups = tribeGroups(ctx, g, player);
      if (groups.length <= 1) return { state: g, events: [], choice: null };
      return { state: g, events: [], choice: { type: 'continuity', groups } };
    }
    case 'unrest': {
      const r = rollUnrest(g, player);
      return {
        state: r.state,
        events: r.events,
        choice: r.loss > 0 ? { type: 'unrestLoss', count: r.loss } : null,
      };
    }
    case 'countdown': {
      const units = countUnits(g, player).total;
      if (!countdownStarts(cycle.countdownStartTurn, units)) return { state: g, events: [], choice: null };
      const s = updatePlayer(g, player, (q) =>
        q.cycle ? { ...q, cycle: { ...q.cycle, countdownStartTurn: g.turn } } : q,
      );
      const ev: GameEvent = {
        type: 'countdownStarted',
        player,
        turn: g.turn,
        units,
        kingdomTurn: kingdomTurn(cycle.people, g.turn),
      };
      return { state: s, events: [ev], choice: null };
    }
    case 'conversion': {
      if (!countdownEnds(cycle.people, cycle.countdownStartTurn, g.turn))
        return { state: g, events: [], choice: null };
      const flipped = convertUnits(g, player);
      const opts = foundingOptions(ctx, flipped.state, player);
      if (opts.leaderWith.length <= 1 && opts.capital.length <= 1) {
        const t = foundKingdom(
          ctx,
          flipped.state,
          player,
          opts.leaderWith[0] ?? null,
          opts.capital[0] ?? null,
        );
        return { state: t.state, events: [...flipped.events, ...t.events], choice: null };
      }
      return { state: flipped.state, events: flipped.events, choice: { type: 'foundKingdom' } };
    }
  }
}

/** 10.1: flip barbarian units to their kingdom side and remove tribes. */
export function convertUnits(g: Game, player: PlayerId): Transition {
  let s = g;
  const removed: UnitId[] = [];
  for (const u of unitsOf(g, player)) {
    const k = kingdomKindOf(u.kind);
    if (k === null) removed.push(u.id);
    else if (k !== u.kind) s = patchUnit(s, u.id, { kind: k, inverted: false });
  }
  s = removeUnits(s, removed);
  const events: GameEvent[] = removed.length
    ? [{ type: 'unitsRemoved', player, units: removed, reason: 'conversion' }]
    : [];
  return { state: s, events };
}

/** 10.1 / 10.2 / 10.3: where the new leader and capital may go. */
function foundingOptions(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
): { leaderWith: UnitId[]; capital: AreaId[] } {
  const leaderWith = unitsOf(g, player)
    .filter((u) => u.kind !== 'leader')
    .map((u) => u.id)
    .sort();
  const capital = ctx.map.cityAreas.filter(
    (a) => cityAt(ctx, a) && g.cities[a]?.owner === player && !g.markers.some((m) => m.area === a),
  );
  return { leaderWith, capital };
}

/** 10.1: the barbarian becomes a kingdom, with a leader (if it has a unit) and a capital (if it owns a city). */
export function foundKingdom(
  _ctx: EngineContext,
  g: Game,
  player: PlayerId,
  leaderWith: UnitId | null,
  capital: AreaId | null,
): Transition {
  let s = g;
  let leader: UnitId | null = null;
  const host = leaderWith ? g.units[leaderWith] : undefined;
  if (host) [s, leader] = addUnit(s, player, 'leader', host.area);
  s = updatePlayer(s, player, (p) => ({
    ...p,
    capital,
    money: s.options.cfg.barbarianMoneyCarries ? p.money : 0,
    cycle: p.cycle ? { ...p.cycle, stage: 'kingdom', stageTurn: g.turn } : p.cycle,
  }));
  // 13.6: with optional leaders the new leader's type is rolled now.
  const lt = leader ? assignLeaderType(s.options, s, player) : { state: s, events: [] };
  return {
    state: lt.state,
    events: [{ type: 'becameKingdom', player, turn: g.turn, leader, capital }, ...lt.events],
  };
}

/** 4.6: the answers to the pending administration choice. */
export function administrationLegal(ctx: EngineContext, g: Game, player: PlayerId): LegalOrder[] {
  if (g.step.kind !== 'administration' || !g.step.choice) return [];
  const c = g.step.choice;
  // A realm's choices may belong to another player (a rebellion 2 defection is a barbarian's).
  if (c.type === 'realm') return realmAdminLegal(ctx, g, player);
  if (g.step.player !== player) return [];
  switch (c.type) {
    case 'continuity':
      return c.groups.map((group) => ({ type: 'keepGroup', area: group[0]!, group: [...group] }));
    case 'unrestLoss':
      return [
        {
          type: 'removeUnits',
          count: c.count,
          candidates: unitsOf(g, player)
            .filter((u) => u.kind !== 'leader')
            .map((u) => u.id)
            .sort(),
        },
      ];
    case 'foundKingdom': {
      const o = foundingOptions(ctx, g, player);
      return [
        { type: 'foundKingdom', leaderWith: o.leaderWith, capital: o.capital.length ? o.capital : [null] },
      ];
    }
  }
}

/** 4.6: apply the player's answer to the pending administration choice. */
export function applyAdminChoice(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order:
    | { type: 'keepGroup'; area: AreaId }
    | { type: 'removeUnits'; units: UnitId[] }
    | { type: 'foundKingdom'; leaderWith: UnitId | null; capital: AreaId | null },
): Result<Transition> {
  if (g.step.kind !== 'administration' || g.step.player !== player || !g.step.choice)
    return err('order/wrong_phase');
  const c = g.step.choice;
  const cleared: Game = { ...g, step: { ...g.step, choice: null } };
  if (order.type === 'keepGroup' && c.type === 'continuity') {
    const keep = c.groups.find((gr) => gr.includes(order.area));
    if (!keep) return err('order/not_a_group', { area: order.area });
    const drop = unitsOf(g, player)
      .filter((u) => u.kind === 'tribe' && !keep.includes(u.area))
      .map((u) => u.id);
    const events: GameEvent[] = [
      { type: 'continuityChecked', player, groups: c.groups.length, kept: [...keep] },
      { type: 'unitsRemoved', player, units: drop, reason: 'continuity' },
    ];
    return ok({ state: removeUnits(cleared, drop), events });
  }
  if (order.type === 'removeUnits' && c.type === 'unrestLoss') {
    const ids = [...new Set(order.units)];
    if (ids.length !== c.count) return err('order/wrong_count', { expected: c.count, got: ids.length });
    for (const id of ids) {
      const u = g.units[id];
      if (!u || u.owner !== player || u.kind === 'leader') return err('order/not_your_unit', { unit: id });
    }
    return ok({
      state: removeUnits(cleared, ids),
      events: [{ type: 'unitsRemoved', player, units: ids, reason: 'unrest' }],
    });
  }
  if (order.type === 'foundKingdom' && c.type === 'foundKingdom') {
    const o = foundingOptions(ctx, g, player);
    if (order.leaderWith === null ? o.leaderWith.length > 0 : !o.leaderWith.includes(order.leaderWith))
      return err('order/invalid_placement', { unit: order.leaderWith });
    if (order.capital === null ? o.capital.length > 0 : !o.capital.includes(order.capital)) {
      return err('order/invalid_placement', { area: order.capital });
    }
    return ok(foundKingdom(ctx, cleared, player, order.leaderWith, order.capital));
  }
  return err('order/wrong_phase', { expected: c.type });
}

/** 4.6, 14.3: after a player's tasks: a barbarian left with nothing has finished its cycle (engine decision). */
export function endOfPlayerAdmin(ctx: EngineContext, g: Game, player: PlayerId): Transition {
  const p = playerById(g, player);
  if (p?.status !== 'active' || p.cycle?.stage !== 'barbarian' || !emptyBarbarianEndsCycle(ctx.options)) {
    return { state: g, events: [] };
  }
  // Units leased to a hirer are still the barbarian's (13.4, AMBIG-21): the horde lives on through them.
  if (unitsOf(g, player).length > 0 || leasedOut(g, player).length > 0) return { state: g, events: [] };
  return endCycle(ctx, g, player, 'eliminated');
}
