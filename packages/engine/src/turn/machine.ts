/**
 * The game-turn machine (4.1–4.6, A.4-X). `settle` runs every automatic step until someone must
 * decide: turn start and move order, the entry of new barbarians, each player turn's phases in
 * order (skipping phases with nothing to decide), the economic and administration phases.
 */

import { applyCombatOrder } from '../combat-phase/phase.ts';
import { initialCombatState } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6 } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import {
  actingNeutralAt,
  leasedFrom,
  moveOrder,
  playerById,
  unitsByArea,
  unitsOf,
} from '../model/queries.ts';
import type { PlayerPhase } from '../model/state.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { isNonTribe, UNIT_PROFILES } from '../model/units.ts';
import { landingsOf } from '../naval/landing.ts';
import { entryLegal } from '../scenario/cycles.ts';
import { removeIsolatedNeutrals, restoreNeutrals } from '../scenario/neutrals.ts';
import { adminTasks, endOfPlayerAdmin, removeDueMarkers, runTask } from './administration-phase.ts';
import { combinationPossible } from './combination.ts';
import { economicDeciders, fixOwnership, resolveEconomic } from './economic.ts';
import { createUnits, overstackedAreas, removeSurplusTribes } from './end-of-movement.ts';
import { playerPhaseOrders } from './phase-orders.ts';

const MAX_SETTLE_STEPS = 100_000;

const seq = (t: Transition, f: (g: Game) => Transition): Transition => {
  const n = f(t.state);
  return { state: n.state, events: t.events.concat(n.events) };
};

/**
 * AMBIG-44: every starter rolls 2d6; players tied on the same key roll again among themselves
 * until strict. The key packs the rolls so a higher key moves earlier.
 */
function rollEntryOrder(
  g: Game,
  players: readonly PlayerId[],
): { state: Game; events: GameEvent[]; keys: Map<PlayerId, number> } {
  let s = g;
  const events: GameEvent[] = [];
  const keys = new Map<PlayerId, number>(players.map((id) => [id, 0]));
  let tied = [...players];
  for (let depth = 0; tied.length > 0 && depth < 4; depth++) {
    for (const id of tied) {
      const r = roll2d6(s);
      s = r.state;
      keys.set(id, (keys.get(id) ?? 0) * 16 + r.sum);
      events.push({ type: 'moveOrderRolled', player: id, dice: r.dice });
    }
    const count = new Map<number, number>();
    for (const v of keys.values()) count.set(v, (count.get(v) ?? 0) + 1);
    tied = [...keys.entries()].filter(([, v]) => (count.get(v) ?? 0) > 1).map(([id]) => id);
    // Players not tied keep their key scaled to the same depth so comparisons stay fair.
    for (const [id, v] of keys) if (!tied.includes(id)) keys.set(id, v * 16 + 15);
  }
  return { state: s, events, keys };
}

/** 4.1 / 4.2 / 14.3: a new game turn: growth bans fixed, entering players roll for their order. */
export function startTurn(_ctx: EngineContext, g: Game): Transition {
  const turn = g.turn + 1;
  // 9.2; 13.4 / AMBIG-21: combat units leased out to a hirer still count as the barbarian's.
  const growthBanned = g.players
    .filter(
      (p) =>
        p.status === 'active' &&
        (unitsOf(g, p.id).some((u) => isNonTribe(u.kind)) || leasedFrom(g, p.id).length > 0),
    )
    .map((p) => p.id);
  const s: Game = { ...g, turn, flags: { growthBanned, attacked: [] } };
  const waiting = s.players.filter((p) => p.status === 'waiting').map((p) => p.id);
  const r = rollEntryOrder(s, waiting);
  const queue = [...waiting].sort((a, b) => (r.keys.get(b) ?? 0) - (r.keys.get(a) ?? 0));
  const rolls = Object.fromEntries(queue.map((id) => [id, r.keys.get(id) ?? 0]));
  return {
    state: { ...r.state, step: { kind: 'entry', queue, rolls } },
    events: [{ type: 'turnStarted', turn }, ...r.events],
  };
}

/** 4.1: entry done: fix move order, count the turn as played, begin the first player turn. */
function afterEntry(ctx: EngineContext, g: Game): Transition {
  const order = moveOrder(g);
  const active = new Set(order);
  const s: Game = {
    ...g,
    order,
    players: g.players.map((p) => (active.has(p.id) ? { ...p, turnsPlayed: p.turnsPlayed + 1 } : p)),
  };
  const first = order[0];
  if (!first) return { state: { ...s, step: { kind: 'idle' } }, events: [{ type: 'moveOrderFixed', order }] };
  return seq({ state: s, events: [{ type: 'moveOrderFixed', order }] }, (x) =>
    beginPlayerTurn(ctx, x, first),
  );
}

