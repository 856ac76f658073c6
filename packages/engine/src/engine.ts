/**
 * The engine contract (STYLE habit 1): create a game, list a player's legal orders, apply an
 * order (→ new state + fact events, or a typed error), say who must act, give the defaults for
 * a missed deadline, and compute a viewer's view. Pure: no I/O, no clock, no Math.random.
 */

import { loadMap } from '@bke/map';
import { applyCombatOrder, combatLegalOrders, combatWaitingFor } from './combat/phase.ts';
import { isRealmAnytimeOrder, realmAnytimeLegal } from './diplomacy/orders.ts';
import { settleDiplomacy } from './diplomacy/settle.ts';
import type { EngineContext } from './model/context.ts';
import type { GameEvent } from './model/events.ts';
import { hashState } from './model/hash.ts';
import type { AreaId, PlayerId, UnitId } from './model/ids.ts';
import type { LegalOrder } from './model/legal-orders.ts';
import { indexMap, type MapIndex, type MapInput } from './model/map-index.ts';
import type { CoreOrder } from './model/orders.ts';
import { type CombatOrder, type Order, parseOrder, type RealmOrder } from './model/orders.ts';
import { peopleOf } from './model/people.ts';
import { playerById } from './model/queries.ts';
import type { RealmView } from './model/realm.ts';
import { err, ok, type Result } from './model/result.ts';
import type { GameState, GameStateCore, PlayerPhase } from './model/state.ts';
import type { Game, Transition } from './model/state-ops.ts';
import { updatePlayer } from './model/state-ops.ts';
import { applyShipMove } from './naval/movement.ts';
import { realmWaitingFor } from './realm/choices.ts';
import { applyRealmOrder } from './realm/orders.ts';
import { persianArmyProblem, placePersianArmy } from './realm/persian.ts';
import { mayAbandon } from './realm/record.ts';
import { realmViewFor } from './realm/view.ts';
import { applyChooseStart, endCycle, entryLegal, newPlayer } from './scenario/cycles.ts';
import { type GameSetupInput, gameSetupSchema, initialState } from './scenario/setup.ts';
import { expand } from './sim/expand.ts';
import { administrationLegal, applyAdminChoice } from './turn/administration.ts';
import { applyCombine } from './turn/combination.ts';
import { applyPillageChoice, economicLegal } from './turn/economic.ts';
import { applyDisband } from './turn/end-of-movement.ts';
import { applySplit } from './turn/growth.ts';
import { endPlayerPhase, finishCombat, settle, startTurn } from './turn/machine.ts';
import { applyMove, applyPlaceEntryTribes, applySeaCrossing, supportMovesOwed } from './turn/movement.ts';
import { playerPhaseOrders } from './turn/phase-orders.ts';

export type Actor = PlayerId | 'system';

/** What a viewer may see: everything but the dice's future (2.4: all bookkeeping is open). */
export type GameView = Omit<GameStateCore, 'rng' | 'riggedDice' | 'realm'> & {
  readonly realm?: RealmView;
  readonly viewer: PlayerId | null;
  readonly waitingFor: PlayerId[];
  /** Players who may take back an order now. */
  readonly canUndo: PlayerId[];
};

export interface Engine {
  readonly map: MapIndex;
  createGame(setup: GameSetupInput | unknown): Result<GameState>;
  legalOrders(state: GameState, player: PlayerId): LegalOrder[];
  applyOrder(
    state: GameState,
    actor: Actor,
    order: Order | unknown,
  ): Result<{ state: GameState; events: GameEvent[] }>;
  waitingFor(state: GameState): PlayerId[];
  timeoutOrders(state: GameState, player: PlayerId): Order[];
  view(state: GameState, viewer: PlayerId | null): GameView;
  hash(state: GameState): string;
}

const core = (s: GameState): GameStateCore => {
  const { undo: _undo, ...rest } = s;
  return rest;
};

const ctxOf = (map: MapIndex, g: GameStateCore): EngineContext => ({ map, options: g.options });

export function waitingFor(g: GameStateCore): PlayerId[] {
  const s = g.step;
  switch (s.kind) {
    case 'idle':
      return [];
    case 'entry':
      return s.queue[0] ? [s.queue[0]] : [];
    case 'playerTurn':
      return s.phase === 'combat' ? combatWaitingFor(g) : [s.player];
    case 'economic':
      return [...s.pending];
    case 'administration':
      if (s.choice?.type === 'realm') return realmWaitingFor(g);
      return s.choice && s.player ? [s.player] : [];
  }
}

