/**
 * Applying an order: the server's own orders (14.3 joining and leaving), a player's order routed by
 * the step and phase it belongs to, the automatic steps that follow, and undo.
 */
import { applyCombatOrder } from '../combat-phase/phase.ts';
import { settleDiplomacy } from '../diplomacy/settle.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { MapIndex } from '../model/map-index.ts';
import type { Actor, CombatOrder, CoreOrder, Order, RealmOrder } from '../model/orders.ts';
import { peopleOf } from '../model/people.ts';
import { playerById } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { GameState, GameStateCore, PlayerPhase } from '../model/state.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { updatePlayer } from '../model/state-ops.ts';
import { applyShipMove } from '../naval/ship-movement.ts';
import { isRealmAnytimeOrder } from '../realm/diplomacy-orders.ts';
import { applyRealmOrder } from '../realm/realm-orders.ts';
import { mayAbandon, standingsOf } from '../realm/record.ts';
import { applyChooseStart, endCycle, newPlayer } from '../scenario/cycles.ts';
import { persianArmyProblem, placePersianArmy } from '../scenario/persian.ts';
import { applyAdminChoice } from './administration-phase.ts';
import { applyCombine } from './combination.ts';
import { applyPillageChoice } from './economic.ts';
import { applyDisband } from './end-of-movement.ts';
import { applySplit } from './growth.ts';
import { endPlayerPhase, finishCombat, settle, startTurn } from './machine.ts';
import { applyMove, applyPlaceEntryTribes, applySeaCrossing, supportMovesOwed } from './movement-phase.ts';

const core = (s: GameState): GameStateCore => {
  const { undo: _undo, ...rest } = s;
  return rest;
};

/** The map and the game's options, as every rule function reads them (2.1, 13). */
export const ctxOf = (map: MapIndex, g: GameStateCore): EngineContext => ({ map, options: g.options });

function applySystem(ctx: EngineContext, g: Game, order: CoreOrder): Result<Transition> {
  switch (order.type) {
    case 'join': {
      if (g.players.some((p) => p.id === order.player))
        return err('system/player_exists', { player: order.player });
      const present = g.players.filter((p) => p.status !== 'left');
      if (present.length >= 6 || present.some((p) => p.seat === order.seat || p.colour === order.colour)) {
        return err('system/seat_taken', { seat: order.seat, colour: order.colour });
      }
      const s: Game = {
        ...g,
        players: [...g.players, newPlayer(order.player, order.name, order.seat, order.colour, g.turn + 1)],
      };
      const events: GameEvent[] = [
        { type: 'playerJoined', player: order.player, seat: order.seat, turn: g.turn + 1 },
      ];
      if (g.step.kind !== 'idle') return ok({ state: s, events });
      const t = startTurn(ctx, s);
      return ok({ state: t.state, events: [...events, ...t.events] });
    }
    case 'leave':
    case 'forceAbandon': {
      const p = playerById(g, order.player);
      if (!p || p.status === 'left') return err('system/unknown_player', { player: order.player });
      const reason = order.type === 'leave' ? 'left' : 'abandoned';
      let t: Transition = p.cycle ? endCycle(ctx, g, order.player, reason) : { state: g, events: [] };
      if (!p.cycle && order.type === 'leave') {
        t = { state: updatePlayer(g, order.player, (q) => ({ ...q, status: 'left' })), events: [] };
      }
      if (order.type === 'leave')
        t = { state: t.state, events: [...t.events, { type: 'playerLeft', player: order.player }] };
      return ok({ state: dropFromStep(t.state, order.player), events: t.events });
    }
    case 'endWorld': {
      // 14.3.1: the game stops where it stands; nobody is waited for any more (the server closes
      // the world in the same transaction, so no order follows this one).
      const events: GameEvent[] = [
        { type: 'worldEnded', turn: g.turn, reason: order.reason, standings: standingsOf(g) },
      ];
      return ok({ state: { ...g, step: { kind: 'idle' } }, events });
    }
    default:
      return err('system/only_system', { type: order.type });
  }
}

/** A player who is gone no longer holds up the step they were part of. */
function dropFromStep(g: Game, player: PlayerId): Game {
  const s = g.step;
  if (s.kind === 'entry') {
    const { army, ...rest } = s;
    const queue = s.queue.filter((id) => id !== player);
    return { ...g, step: army && army.player !== player ? { ...rest, army, queue } : { ...rest, queue } };
  }
  if (s.kind === 'economic')
    return { ...g, step: { ...s, pending: s.pending.filter((id) => id !== player) } };
  if (s.kind === 'administration' && s.player === player)
    return { ...g, step: { ...s, player: null, choice: null, todo: [] } };
  // A combat waiting on a choice that involved the departed player's (now removed) units is void.
  const pending = g.combat?.pending;
  if (g.combat && pending && (pending.attacker === player || pending.defender === player)) {
    return { ...g, combat: { ...g.combat, pending: null } };
  }
  return g;
}