function beginPlayerTurn(ctx: EngineContext, g: Game, player: PlayerId): Transition {
  const t: Transition = {
    state: {
      ...g,
      combat: initialCombatState(),
      step: { kind: 'playerTurn', player, phase: 'combination', moved: [], split: [] },
    },
    events: [{ type: 'phaseStarted', player, phase: 'combination' }],
  };
  return skipIfIdle(ctx, t);
}

/**
 * Enter a phase; a phase with nothing to decide is passed at once (checked on entry only, so a
 * player who has started acting in a phase ends it themselves). Movement is never skipped.
 */
function setPhase(ctx: EngineContext, g: Game, player: PlayerId, phase: PlayerPhase): Transition {
  if (g.step.kind !== 'playerTurn') return { state: g, events: [] };
  const t: Transition = {
    state: { ...g, step: { ...g.step, phase } },
    events: [{ type: 'phaseStarted', player, phase }],
  };
  return skipIfIdle(ctx, t);
}

function skipIfIdle(ctx: EngineContext, t: Transition): Transition {
  const g = t.state;
  if (g.step.kind !== 'playerTurn') return t;
  const { player, phase } = g.step;
  if (phase === 'movement' || phase === 'stacking') return t;
  if (phase === 'combat') {
    // A cheap test (7.1, 9.3.2) instead of listing every attack: wait only for a player who has
    // a unit able to attack something next to it.
    return mayAttackSomewhere(ctx, g, player) ? t : seq(t, (x) => endPlayerPhase(ctx, x));
  }
  const open =
    phase === 'combination'
      ? playerById(g, player)?.cycle?.stage === 'barbarian' && combinationPossible(ctx, g, player)
      : playerPhaseOrders(ctx, g, player).length > 0;
  return open ? t : seq(t, (x) => endPlayerPhase(ctx, x));
}

/**
 * Cheap pre-check (7.1, 2.3, 9.3.2): does the player have a unit that may attack standing next to
 * something it could attack? Tribes attack tribes (and, under 13.1.2, neutral garrisons); ships
 * attack neighbours on a shared sea (AMBIG-16); parenthesised units never attack.
 */
function mayAttackSomewhere(ctx: EngineContext, g: Game, player: PlayerId): boolean {
  // 8.2: a naval landing's attack is owed (or its force must land unopposed) in this combat phase.
  if (landingsOf(g).some((l) => l.player === player)) return true;
  const byArea = unitsByArea(g);
  const tribalNeutrals = ctx.options.opt.tribalAttacksOnNeutralGarrisons;
  for (const u of unitsOf(g, player)) {
    if (u.inverted) continue;
    const tribe = u.kind === 'tribe';
    // AMBIG-16 (`shipAttackRange = seaReachableAdjacent`): a ship attacks a neighbour on a shared sea.
    const ship = UNIT_PROFILES[u.kind].ship;
    if (
      ship
        ? ctx.options.cfg.shipAttackRange !== 'seaReachableAdjacent'
        : !tribe && !UNIT_PROFILES[u.kind].mayAttack
    )
      continue;
    for (const l of ctx.map.landLinks(u.area)) {
      if (ship && !ctx.map.seasOf(l.to).some((sea) => ctx.map.seasOf(u.area).includes(sea))) continue;
      let enemies = false;
      for (const x of byArea.get(l.to) ?? []) {
        if (x.owner === player || x.kind === 'leader') continue;
        enemies = true;
        if (!tribe || x.kind === 'tribe') return true;
      }
      if (!enemies && (!tribe || tribalNeutrals) && actingNeutralAt(ctx, g, l.to, byArea)) return true;
    }
  }
  return false;
}

/** 4.3: move the phasing player on to its next phase (or the next player, or the economic phase). */
export function endPlayerPhase(ctx: EngineContext, g: Game): Transition {
  if (g.step.kind !== 'playerTurn') return { state: g, events: [] };
  const { player, phase } = g.step;
  switch (phase) {
    case 'combination':
      return setPhase(ctx, g, player, 'growth');
    case 'growth':
      return setPhase(ctx, g, player, 'movement');
    case 'movement': {
      const t = removeSurplusTribes(g, player);
      return seq(t, (x) => setPhase(ctx, x, player, 'stacking'));
    }
    case 'stacking': {
      const t = createUnits(ctx, g, player);
      return seq(t, (x) => setPhase(ctx, x, player, 'combat'));
    }
    case 'combat':
      return nextPlayerOrEconomic(ctx, g, player);
  }
}

function nextPlayerOrEconomic(ctx: EngineContext, g: Game, after: PlayerId): Transition {
  // The order fixed at the turn start; players who left or ended their cycle are skipped.
  const rest = g.order.slice(g.order.indexOf(after) + 1);
  const next = rest.find((id) => playerById(g, id)?.status === 'active');
  return next ? beginPlayerTurn(ctx, g, next) : beginEconomic(ctx, g);
}