/** Every order the player may give now (what the client highlights; STYLE habit 7). */
export function legalOrdersOf(map: MapIndex, g: GameState, player: PlayerId): LegalOrder[] {
  const ctx = ctxOf(map, g);
  const p = playerById(g, player);
  if (!p || p.status === 'left') return [];
  const out: LegalOrder[] = [];
  const s = g.step;
  if (s.kind === 'entry') out.push(...entryLegal(ctx, g, player));
  if (s.kind === 'playerTurn') {
    if (s.phase === 'combat') out.push(...combatLegalOrders(ctx, g, player));
    else if (s.player === player) {
      out.push(...playerPhaseOrders(ctx, g, player));
      // 11.5: an unsupported empire unit that can regain support must try before the phase ends.
      if (s.phase !== 'stacking' && supportMovesOwed(ctx, g, player).length === 0)
        out.push({ type: 'endPhase' });
    }
  }
  if (s.kind === 'economic' && s.pending.includes(player)) {
    out.push(...economicLegal(ctx, g, player), { type: 'endPhase' });
  }
  if (s.kind === 'administration') out.push(...administrationLegal(ctx, g, player));
  // 14.3.2 (D-27): abandoning is offered only when allowed; taking it back always is.
  if (p.status === 'active' && s.kind !== 'entry' && (p.abandoning || mayAbandon(ctx, g, player)))
    out.push({ type: 'declareAbandon', abandon: !p.abandoning });
  out.push(...realmAnytimeLegal(ctx, g, player));
  if (g.undo?.orders.some((o) => o.actor === player)) out.push({ type: 'undo' });
  return out;
}

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
  // Part 2: standing choices, tribute, leases and ransoms, given while another player may be
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
    // Part 2: a ship's move (5.2, 5.3, 8.1; src/naval/movement.ts).
    if (order.type === 'shipMove') {
      if (s.phase !== 'movement') return err('order/wrong_phase', { phase: s.phase, expected: 'movement' });
      return applyShipMove(ctx, g, player, order);
    }
    return applyPhaseOrder(ctx, g, player, order as CoreOrder);
  }
  if (order.type.startsWith('realm')) {
    // Part 2: economic plans and administration answers (src/ledger/seam.ts).
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

const stepKey = (g: GameStateCore): string => {
  const s = g.step;
  if (s.kind === 'playerTurn') return `${g.turn}|p|${s.player}|${s.phase}`;
  if (s.kind === 'administration') return `${g.turn}|a|${s.player}|${s.choice?.type ?? ''}`;
  return `${g.turn}|${s.kind}`;
};

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
  const isSystem = order.type === 'join' || order.type === 'leave' || order.type === 'forceAbandon';
  if (isSystem !== (actor === 'system'))
    return err(isSystem ? 'system/only_system' : 'order/invalid', { type: order.type });
  const r = actor === 'system' ? applySystem(ctx, g, order as CoreOrder) : applyPlayer(ctx, g, actor, order);
  if (!r.ok) return r;
  const settled = settle(ctx, r.value.state);
  // Part 2: leases start and end at a turn start (13.4), leaders are captured or freed (13.6).
  const phasing = g.step.kind === 'playerTurn' ? g.step.player : null;
  const events = r.value.events.concat(settled.events);
  const d = settleDiplomacy(g, settled.state, events, phasing);
  if (d.state === settled.state) return ok({ state: d.state, events: events.concat(d.events) });
  const again = settle(ctx, d.state);
  return ok({ state: again.state, events: events.concat(d.events, again.events) });
}

/**
 * Undo (the BGA / Rally the Troops policy): a player may take back their own orders of the
 * current step until a die is rolled, something is revealed or the step moves on. The log keeps
 * the state where that window opened and the orders since; undo replays all but the last.
 */
