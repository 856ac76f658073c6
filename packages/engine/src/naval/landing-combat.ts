/**
 * 8.2 Naval landings in the combat phase: the force waiting at sea lands once its target is clear,
 * is turned back when the combat ends without clearing it (AMBIG-17), and a landing with nothing
 * left to fight lands unopposed (or goes back to sea) when the combat phase ends.
 */

import { piecesIn, retreatBoard } from '../combat/board.ts';
import { leadersOverrun } from '../combat/leaders-in-combat.ts';
import {
  chain,
  eliminate,
  isSeaArea,
  pendingOf,
  present,
  type Step,
  withCombat,
  withPending,
} from '../combat/pending.ts';
import { type CombatStep, combatStateOf } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import { rollDie } from '../model/dice.ts';
import type { CombatEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { playerById, unitsByArea } from '../model/queries.ts';
import { isLegalStack } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import type { Unit } from '../model/units.ts';
import { closeLandings, landingsOf, seaRetreatShores } from './landing.ts';
import { sinkingModifier, sinksRetreatingAcrossSea } from './sinking.ts';

// ---- 8.2 naval landings ----

/** The landing units of the pending combat still waiting at sea. */
const atSea = (ctx: EngineContext, state: GameStateCore, ids: readonly UnitId[]): Unit[] =>
  present(state, ids).filter((u) => isSeaArea(ctx, u.area));

/** Nothing unfriendly (unit or neutral still standing) is left in the area. */
const clearFor = (ctx: EngineContext, state: GameStateCore, area: AreaId, player: PlayerId): boolean =>
  piecesIn(ctx, state, area).every((p) => p.owner === player || p.kind === 'leader');

/** Move a landing force ashore; lone enemy leaders there are overrun (AMBIG-53). */
function land<S extends GameStateCore>(
  state: S,
  player: PlayerId,
  target: AreaId,
  force: readonly Unit[],
): Step<S> {
  const units = { ...state.units };
  for (const u of force) units[u.id] = { ...u, area: target };
  const moved = { ...state, units };
  const event: CombatEvent = { type: 'navalLanded', player, target, units: force.map((u) => u.id) };
  const overrun = leadersOverrun(moved, target, player);
  return { state: overrun.state, events: [event, ...overrun.events] };
}

/**
 * 8.2: as soon as the landing's target is clear (DE, the defenders retreated, EX against them,
 * a captured ship), the force waiting at sea lands there; it counts as the attackers' advance.
 */
export function tryLand<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> | null {
  const pending = pendingOf(state);
  if (!pending?.landing || pending.landingClosed) return null;
  const force = atSea(ctx, state, pending.landing);
  const close = (s: S): S =>
    withPending(closeLandings(s, pending.target), { ...pendingOf(s)!, landingClosed: true });
  if (force.length === 0) return { state: close(state), events: [] };
  if (!clearFor(ctx, state, pending.target, pending.attacker)) return null;
  const friends = (unitsByArea(state).get(pending.target) ?? []).map((u) => ({
    kind: u.kind,
    owner: u.owner,
  }));
  if (!isLegalStack([...friends, ...force.map((u) => ({ kind: u.kind, owner: u.owner }))])) return null;
  const landed = land(state, pending.attacker, pending.target, force);
  const troops = force.filter((u) => u.kind !== 'leader');
  const ids = force.map((u) => u.id);
  const p = pendingOf(landed.state)!;
  // The landed units moved in as the advance: they neither advance again nor pursue.
  const steps = p.steps.map((st) =>
    st.kind === 'advance' && st.player === pending.attacker
      ? {
          ...st,
          candidates: st.candidates.filter((id) => !ids.includes(id)),
          max: st.max === null || st.pursuit ? st.max : Math.max(0, st.max - troops.length),
          min: 0,
        }
      : st,
  );
  const next = withPending(closeLandings(landed.state, pending.target), {
    ...p,
    steps,
    landingClosed: true,
    attackerEntered: true,
  });
  return { state: next, events: landed.events };
}

/**
 * AMBIG-17 (`cfg.failedLanding = treatAsAR`): the combat ended without clearing the target: AR1 for
 * the landing force — its carried unit is eliminated and its ships go back across the sea (8.2, 8.3).
 */
export function failLanding<S extends GameStateCore>(ctx: EngineContext, state: S): Step<S> {
  const pending = pendingOf(state)!;
  const force = atSea(ctx, state, pending.landing ?? []);
  const cargo = force.filter((u) => u.kind !== 'ship' && u.kind !== 'leader').map((u) => u.id);
  const ships = force.filter((u) => u.kind === 'ship').map((u) => u.id);
  const failed: CombatEvent = {
    type: 'navalLandingFailed',
    player: pending.attacker,
    target: pending.target,
    units: force.map((u) => u.id),
  };
  const lost = eliminate(closeLandings(state, pending.target), cargo, 'retreat', null);
  const steps: CombatStep[] = ships.length
    ? [
        {
          kind: 'retreat',
          player: pending.attacker,
          side: 'attacker',
          distance: 1,
          units: ships,
          fought: [pending.target],
          vacated: [],
        },
      ]
    : [];
  const next = withPending(lost.state, { ...pendingOf(lost.state)!, landingClosed: true, steps });
  return { state: next, events: [failed, ...lost.events] };
}

/**
 * 8.2 at the end of the combat phase: a landing whose target had nothing left to attack lands
 * unopposed; one that cannot (its target still held, or no room) is turned back as AMBIG-17 says,
 * its ships going to the first free shore of their sea (1d6, sinking on a 1).
 */
export function closeUnfoughtLandings<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  player: PlayerId,
): Step<S> {
  let cur: Step<S> = { state, events: [] };
  for (const l of landingsOf(state).filter((x) => x.player === player)) {
    const s0 = cur.state;
    const force = atSea(ctx, s0, [l.ship, ...l.cargo]);
    if (force.length === 0) continue;
    const friends = (unitsByArea(s0).get(l.target) ?? []).map((u) => ({ kind: u.kind, owner: u.owner }));
    const fits = isLegalStack([...friends, ...force.map((u) => ({ kind: u.kind, owner: u.owner }))]);
    if (clearFor(ctx, s0, l.target, player) && fits) {
      cur = chain(cur, (s) => land(s, player, l.target, force));
      continue;
    }
    const cargo = force.filter((u) => u.kind !== 'ship' && u.kind !== 'leader').map((u) => u.id);
    cur = chain(cur, (s) => ({
      state: s,
      events: [{ type: 'navalLandingFailed', player, target: l.target, units: force.map((u) => u.id) }],
    }));
    cur = chain(cur, (s) => eliminate(s, cargo, 'retreat', null));
    const ship = cur.state.units[l.ship];
    if (!ship) continue;
    const board = retreatBoard(ctx, cur.state, ship.id, player);
    const shores = seaRetreatShores(ctx, ship, l.sea, [l.target], [l.target], (a) => board.occupants(a));
    const to = shores[0];
    if (!to) {
      cur = chain(cur, (s) => eliminate(s, [ship.id], 'retreat', null));
      continue;
    }
    cur = chain(cur, (s) => {
      const units = { ...s.units };
      for (const u of present(s, [ship.id, ...l.cargo])) units[u.id] = { ...u, area: to };
      const moved = { ...s, units };
      const d = rollDie(moved);
      const cycle = playerById(s, player)?.cycle;
      const modifier = cycle ? sinkingModifier(cycle.people, cycle.stage) : 0;
      const sunk = sinksRetreatingAcrossSea(d.value, modifier);
      const rolled: CombatEvent = {
        type: 'combatShipSinkingRolled',
        player,
        ship: ship.id,
        die: d.value,
        modifier,
        sunk,
      };
      const retreated: CombatEvent = {
        type: 'combatRetreated',
        player,
        unit: ship.id,
        from: l.sea,
        path: [to],
        eliminated: false,
      };
      if (!sunk) return { state: d.state, events: [retreated, rolled] };
      const gone = eliminate(
        d.state,
        present(d.state, [ship.id, ...l.cargo]).map((u) => u.id),
        'retreat',
        to,
      );
      return { state: gone.state, events: [retreated, rolled, ...gone.events] };
    });
  }
  const c = combatStateOf(cur.state);
  const rest = (c.landings ?? []).filter((l) => l.player !== player);
  return { state: withCombat(cur.state, { ...c, landings: rest }), events: cur.events };
}
