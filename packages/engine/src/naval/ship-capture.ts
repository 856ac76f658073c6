/**
 * 8.4 Capture of ships (AMBIG-59): a lone ship given DE may be captured instead of eliminated,
 * if one attacking unit advances into its area; it becomes a ship of the captor's colour and,
 * for a kingdom or empire, pays upkeep like any other.
 */
import type { AttackPlan } from '../combat/attack-plan.ts';
import { leadersLeftBehind } from '../combat/leaders-in-combat.ts';
import { eliminate, isSeaArea, pendingOf, type Step, withCombat, withPending } from '../combat/pending.ts';
import { type CombatStep, combatStateOf } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { CombatEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { isLegalStack, mayJoin } from '../model/stacking.ts';
import type { GameStateCore } from '../model/state.ts';
import { addUnit, removeUnits } from '../model/state-ops.ts';
import { movementOf } from '../model/units.ts';
import { landingUnits } from './landing.ts';

/** 8.4: may the ship in this area be captured on a DE? Only a lone ship (nothing else of its owner). */
export function capturableShip(g: GameStateCore, area: AreaId): UnitId | null {
  const here = Object.values(g.units).filter((u) => u.area === area && u.kind !== 'leader');
  return here.length === 1 && here[0]!.kind === 'ship' ? here[0]!.id : null;
}

/** 8.4: replace the captured ship by one of the captor's colour. */
export function captureShip(
  g: GameStateCore,
  ship: UnitId,
  captor: PlayerId,
): { state: GameStateCore; ship: UnitId } | null {
  const u = g.units[ship];
  if (u?.kind !== 'ship') return null;
  const [s, id] = addUnit(removeUnits(g, [ship]), captor, 'ship', u.area);
  return { state: s, ship: id };
}

/**
 * 8.4, AMBIG-59: the lone ship of a DE that may be captured: the only defending unit, alone in its
 * area (leaders aside), and some attacker able to end in its area once it is theirs (the landing
 * force, or a unit next to it that may advance and stack with a ship).
 */
export function captureCandidate(ctx: EngineContext, state: GameStateCore, plan: AttackPlan): UnitId | null {
  const only = plan.units[0];
  if (plan.neutral || plan.units.length !== 1 || only?.kind !== 'ship') return null;
  if (capturableShip(state, plan.target) !== only.id) return null;
  const mine = { kind: 'ship' as const, owner: plan.attacker };
  const force = plan.attackers.filter((a) => a.landing).map((a) => a.unit);
  if (force.length > 0) {
    const all = landingUnits(state, plan.target).map((id) => state.units[id]!);
    return isLegalStack([mine, ...all.map((u) => ({ kind: u.kind, owner: u.owner }))]) ? only.id : null;
  }
  const mayAdvance = plan.attackers.some(
    (a) =>
      movementOf(a.unit.kind, ctx.options) > 0 &&
      ctx.map.landLinks(a.unit.area).some((l) => l.to === plan.target) &&
      mayJoin([mine], { kind: a.unit.kind, owner: plan.attacker }),
  );
  return mayAdvance ? only.id : null;
}

/** 8.4: the attacker captures the lone ship (one unit must then advance) or eliminates it. */
export function applyCapture<S extends GameStateCore>(
  ctx: EngineContext,
  state: S,
  capture: boolean,
): Step<S> {
  const pending = pendingOf(state)!;
  const step = pending.steps[0] as Extract<CombatStep, { kind: 'capture' }>;
  const rest = pending.steps.slice(1);
  if (!capture) {
    const gone = eliminate(state, [step.ship], 'DE', pending.target);
    return {
      state: withPending(gone.state, { ...pendingOf(gone.state)!, steps: rest }),
      events: gone.events,
    };
  }
  const old = state.units[step.ship]!;
  const taken = captureShip(state, step.ship, pending.attacker)!;
  let next = taken.state as S;
  const c = combatStateOf(next);
  // The captured ship neither attacks nor is attacked again this turn (7.1).
  next = withCombat(next, {
    ...c,
    attackers: [...c.attackers, taken.ship],
    defenders: [...c.defenders, taken.ship],
  });
  const events: CombatEvent[] = [
    {
      type: 'combatShipCaptured',
      player: pending.attacker,
      from: old.owner,
      ship: old.id,
      captured: taken.ship,
      area: old.area,
    },
  ];
  const led = leadersLeftBehind(next, old.area, old.owner, null);
  next = led.state;
  events.push(...led.events);
  // One attacking unit must advance (the landing force does so when it lands).
  const landing = (pending.landing ?? []).some((id) => next.units[id] && isSeaArea(ctx, next.units[id].area));
  const steps = rest.map((st, i) => (i === 0 && st.kind === 'advance' && !landing ? { ...st, min: 1 } : st));
  return { state: withPending(next, { ...pendingOf(next)!, steps }), events };
}