function applyPlayer(ctx: EngineContext, g: Game, player: PlayerId, order: Order): Result<Transition> {
  const p = playerById(g, player);
  if (!p || p.status === 'left') return err('system/unknown_player', { player });
  const s = g.step;
  if (order.type === 'declareAbandon') {
    if (p.status !== 'active') return err('order/wrong_phase');
    // 14.3.2 (D-27): under the advanced conditions only with last turn's unmodified income below 10.
    if (order.abandon && !mayAbandon(ctx, g, player)) return err('order/abandon_not_allowed', { player });
    return ok({ state: updatePlayer(g, player, (q) => ({ ...q, abandoning: order.abandon })), events: [] });
  }
  if (s.kind === 'idle') return err('order/game_idle');
  // Standing choices, tribute, leases and ransoms, given while another player may be
  // acting (13.4, 13.6, 13.7, 8.1).
  if (isRealmAnytimeOrder(order)) {
    const r = applyRealmOrder(ctx, g, player, order as RealmOrder);
    return r.ok ? ok({ state: r.value.state, events: r.value.events }) : r;
  }
  if (s.kind === 'entry') {
    if (order.type !== 'chooseStart' && order.type !== 'persianArmy')
      return err('order/wrong_phase', { step: s.kind });
    if (s.queue[0] !== player) return err('order/not_your_turn', { waitingFor: s.queue[0] ?? null });
    const { army, ...rest } = s;
    if (order.type === 'persianArmy') {
      // 13.2.3: the Persian who took the position places its army; then the next starter chooses.
      if (army?.player !== player) return err('order/wrong_phase', { step: s.kind });
      const problem = persianArmyProblem(ctx, g, army.area, order);
      if (problem) return err('order/invalid_placement', { reason: problem });
      const t = placePersianArmy(g, player, order);
      return ok({ state: { ...t.state, step: { ...rest, queue: s.queue.slice(1) } }, events: t.events });
    }
    if (army) return err('order/wrong_phase', { step: s.kind, expected: 'persianArmy' });
    const r = applyChooseStart(ctx, g, player, order, s.rolls[player] ?? 0);
    if (!r.ok) return r;
    const st = r.value.state;
    const persian = peopleOf(order.position) === 'PERSIAN';
    const step = persian ? { ...s, army: { player, area: order.area } } : { ...s, queue: s.queue.slice(1) };
    return ok({ state: { ...st, step }, events: r.value.events });
  }
  if (s.kind === 'playerTurn') {
    if (order.type.startsWith('combat')) {
      if (s.phase !== 'combat') return err('order/wrong_phase', { phase: s.phase });
      if (order.type === 'combatDone') {
        if (s.player !== player) return err('order/not_your_turn');
        const t = finishCombat(ctx, g, player);
        return t ? ok(t) : err('order/wrong_phase');
      }
      return applyCombatOrder(ctx, g, player, order as CombatOrder);
    }
    if (s.player !== player) return err('order/not_your_turn', { phasing: s.player });
    // A ship's move (5.2, 5.3, 8.1; naval/ship-movement.ts).
    if (order.type === 'shipMove') {
      if (s.phase !== 'movement') return err('order/wrong_phase', { phase: s.phase, expected: 'movement' });
      return applyShipMove(ctx, g, player, order);
    }
    return applyPhaseOrder(ctx, g, player, order as CoreOrder);
  }
  if (order.type.startsWith('realm')) {
    // Economic plans and administration answers of kingdoms and empires (realm/realm-orders.ts).
    const r = applyRealmOrder(ctx, g, player, order as RealmOrder);
    if (!r.ok) return r;
    const st = r.value.state;
    // A realm answer may end the player's administration (e.g. a complete collapse).
    const state =
      r.value.stop && st.step.kind === 'administration' ? { ...st, step: { ...st.step, todo: [] } } : st;
    return ok({ state, events: r.value.events });
  }
  if (s.kind === 'economic') {
    if (!s.pending.includes(player)) return err('order/not_your_turn');
    if (order.type === 'pillage') return applyPillageChoice(ctx, g, player, order.area);
    if (order.type === 'endPhase') {
      return ok({
        state: { ...g, step: { ...s, pending: s.pending.filter((id) => id !== player) } },
        events: [],
      });
    }
    return err('order/wrong_phase', { step: 'economic' });
  }
  if (order.type === 'keepGroup' || order.type === 'removeUnits' || order.type === 'foundKingdom') {
    if (s.player !== player) return err('order/not_your_turn');
    return applyAdminChoice(ctx, g, player, order);
  }
  return err('order/wrong_phase', { step: s.kind });
}

/** The wrong-phase refusal, or null when the order's phase is the current one. */
function needPhase(phase: PlayerPhase, want: PlayerPhase): Result<Transition> | null {
  return phase === want ? null : err('order/wrong_phase', { phase, expected: want });
}