function applyWithUndo(
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

/** Defaults at a missed deadline: hold, tax without pillage, the first legal choice otherwise. */
function defaultOrder(map: MapIndex, g: GameState, legal: LegalOrder[], player: PlayerId): Order | null {
  const s = g.step;
  // 11.5: an unsupported empire unit is moved to its first supported destination.
  const owed = s.kind === 'playerTurn' ? supportMovesOwed(ctxOf(map, g), g, player) : [];
  const regain = legal.find((o) => o.type === 'move' && owed.includes(o.unit));
  if (regain?.type === 'move' && regain.destinations[0])
    return { type: 'move', unit: regain.unit, path: regain.destinations[0].path };
  if (s.kind === 'entry') {
    // 13.2.3: the army the engine used to pick is the first offered.
    const army = legal.find((o) => o.type === 'persianArmy');
    if (army?.type === 'persianArmy') return { type: 'persianArmy', units: army.units, leader: army.leader };
    const c = legal.find((o) => o.type === 'chooseStart');
    return c && c.type === 'chooseStart'
      ? { type: 'chooseStart', position: c.position, area: c.areas[0]! }
      : null;
  }
  if (legal.some((o) => o.type === 'endPhase')) return { type: 'endPhase' };
  // Attacks are voluntary (7.1): never one by default; no advance or pursuit either. A naval
  // landing's attack is compulsory (8.2): the landing force alone attacks.
  const landing = legal.find((o) => o.type === 'combatAttack' && o.landing === true);
  if (landing) return expand(landing, () => 0);
  if (legal.some((o) => o.type === 'combatStop')) return { type: 'combatStop' } as CombatOrder;
  if (legal.some((o) => o.type === 'combatDone')) return { type: 'combatDone' } as CombatOrder;
  for (const o of legal) {
    switch (o.type) {
      case 'disband':
        return { type: 'disband', unit: o.unit };
      case 'keepGroup': {
        const biggest = [...legal]
          .filter((x) => x.type === 'keepGroup')
          .sort((a, b) => groupSize(b) - groupSize(a))[0];
        return biggest && biggest.type === 'keepGroup' ? { type: 'keepGroup', area: biggest.area } : null;
      }
      case 'removeUnits': {
        const byTribeFirst = [...o.candidates].sort(
          (a, b) => tribeRank(g, a) - tribeRank(g, b) || (a < b ? -1 : 1),
        );
        return { type: 'removeUnits', units: byTribeFirst.slice(0, o.count) };
      }
      case 'foundKingdom':
        return { type: 'foundKingdom', leaderWith: o.leaderWith[0] ?? null, capital: o.capital[0] ?? null };
      default:
        // A pending combat choice (retreat path, exchange losses): its first option. Realm legal
        // orders are concrete already.
        if (o.type.startsWith('combat') && o.type !== 'combatAttack') return expand(o, () => 0);
        // Standing choices (interception, tribute, leases, ransoms) are never a default.
        if (o.type.startsWith('realm') && !isRealmAnytimeOrder(o)) return o as Order;
    }
  }
  return null;
}
const groupSize = (o: LegalOrder): number => (o.type === 'keepGroup' ? o.group.length : 0);
const tribeRank = (g: GameState, id: UnitId): number => (g.units[id]?.kind === 'tribe' ? 0 : 1);

/** Create an engine over a map: @bke/map's compiled map by default; tests pass fixture maps. */
export function createEngine(mapInput: MapInput = loadMap()): Engine {
  const map = indexMap(mapInput);
  const engine: Engine = {
    map,
    createGame(raw) {
      const parsed = gameSetupSchema.safeParse(raw);
      if (!parsed.success) return err('setup/invalid', { issues: parsed.error.message });
      const ctx: EngineContext = { map, options: parsed.data.options };
      const init = initialState(ctx, parsed.data);
      if (!init.ok) return init;
      let g = init.value;
      if (g.players.length > 0) {
        const t = startTurn(ctx, g);
        g = settle(ctx, t.state).state;
      }
      return ok({ ...g, undo: null });
    },
    legalOrders: (state, player) => legalOrdersOf(map, state, player),
    applyOrder(state, actor, raw) {
      const parsed = parseOrder(raw);
      if (!parsed.ok) return err('order/invalid', { issues: parsed.issues });
      return applyWithUndo(map, state, actor, parsed.order);
    },
    waitingFor: (state) => waitingFor(state),
    timeoutOrders(state, player) {
      // The defaults that finish this player's part of the current step (not later steps).
      const out: Order[] = [];
      let s = state;
      const key = stepKey(state);
      for (let i = 0; i < 200 && waitingFor(s).includes(player) && stepKey(s) === key; i++) {
        const o = defaultOrder(map, s, legalOrdersOf(map, s, player), player);
        if (!o) break;
        const r = applyWithUndo(map, s, player, o);
        if (!r.ok) break;
        out.push(o);
        s = r.value.state;
      }
      return out;
    },
    view(state, viewer) {
      const { rng: _rng, riggedDice: _rigged, undo, ...pub } = state;
      return {
        ...pub,
        realm: realmViewFor(state.realm, viewer), // sealed bids and pending plans stay private
        viewer,
        waitingFor: waitingFor(state),
        canUndo: [...new Set((undo?.orders ?? []).map((o) => o.actor))],
      };
    },
    hash: (state) => hashState(state),
  };
  return engine;
}

export type { AreaId };
