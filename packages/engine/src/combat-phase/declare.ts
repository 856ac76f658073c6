/**
 * 7.1 Declaring an attack: which unfriendly units an area offers, which of the phasing player's
 * units may attack it (once per turn, adjacent, tribes only against tribes), and the odds.
 */

import type { AttackPlan, PlannedAttacker, TargetDefence } from '../combat/attack-plan.ts';
import {
  attackHalfPoints,
  type ColumnShifts,
  defenceHalfPoints,
  isHalved,
  oddsColumn,
} from '../combat/odds.ts';
import { LEADER_PROFILES, leaderTypeOf } from '../diplomacy/leader-types.ts';
import type { CombatPhaseState } from '../model/combat.ts';
import type { EngineContext } from '../model/context.ts';
import type { CombatErrorCode } from '../model/errors.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { actingNeutralAt, leasedFrom, playerById, unitsByArea } from '../model/queries.ts';
import { ok, type Result } from '../model/result.ts';
import type { GameStateCore } from '../model/state.ts';
import { strengthOf, UNIT_PROFILES, type Unit } from '../model/units.ts';
import { landingForce, landingOfUnit } from '../naval/landing.ts';
import { coupAllowsAttack } from '../realm/empire-movement.ts';
import { CRT } from '../tables/crt.ts';
import { combatErr } from './combat-errors.ts';

/** 13.1.2: the home province whose neutral garrisons a people's tribes may attack. */
const TRIBAL_NEUTRAL_PROVINCES: Readonly<Record<string, string>> = {
  PICT: 'britannia',
  AFRICAN: 'mauretania',
};

/**
 * 7.1: the defence of an area against `player`: every unfriendly non-leader unit there that has
 * not yet been attacked this turn (a unit that retreated in after its own combat is not part of
 * it, 7.3), or the neutral garrison if not yet attacked. Null if there is nothing to attack.
 */
export function targetDefence(
  ctx: EngineContext,
  state: GameStateCore,
  combat: CombatPhaseState,
  player: PlayerId,
  target: AreaId,
): TargetDefence | null {
  const neutral = actingNeutralAt(ctx, state, target, unitsByArea(state));
  if (neutral) return combat.neutralAreas.includes(target) ? null : { defender: null, units: [], neutral };
  // 13.4: a barbarian's own mercenaries serving a hirer are friendly to it: never its target.
  const lent = leasedFrom(state, player);
  const units = (unitsByArea(state).get(target) ?? []).filter(
    (u) =>
      u.owner !== player && u.kind !== 'leader' && !combat.defenders.includes(u.id) && !lent.includes(u.id),
  );
  const first = units[0];
  return first ? { defender: first.owner, units, neutral: null } : null;
}

/** 9.3.2, 13.1.2, AMBIG-24: may this tribe attack this defence, and with what strength? */
function tribeAttack(
  ctx: EngineContext,
  state: GameStateCore,
  u: Unit,
  target: AreaId,
  defence: TargetDefence,
) {
  if (defence.neutral) {
    const people = playerById(state, u.owner)?.cycle?.people ?? '';
    const province = TRIBAL_NEUTRAL_PROVINCES[people];
    const allowed =
      ctx.options.opt.tribalAttacksOnNeutralGarrisons && province === ctx.map.area(target)?.province;
    return allowed ? ctx.options.cfg.tribeAttackStrength : null;
  }
  return defence.units.every((d) => d.kind === 'tribe') ? strengthOf('tribe', ctx.options) : null;
}

const unitErr = (u: Unit, c: CombatErrorCode, params: Record<string, unknown> = {}) =>
  combatErr<PlannedAttacker>(c, { unit: u.id, ...params });

/** 7.1, 2.3: why `u` may not join an attack on `target`, or its contribution. */
export function attackerContribution(
  ctx: EngineContext,
  state: GameStateCore,
  combat: CombatPhaseState,
  u: Unit,
  target: AreaId,
  defence: TargetDefence,
): Result<PlannedAttacker> {
  if (combat.attackers.includes(u.id)) return unitErr(u, 'combat/already_attacked');
  // 8.2: a landing force attacks only its own target, from the sea; carried units are halved, ships not.
  const landing = landingOfUnit(state, u.id);
  if (landing) {
    if (landing.target !== target || u.kind === 'leader')
      return unitErr(u, 'combat/not_adjacent', { target });
    const halved = isHalved(UNIT_PROFILES[u.kind].ship, {
      mountain: false,
      river: false,
      redArrow: false,
      navalLanding: true,
    });
    return ok({ unit: u, strength: strengthOf(u.kind, ctx.options), halved, landing: true });
  }
  const link = ctx.map.landLinks(u.area).find((l) => l.to === target);
  if (!link) return unitErr(u, 'combat/not_adjacent', { target });
  const profile = UNIT_PROFILES[u.kind];
  if (profile.ship) {
    // AMBIG-16: a ship joins an attack only on a neighbouring area it could reach by sea (both areas
    // touch one sea area); never halved (7.1). Landings (8.2) are declared in movement.
    const seas = new Set(ctx.map.seasOf(u.area));
    const bySea = ctx.map.seasOf(target).some((sea) => seas.has(sea));
    if (ctx.options.cfg.shipAttackRange !== 'seaReachableAdjacent' || !bySea)
      return unitErr(u, 'combat/cannot_attack');
    return ok({ unit: u, strength: strengthOf(u.kind, ctx.options), halved: false });
  }
  if (u.kind === 'tribe') {
    const strength = tribeAttack(ctx, state, u, target, defence);
    if (strength === null) return unitErr(u, 'combat/tribes_attack_tribes_only', { target });
    return ok({ unit: u, strength, halved: isHalved(false, link) });
  }
  if (!profile.mayAttack) return unitErr(u, 'combat/cannot_attack');
  // 11.7.2 result 11 (Attempted Coup, AMBIG-38): elites attack only from the capital or next to it.
  if (!coupAllowsAttack(ctx, state, u)) return unitErr(u, 'combat/coup_restricted');
  return ok({ unit: u, strength: strengthOf(u.kind, ctx.options), halved: isHalved(false, link) });
}