function applyPhaseOrder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: CoreOrder,
): Result<Transition> {
  if (g.step.kind !== 'playerTurn') return err('order/wrong_phase');
  const phase = g.step.phase;
  const barbarian = playerById(g, player)?.cycle?.stage === 'barbarian';
  switch (order.type) {
    case 'endPhase':
      if (phase === 'stacking') return err('order/still_overstacked');
      {
        const owed = supportMovesOwed(ctx, g, player);
        if (owed.length) return err('order/support_move_owed', { units: owed });
      }
      return ok(endPlayerPhase(ctx, g));
    case 'combine':
      if (!barbarian) return err('order/not_a_barbarian');
      return needPhase(phase, 'combination') ?? applyCombine(ctx, g, player, order);
    case 'split':
      if (!barbarian) return err('order/not_a_barbarian');
      return needPhase(phase, 'growth') ?? applySplit(ctx, g, player, order.tribe);
    case 'move':
      return needPhase(phase, 'movement') ?? applyMove(ctx, g, player, order);
    case 'seaCrossing':
      return needPhase(phase, 'movement') ?? applySeaCrossing(ctx, g, player, order);
    case 'placeEntryTribes':
      return needPhase(phase, 'movement') ?? applyPlaceEntryTribes(ctx, g, player, order.areas);
    case 'disband':
      return needPhase(phase, 'stacking') ?? applyDisband(g, player, order.unit);
    default:
      return err('order/wrong_phase', { phase, type: order.type });
  }
}

/** `stepKey(a) === stepKey(b)`, compared field by field (no strings built on every order). */
const sameStep = (a: GameStateCore, b: GameStateCore): boolean => {
  const s = a.step;
  const t = b.step;
  if (a.turn !== b.turn) return false;
  if (s.kind === 'playerTurn') return t.kind === 'playerTurn' && s.player === t.player && s.phase === t.phase;
  if (s.kind === 'administration')
    return (
      t.kind === 'administration' &&
      s.player === t.player &&
      (s.choice?.type ?? '') === (t.choice?.type ?? '')
    );
  return s.kind === t.kind;
};

/**
 * Apply one order to the core state and settle; no undo bookkeeping and no version bump (the
 * caller builds the stored state in one copy). `g` may carry an undo log: the caller replaces it.
 */
function applyCore(map: MapIndex, g: GameStateCore, actor: Actor, order: Order): Result<Transition> {
  const ctx = ctxOf(map, g);
  const isSystem =
    order.type === 'join' ||
    order.type === 'leave' ||
    order.type === 'forceAbandon' ||
    order.type === 'endWorld';
  if (isSystem !== (actor === 'system'))
    return err(isSystem ? 'system/only_system' : 'order/invalid', { type: order.type });
  const r = actor === 'system' ? applySystem(ctx, g, order as CoreOrder) : applyPlayer(ctx, g, actor, order);
  if (!r.ok) return r;
  const settled = settle(ctx, r.value.state);
  // The optional diplomacy: leases start and end at a turn start (13.4), leaders are captured or freed (13.6).
  const phasing = g.step.kind === 'playerTurn' ? g.step.player : null;
  const events = r.value.events.concat(settled.events);
  const d = settleDiplomacy(g, settled.state, events, phasing);
  if (d.state === settled.state) return ok({ state: d.state, events: events.concat(d.events) });
  const again = settle(ctx, d.state);
  return ok({ state: again.state, events: events.concat(d.events, again.events) });
}

/**
 * 4: undo (the BGA / Rally the Troops policy): a player may take back their own orders of the
 * current step until a die is rolled, something is revealed or the step moves on. The log keeps
 * the state where that window opened and the orders since; undo replays all but the last.
 */
export function applyWithUndo(
  map: MapIndex,
  state: GameState,
  actor: Actor,
  order: Order,
): Result<{ state: GameState; events: GameEvent[] }> {
  if (order.type === 'undo') {
    const log = state.undo;
    const idx = log ? log.orders.map((o) => o.actor).lastIndexOf(actor as PlayerId) : -1;
    if (!log || idx < 0 || actor === 'system') return err('order/nothing_to_undo');
    let g = log.base;
    const kept = log.orders.filter((_, i) => i !== idx);
    for (const o of kept) {
      const r = applyCore(map, g, o.actor, o.order as Order);
      if (!r.ok) return err('order/nothing_to_undo', { replayFailed: r.error.code });
      g = r.value.state;
    }
    return ok({
      state: { ...g, version: state.version + 1, undo: { base: log.base, orders: kept } },
      events: [],
    });
  }
  // The state goes in with its undo log (no copy without it); the result's log is replaced below.
  const before: GameStateCore = state;
  const r = applyCore(map, before, actor, order);
  if (!r.ok) return r;
  const after = r.value.state;
  // Another player's order closes the window (it may answer ours, e.g. a pursuit after our
  // retreat), except in the economic step where decisions are independent by design (4.5).
  const lastActor = state.undo?.orders.at(-1)?.actor;
  const otherPlayer = lastActor !== undefined && lastActor !== actor && before.step.kind !== 'economic';
  const closes =
    actor === 'system' ||
    otherPlayer ||
    after.rng !== before.rng ||
    after.riggedDice.length !== before.riggedDice.length ||
    !sameStep(after, before);
  const undo = closes
    ? null
    : {
        base: state.undo?.base ?? core(state),
        orders: [...(state.undo?.orders ?? []), { actor: actor as PlayerId, order }],
      };
  return ok({ state: { ...after, version: state.version + 1, undo }, events: r.value.events });
}
