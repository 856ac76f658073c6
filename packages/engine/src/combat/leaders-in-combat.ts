/**
 * 10.2 Leaders in combat: they add a column shift but no strength, go with their stack when it
 * retreats, die when every unit stacked with them is eliminated, and die when an unfriendly unit
 * comes into their area (lone leaders do not block, AMBIG-53). Optional-leader capture (13.6) is
 * diplomacy/leader-capture.ts.
 */

import { captureLeaders, capturesLeaders, type LeaderCaptured } from '../diplomacy/leader-capture.ts';
import type { CombatEvent } from '../model/events.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { unitsByArea } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';
import { omitKeys } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';

interface Step<S> {
  readonly state: S;
  readonly events: CombatEvent[];
}

const here = (state: GameStateCore, area: AreaId): readonly Unit[] => unitsByArea(state).get(area) ?? [];

const leadersIn = (state: GameStateCore, area: AreaId, owner: PlayerId): Unit[] =>
  here(state, area).filter((u) => u.kind === 'leader' && u.owner === owner);

const hasFriendIn = (state: GameStateCore, area: AreaId, owner: PlayerId): boolean =>
  here(state, area).some((u) => u.owner === owner && u.kind !== 'leader');

function removeLeaders<S extends GameStateCore>(state: S, leaders: readonly Unit[]): Step<S> {
  if (leaders.length === 0) return { state, events: [] };
  // 13.6: with optional leaders a leader is never simply eliminated: it stays on the board, and
  // the capture sweep (src/diplomacy/leader-capture.ts) takes it once an unfriendly unit is with it.
  if (capturesLeaders(state)) return { state, events: [] };
  const units = omitKeys(
    state.units,
    leaders.map((l) => l.id),
  );
  return {
    state: { ...state, units },
    events: leaders.map((l) => ({ type: 'combatLeaderEliminated', unit: l.id, area: l.area })),
  };
}

/**
 * 10.2: after units of `owner` left `from` (retreat) or died there, a leader left with no friendly
 * unit follows the stack to `to`, or is eliminated with it when `to` is null.
 */
export function leadersLeftBehind<S extends GameStateCore>(
  state: S,
  from: AreaId,
  owner: PlayerId,
  to: AreaId | null,
): Step<S> {
  if (hasFriendIn(state, from, owner)) return { state, events: [] };
  const leaders = leadersIn(state, from, owner);
  if (leaders.length === 0 || to === null) return removeLeaders(state, leaders);
  const units = { ...state.units };
  for (const l of leaders) units[l.id] = { ...l, area: to };
  return {
    state: { ...state, units },
    events: leaders.map((l) => ({ type: 'combatLeaderMoved', unit: l.id, from, to })),
  };
}

/**
 * 10.2, AMBIG-53: leaders of other players in an area a unit of `owner` has just entered die —
 * or, under 13.6, are captured by that unit (`by`; a retreat passing through captures too).
 */
export function leadersOverrun<S extends GameStateCore>(
  state: S,
  area: AreaId,
  owner: PlayerId,
  by?: Unit,
): Step<S> {
  const victims = here(state, area).filter((u) => u.kind === 'leader' && u.owner !== owner);
  const holder = by ?? here(state, area).find((u) => u.owner === owner && u.kind !== 'leader');
  if (capturesLeaders(state) && holder && victims.length) {
    const c = captureLeaders(state, victims, { ...holder, area });
    return { state: c.state, events: c.events.map(asCombatFact) };
  }
  return removeLeaders(state, victims);
}

/** A capture told in the combat vocabulary (13.6). */
const asCombatFact = (e: LeaderCaptured): CombatEvent => ({
  type: 'combatLeaderCaptured',
  unit: e.leader,
  area: e.area,
  captor: e.captor,
  holder: e.holder,
});
