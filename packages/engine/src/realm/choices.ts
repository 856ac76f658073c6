/**
 * 4.6 The administration phase's pending choices for kingdoms and empires: who owes the answer (the
 * rebel, or a barbarian offered a defector), the answers offered, and an answer applied.
 */
import type { EngineContext } from '../model/context.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { RealmOrder } from '../model/orders.ts';
import { playerById } from '../model/queries.ts';
import { patchRealm, realmOf } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { Game, RealmStep, Transition } from '../model/state-ops.ts';
import { becomeEmpire } from './empire-conversion.ts';
import { drain } from './realm-administration.ts';
import { isLegalRevolt } from './rebellion.ts';
import {
  defect,
  pirates,
  removeRealmUnits,
  revoltCandidates,
  revoltMeasure,
  revoltOptions,
} from './rebellion-results.ts';
import { revoltCities, revoltProvince } from './revolts.ts';
import { removalBreaksSupport } from './support.ts';

/** Who must answer the pending administration choice (the rebel, or a barbarian for result 2). */
export function realmWaitingFor(g: Game): PlayerId[] {
  const c = realmOf(g).pending;
  return c ? [chooserNow(g)!] : [];
}

/**
 * Who answers the pending choice now: its chooser, or — if that player has left or lost its
 * position meanwhile (a barbarian offered a defector) — the rebelling player, who may then only
 * decline on its behalf.
 */
function chooserNow(g: Game): PlayerId | null {
  const r = realmOf(g);
  const c = r.pending;
  if (!c) return null;
  const p = playerById(g, c.chooser);
  if (p?.status === 'active' && p.cycle) return c.chooser;
  return r.active ?? c.chooser;
}

const subsets = (pool: readonly UnitId[], count: number): UnitId[][] => {
  const out: UnitId[][] = [];
  const seen = new Set<string>();
  for (let shift = 0; shift < Math.min(pool.length, 6); shift++) {
    const rotated = [...pool.slice(shift), ...pool.slice(0, shift)];
    const sel = rotated.slice(0, count).sort();
    const key = sel.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(sel);
    }
  }
  return out;
};

/** 4.6: the concrete answers to the pending choice, for the player who owes it. */
export function realmAdminLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const c = realmOf(g).pending;
  if (!c || chooserNow(g) !== player) return [];
  if (c.chooser !== player) return [{ type: 'realmUnits', units: [] }]; // declining for a departed chooser
  switch (c.kind) {
    case 'units':
      if (c.upTo) {
        const singles =
          c.count === 1 ? c.candidates.map((u) => [u]) : [[...c.candidates], ...c.candidates.map((u) => [u])];
        return [
          { type: 'realmUnits', units: [] },
          ...singles
            .filter(
              (units) => c.reason !== 'garrisonsRemoval' || !removalBreaksSupport(ctx, g, c.rebel, units),
            )
            .map((units) => ({ type: 'realmUnits' as const, units })),
        ];
      }
      return subsets(c.candidates, c.count).map((units) => ({ type: 'realmUnits', units }));
    case 'province':
      return c.candidates.map((province) => ({ type: 'realmProvince', province }));
    case 'cities':
      if (c.reason === 'pirates') return c.candidates.map((a) => ({ type: 'realmCities', cities: [a] }));
      return revoltOptions(
        revoltCandidates(ctx, g, realmOf(g).active ?? player),
        c.target,
        revoltMeasure(ctx),
      ).map((cities) => ({ type: 'realmCities', cities }));
    case 'capital':
      return c.candidates.map((area) => ({ type: 'realmCapital', area }));
    case 'garrisons': {
      // None, all, or each one alone; with a single candidate "all" and "it alone" are one choice.
      const sets = new Map<string, UnitId[]>();
      for (const units of [[], [...c.candidates], ...c.candidates.map((u) => [u])])
        sets.set(units.join(), units);
      return [...sets.values()].map((units) => ({ type: 'realmGarrisons', units }));
    }
  }
}

/** 4.6: the answer to the pending administration choice (a rebellion's, a Revival's, 11.1's). */
export function applyRealmChoice(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> {
  const r = realmOf(g);
  const c = r.pending;
  const rebel = r.active;
  if (g.step.kind !== 'administration' || !c || !rebel) return err('order/wrong_phase');
  if (chooserNow(g) !== player) return err('order/not_your_turn', { waitingFor: chooserNow(g) });
  if (
    c.chooser !== player &&
    !(order.type === 'realmUnits' && order.units.length === 0 && c.kind === 'units' && c.upTo)
  )
    return err('order/invalid', { reason: 'onlyDecline' });
  const cleared = patchRealm(g, { pending: null });
  let t: Transition | null = null;
  if (order.type === 'realmUnits' && c.kind === 'units') {
    const ids = [...new Set(order.units)];
    if (ids.some((id) => !c.candidates.includes(id))) return err('order/not_your_unit');
    if (c.upTo ? ids.length > c.count : ids.length !== c.count)
      return err('order/wrong_count', { expected: c.count, got: ids.length });
    // 11.5: garrisons removed at will (result 12) may not leave other units unsupported.
    if (c.reason === 'garrisonsRemoval' && removalBreaksSupport(ctx, g, rebel, ids))
      return err('order/invalid', { reason: 'disbandLeavesUnsupported' });
    if (c.reason === 'defection')
      t = ids[0] ? defect(cleared, c.rebel, player, ids[0]) : { state: cleared, events: [] };
    else t = removeRealmUnits(cleared, rebel, ids, c.reason);
  } else if (order.type === 'realmProvince' && c.kind === 'province') {
    if (!c.candidates.includes(order.province)) return err('order/invalid', { province: order.province });
    t = revoltProvince(ctx, cleared, rebel, order.province);
  } else if (order.type === 'realmCities' && c.kind === 'cities') {
    if (c.reason === 'pirates') {
      const a = order.cities[0];
      if (order.cities.length !== 1 || !a || !c.candidates.includes(a)) return err('order/invalid');
      t = pirates(cleared, rebel, a);
    } else {
      if (!isLegalRevolt(revoltCandidates(ctx, g, rebel), order.cities, c.target, revoltMeasure(ctx)))
        return err('order/invalid', { reason: 'revolt' });
      t = revoltCities(ctx, cleared, rebel, order.cities, 'civilDisorder');
    }
  } else if (order.type === 'realmCapital' && c.kind === 'capital') {
    if (!c.candidates.includes(order.area)) return err('order/invalid_placement', { area: order.area });
    const area = order.area;
    if (area === null || area === playerById(g, rebel)?.capital) t = { state: cleared, events: [] };
    else {
      const s = {
        ...cleared,
        players: cleared.players.map((p) => (p.id === rebel ? { ...p, capital: area } : p)),
      };
      t = { state: s, events: [{ type: 'capitalPlaced', player: rebel, area, reason: c.reason }] };
    }
  } else if (order.type === 'realmGarrisons' && c.kind === 'garrisons') {
    const ids = [...new Set(order.units)];
    if (ids.some((id) => !c.candidates.includes(id))) return err('order/not_your_unit');
    t = becomeEmpire(ctx, cleared, rebel, ids);
  }
  if (!t) return err('order/wrong_phase', { expected: c.kind });
  const d = drain(ctx, t.state);
  const choice = d.choice;
  const state =
    d.state.step.kind === 'administration'
      ? ({ ...d.state, step: { ...d.state.step, choice } } as unknown as Game)
      : d.state;
  return ok({ state, events: [...t.events, ...d.events], choice, stop: d.stop });
}