/** 10.2, 13.5, 13.6: the column shifts of an attack (a leader shifts for the side it stands with). */
function attackShifts(
  ctx: EngineContext,
  state: GameStateCore,
  plan: Omit<AttackPlan, 'shifts' | 'odds' | 'attackHalf' | 'defenceHalf'>,
): ColumnShifts {
  const areas = new Set(plan.attackers.map((a) => a.unit.area));
  const byArea = unitsByArea(state);
  const leaderOf = (area: AreaId, owner: PlayerId | null) =>
    (byArea.get(area) ?? []).some((u) => u.kind === 'leader' && u.owner === owner);
  // 13.6: an optional leader's land shift comes from its type (2 for a general, 0 for an administrator).
  const shiftOf = (player: PlayerId) => LEADER_PROFILES[leaderTypeOf(state, player)].land;
  const attackerLeader = [...areas].some((area) => leaderOf(area, plan.attacker))
    ? shiftOf(plan.attacker)
    : 0;
  const defenderLeader =
    plan.defender !== null && leaderOf(plan.target, plan.defender) ? shiftOf(plan.defender) : 0;
  const o = ctx.options;
  const fortified =
    o.opt.byzantium &&
    plan.target === 'byzantium' &&
    (plan.defender !== null || o.cfg.byzantiumShiftForNeutral);
  return { attackerLeader, defenderLeader, fortified };
}

/** 7.1: check an attack of `unitIds` on `target` by `player` and compute its odds. */
export function planAttack(
  ctx: EngineContext,
  state: GameStateCore,
  combat: CombatPhaseState,
  player: PlayerId,
  target: AreaId,
  unitIds: readonly UnitId[],
): Result<AttackPlan> {
  if (unitIds.length === 0) return combatErr('combat/no_attackers');
  if (new Set(unitIds).size !== unitIds.length) return combatErr('combat/duplicate_unit');
  const defence = targetDefence(ctx, state, combat, player, target);
  if (!defence) return combatErr('combat/no_defenders', { target });
  const attackers: PlannedAttacker[] = [];
  for (const id of unitIds) {
    const u = state.units[id];
    if (!u || u.owner !== player) return combatErr('combat/not_your_unit', { unit: id });
    const c = attackerContribution(ctx, state, combat, u, target, defence);
    if (!c.ok) return c;
    attackers.push(c.value);
  }
  // 8.2: a target with a landing owed is attacked only together with the whole landing force.
  const force = landingForce(state, target);
  if (force.some((id) => !unitIds.includes(id))) return combatErr('combat/landing_owed', { target, force });
  const tribes = attackers.filter((a) => a.unit.kind === 'tribe').length;
  if (tribes > 0 && tribes < attackers.length && !ctx.options.cfg.tribesJoinCombatUnitAttacks) {
    return combatErr('combat/tribes_alone', { target });
  }
  const plan = buildPlan(ctx, state, player, target, attackers, defence);
  if (plan.odds.kind === 'forbidden') return combatErr('combat/odds_off_table', { target });
  return ok(plan);
}

/**
 * 7.1: the strengths, shifts and odds of an attack whose units are already checked. Also used to
 * recompute the odds when an elite refuses a retreat (11.4) and the attack goes on with fewer units.
 */
export function buildPlan(
  ctx: EngineContext,
  state: GameStateCore,
  player: PlayerId,
  target: AreaId,
  attackers: readonly PlannedAttacker[],
  defence: TargetDefence,
): AttackPlan {
  const base = { ...defence, attacker: player, target, attackers };
  const shifts = attackShifts(ctx, state, base);
  const attackHalf = attackHalfPoints(attackers);
  const defenceHalf = defenceHalfPoints(
    defence.neutral ? [defence.neutral.strength] : defence.units.map((u) => strengthOf(u.kind, ctx.options)),
  );
  // 8.2: a landing's attack is compulsory (never forbidden for low odds).
  const compulsory = attackers.some((a) => a.landing === true);
  const odds = oddsColumn(CRT, attackHalf, defenceHalf, shifts, ctx.options.cfg.crtBelowMin, compulsory);
  return { ...base, shifts, attackHalf, defenceHalf, odds };
}