/** 4.5: ownership fixed; the players with decisions act at once. */
function beginEconomic(ctx: EngineContext, g: Game): Transition {
  const t = fixOwnership(ctx, g);
  const pending = economicDeciders(ctx, t.state);
  return {
    state: { ...t.state, step: { kind: 'economic', pending, pillage: {} } },
    events: [{ type: 'economicPhaseStarted', turn: g.turn }, ...t.events],
  };
}

/** 4.6: markers first, then each player in move order. */
function beginAdministration(ctx: EngineContext, g: Game): Transition {
  const t = removeDueMarkers(ctx, g);
  return {
    state: {
      ...t.state,
      step: { kind: 'administration', queue: moveOrder(t.state), player: null, choice: null, todo: [] },
    },
    events: [{ type: 'administrationStarted', turn: g.turn }, ...t.events],
  };
}

/** One automatic administration step, or null when a choice is pending. */
function stepAdministration(ctx: EngineContext, g: Game): Transition | null {
  if (g.step.kind !== 'administration') return null;
  const st = g.step;
  if (st.choice) return null;
  if (st.player && st.todo.length > 0) {
    const task = st.todo[0]!;
    const rest = st.todo.slice(1);
    const r = runTask(ctx, g, st.player, task);
    const step = r.state.step.kind === 'administration' ? r.state.step : st;
    return {
      state: { ...r.state, step: { ...step, todo: r.stop ? [] : rest, choice: r.choice } },
      events: r.events,
    };
  }
  if (st.player) {
    const t = endOfPlayerAdmin(ctx, g, st.player);
    return { state: { ...t.state, step: { ...st, player: null } }, events: t.events };
  }
  const [next, ...queue] = st.queue;
  if (next) {
    const active = playerById(g, next)?.status === 'active';
    return {
      state: {
        ...g,
        step: { ...st, queue, player: active ? next : null, todo: active ? adminTasks(ctx, g, next) : [] },
      },
      events: [],
    };
  }
  const t = removeIsolatedNeutrals(ctx, g);
  return seq({ state: t.state, events: [...t.events, { type: 'turnEnded', turn: g.turn }] }, (x) =>
    startTurn(ctx, x),
  );
}

/** 4, A.4-X: run automatic steps until someone must decide (or the world is idle). */
export function settle(ctx: EngineContext, g: Game): Transition {
  let t: Transition = { state: g, events: [] };
  let checkedUnits: object | null = null;
  let checkedCombat: object | null = null;
  for (let i = 0; i < MAX_SETTLE_STEPS; i++) {
    // Reappearance (14.1, AMBIG-29) can only change when units move or a combat settles.
    if (t.state.units !== checkedUnits || t.state.combat !== checkedCombat) {
      const restored = restoreNeutrals(ctx, t.state);
      if (restored.events.length) t = { state: restored.state, events: t.events.concat(restored.events) };
      checkedUnits = t.state.units;
      checkedCombat = t.state.combat;
    }
    const n = autoStep(ctx, t.state);
    if (!n) return t;
    t = { state: n.state, events: t.events.concat(n.events) };
  }
  throw new Error('settle: no decision point reached (engine bug)');
}

function autoStep(ctx: EngineContext, g: Game): Transition | null {
  const s = g.step;
  switch (s.kind) {
    case 'idle':
      return null;
    case 'entry': {
      const head = s.queue[0];
      if (!head) {
        // Nobody holds a position and nobody could enter: the world waits for a join.
        if (moveOrder(g).length === 0) return { state: { ...g, step: { kind: 'idle' } }, events: [] };
        return afterEntry(ctx, g);
      }
      if (entryLegal(ctx, g, head).length > 0) return null;
      return {
        state: { ...g, step: { ...s, queue: s.queue.slice(1) } },
        events: [{ type: 'startUnavailable', player: head }],
      };
    }
    case 'playerTurn': {
      if (playerById(g, s.player)?.status !== 'active') return nextPlayerOrEconomic(ctx, g, s.player);
      // The stacking step lasts while something is overstacked (6); other phases are skipped
      // on entry only (setPhase). Movement is always confirmed by the player, which also
      // guarantees every game turn has a decision point while anyone holds a position.
      if (s.phase === 'stacking') {
        return overstackedAreas(g, s.player).length > 0 ? null : endPlayerPhase(ctx, g);
      }
      return null;
    }
    case 'economic':
      return s.pending.length > 0 ? null : seq(resolveEconomic(ctx, g), (x) => beginAdministration(ctx, x));
    case 'administration':
      return stepAdministration(ctx, g);
  }
}

/** 4.3.5: the phasing player ends its combat phase: the combat phase's bookkeeping, then the next player. */
export function finishCombat(ctx: EngineContext, g: Game, player: PlayerId): Transition | null {
  const done = applyCombatOrder(ctx, g, player, { type: 'combatDone' });
  // Refused (a combat still pending, a naval landing's attack owed, 8.2): the phase goes on.
  if (!done.ok) return null;
  return seq(done.value, (x) => endPlayerPhase(ctx, x));
}
