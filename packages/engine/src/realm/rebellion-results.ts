/**
 * 11.7.2 The Rebellion Table's results in play: each result applied to the rebel's position, the
 * choices it asks of the rebel (which units, which province, which cities) or of a barbarian
 * offered a defector (result 2), and the Civil Disorder and defection that follow other results.
 */
import type { EngineContext } from '../model/context.ts';
import { roll2d6, rollDie } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { cityAt, moveOrder, playerById, unitsOf } from '../model/queries.ts';
import {
  askChoice,
  clearRealmPlayer,
  patchRealm,
  patchRealmPlayer,
  pushTasks,
  type RealmTask,
} from '../model/realm.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { addUnit, removeUnits, updatePlayer } from '../model/state-ops.ts';
import { endCycle } from '../scenario/cycles.ts';
import { capitalMoves } from './capitals.ts';
import { cityValue, taxableCities } from './income.ts';
import {
  areasWithin,
  civilDisorderTarget,
  collapses,
  defaultRevolt,
  financialDisaster,
  isLegalRevolt,
  mercenariesGoHome,
  mutinyLoss,
  type RevoltCity,
  rebellionResult,
  revoltableProvinces,
} from './rebellion.ts';
import { noteRebellion } from './record.ts';
import { citiesInProvince, removeOrphanLeaders, revoltCities, revoltProvince } from './revolts.ts';

/** 11.7.1: roll 2d6 on the Rebellion Table and apply the result at once. */
export function rollRebellion(ctx: EngineContext, g: Game, player: PlayerId, cause: string): Transition {
  const r = roll2d6(g);
  let s = noteRebellion(r.state, player, r.sum);
  const result = rebellionResult(r.sum);
  const events: GameEvent[] = [{ type: 'rebellionRolled', player, dice: r.dice, result, cause }];
  const p = playerById(s, player)!;
  const stage = p.cycle!.stage;
  const mine = unitsOf(s, player);
  const add = (t: Transition): Transition => ({ state: t.state, events: [...events, ...t.events] });
  switch (result) {
    case 'mercenaryDefection': {
      const queue = moveOrder(s).filter(
        (id) => id !== player && playerById(s, id)?.cycle?.stage === 'barbarian',
      );
      return add(nextDefection(ctx, s, player, queue));
    }
    case 'financialDisaster': {
      const garrisons = mine
        .filter((u) => u.kind === 'garrison')
        .map((u) => u.id)
        .sort();
      let die = 0;
      if (p.money === 0 && garrisons.length > 0) {
        const d = rollDie(s);
        s = d.state;
        die = d.value;
      }
      const f = financialDisaster(p.money, garrisons.length, die);
      if (p.money > 0) events.push({ type: 'treasuryLost', player, amount: p.money });
      s = updatePlayer(s, player, (q) => ({ ...q, money: 0 }));
      return add(chooseOrRemove(s, player, 'financialDisaster', garrisons, f.garrisonsLost));
    }
    case 'pirateAttack': {
      const held = new Set(mine.filter((u) => u.kind !== 'leader').map((u) => u.area));
      const coastal = capitalMoves(ctx, s, player).filter((a) => ctx.map.area(a)?.coastal && !held.has(a));
      if (coastal.length === 0) return { state: s, events };
      if (coastal.length === 1) return add(pirates(s, player, coastal[0]!));
      return {
        state: askChoice(s, {
          kind: 'cities',
          chooser: player,
          reason: 'pirates',
          target: 0,
          candidates: coastal,
        }),
        events,
      };
    }
    case 'provincialRebellion':
    case 'provincialRebellionNotSmallest': {
      const candidates = provinceCandidates(ctx, s, player, result === 'provincialRebellionNotSmallest');
      if (candidates.length === 0) return { state: s, events };
      if (candidates.length === 1) return add(revoltProvince(ctx, s, player, candidates[0]!));
      return { state: askChoice(s, { kind: 'province', chooser: player, candidates }), events };
    }
    case 'civilDisorder':
      return add(civilDisorder(ctx, s, player, 'roll'));
    case 'completeCollapse': {
      if (!collapses(stage)) return { state: s, events };
      const t = endCycle(ctx, s, player, 'collapsed');
      // As for revolts: no neutral garrison beside another player's unit standing in a city.
      const neutrals = { ...t.state.neutrals };
      const occupied = new Set(
        Object.values(t.state.units)
          .filter((u) => u.kind !== 'leader')
          .map((u) => u.area),
      );
      for (const a of Object.keys(neutrals))
        if (occupied.has(a as AreaId) && !s.neutrals[a]) delete neutrals[a];
      const cleared = patchRealm(clearRealmPlayer({ ...t.state, neutrals }, player), {
        tasks: [],
        pending: null,
      });
      const facts = t.events.filter((e) => e.type !== 'neutralPlaced' || neutrals[e.area] !== undefined);
      return { state: cleared, events: [...events, ...facts] };
    }
    case 'mercenariesGoHome': {
      const inf = mine
        .filter((u) => u.kind === 'infantry')
        .map((u) => u.id)
        .sort();
      return add(chooseOrRemove(s, player, 'mercenariesGoHome', inf, mercenariesGoHome(stage, inf.length)));
    }
    case 'armyMutiny': {
      const d = rollDie(s);
      s = pushTasks(d.state, { kind: 'civilDisorder', percent: 'roll' });
      const pool = mine
        .filter(
          (u) => u.kind !== 'leader' && (ctx.options.cfg.mutinyCountsGarrisons || u.kind !== 'garrison'),
        )
        .map((u) => u.id)
        .sort();
      return add(chooseOrRemove(s, player, 'armyMutiny', pool, mutinyLoss(d.value, pool.length)));
    }
    case 'attemptedCoup': {
      s = patchRealmPlayer(s, player, { coupTurn: g.turn + 1 });
      return { state: s, events: [...events, { type: 'coupDeclared', player, turn: g.turn + 1 }] };
    }
    case 'rebellionAndRevival': {
      const more: RealmTask[] = [{ kind: 'civilDisorder', percent: 50 }, { kind: 'revival' }];
      if (stage === 'empire') more.push({ kind: 'garrisonRemoval' });
      return { state: pushTasks(s, ...more), events };
    }
  }
}

/** Remove `count` of `pool`; the player chooses unless the choice is forced. */
function chooseOrRemove(
  g: Game,
  player: PlayerId,
  reason: 'mercenariesGoHome' | 'armyMutiny' | 'financialDisaster',
  pool: readonly UnitId[],
  count: number,
): Transition {
  if (count <= 0 || pool.length === 0) return { state: g, events: [] };
  if (count >= pool.length) return removeRealmUnits(g, player, pool, reason);
  return {
    state: askChoice(g, {
      kind: 'units',
      chooser: player,
      rebel: player,
      reason,
      count,
      candidates: pool,
      upTo: false,
    }),
    events: [],
  };
}

/** 11.7.2: the units a rebellion result takes, removed. */
export function removeRealmUnits(
  g: Game,
  player: PlayerId,
  units: readonly UnitId[],
  reason: string,
): Transition {
  const areas = units.map((id) => g.units[id]?.area).filter((a): a is AreaId => !!a);
  const s = removeUnits(g, units);
  const l = removeOrphanLeaders(s, player, areas);
  return {
    state: l.state,
    events: [{ type: 'realmUnitsRemoved', player, units: [...units, ...l.removed], reason }],
  };
}

/** 11.7.2 result 4 / AMBIG-9: pirates pillage an unoccupied coastal city (a marker, ownership kept). */
export function pirates(g: Game, player: PlayerId, area: AreaId): Transition {
  const digit = ((g.turn % 10) + 5) % 10;
  const marker = { area, digit, pillager: player, turn: g.turn, pirates: true };
  return {
    state: { ...g, markers: [...g.markers, marker] },
    events: [{ type: 'citiesRevolted', player, cities: [area], units: [], reason: 'pirates' }],
  };
}

/** 11.7.2 results 5/10 (D-32, AMBIG-36): provinces with a friendly city that may revolt. */
function provinceCandidates(ctx: EngineContext, g: Game, player: PlayerId, notSmallest: boolean): string[] {
  const capital = playerById(g, player)?.capital ?? null;
  const capitalProvince = capital ? (ctx.map.area(capital)?.province ?? null) : null;
  const sizes = new Map<string, number>();
  for (const a of ctx.map.cityAreas) {
    const prov = ctx.map.area(a)?.province;
    if (!prov || !cityAt(ctx, a) || g.cities[a]?.owner !== player) continue;
    sizes.set(prov, 0);
  }
  for (const prov of sizes.keys()) {
    const cities =
      ctx.options.cfg.provinceSizeMeasure === 'allCityValue'
        ? ctx.map.cityAreas.filter((a) => cityAt(ctx, a) && ctx.map.area(a)?.province === prov)
        : citiesInProvince(ctx, g, player, prov);
    sizes.set(prov, cityValue(ctx, cities));
  }
  return revoltableProvinces(sizes, capitalProvince, notSmallest);
}

/** The cities that may revolt under 11.7.2 result 6, with how they are held. */
export function revoltCandidates(ctx: EngineContext, g: Game, player: PlayerId): RevoltCity[] {
  const capital = playerById(g, player)?.capital ?? null;
  return taxableCities(ctx, g, player)
    .filter((a) => a !== capital)
    .map((area) => {
      const here = Object.values(g.units).filter(
        (u) => u.area === area && u.owner === player && u.kind !== 'leader',
      );
      const held: RevoltCity['held'] =
        here.length === 0 ? 'empty' : here.some((u) => u.kind === 'elite') ? 'elite' : 'units';
      return { area, value: cityAt(ctx, area)?.tax ?? 0, held };
    });
}

/** How a revolt is measured (AMBIG-8): by tax value, or one per city. */
export const revoltMeasure = (ctx: EngineContext) => (c: RevoltCity) =>
  ctx.options.cfg.civilDisorderUnit === 'cityCount' ? 1 : c.value;

/** 11.7.2 result 6 (and 9, 12): the revolting amount, then the player's choice of cities. */
export function civilDisorder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  percent: number | 'roll',
): Transition {
  let s = g;
  let pct = 0;
  if (percent === 'roll') {
    const d = rollDie(s);
    s = d.state;
    pct = d.value * 10;
  } else pct = percent;
  const eligible = revoltCandidates(ctx, s, player);
  const measure = revoltMeasure(ctx);
  const base =
    ctx.options.cfg.civilDisorderUnit === 'cityCount'
      ? taxableCities(ctx, s, player).length
      : cityValue(ctx, taxableCities(ctx, s, player));
  const target = civilDisorderTarget(pct, base);
  const options = revoltOptions(eligible, target, measure);
  if (options.length <= 1) return revoltCities(ctx, s, player, options[0] ?? [], 'civilDisorder');
  return {
    state: askChoice(s, {
      kind: 'cities',
      chooser: player,
      reason: 'civilDisorder',
      target,
      candidates: eligible.map((c) => c.area),
    }),
    events: [],
  };
}

/** 11.7.2 result 6: A few legal revolts to offer as concrete orders (the default first). */
export function revoltOptions(
  eligible: readonly RevoltCity[],
  target: number,
  measure: (c: RevoltCity) => number,
): AreaId[][] {
  if (target <= 0) return [];
  const out: AreaId[][] = [];
  const seen = new Set<string>();
  const tryAdd = (sel: AreaId[]) => {
    const key = [...sel].sort().join(',');
    if (!seen.has(key) && isLegalRevolt(eligible, sel, target, measure)) {
      seen.add(key);
      out.push(sel);
    }
  };
  tryAdd(defaultRevolt(eligible, target, measure));
  for (let shift = 1; shift < Math.min(eligible.length, 6); shift++) {
    const rotated = [...eligible.slice(shift), ...eligible.slice(0, shift)];
    tryAdd(greedyInOrder(rotated, target, measure));
  }
  return out;
}

function greedyInOrder(
  list: readonly RevoltCity[],
  target: number,
  measure: (c: RevoltCity) => number,
): AreaId[] {
  const tier = (c: RevoltCity) => (c.held === 'empty' ? 0 : c.held === 'units' ? 1 : 2);
  const sorted = [...list].sort((a, b) => tier(a) - tier(b));
  const out: AreaId[] = [];
  let total = 0;
  for (const c of sorted) {
    if (total >= target) break;
    out.push(c.area);
    total += measure(c);
  }
  return out;
}

/** 11.7.2 result 2: the next barbarian (in move order) with a 4-2 in reach may take one. */
export function nextDefection(
  ctx: EngineContext,
  g: Game,
  rebel: PlayerId,
  queue: readonly PlayerId[],
): Transition {
  for (let i = 0; i < queue.length; i++) {
    const b = queue[i]!;
    const candidates = defectionCandidates(ctx, g, rebel, b);
    if (candidates.length === 0) continue;
    const s = pushTasks(g, { kind: 'defection', queue: queue.slice(i + 1) });
    return {
      state: askChoice(s, {
        kind: 'units',
        chooser: b,
        rebel,
        reason: 'defection',
        count: 1,
        candidates,
        upTo: true,
      }),
      events: [],
    };
  }
  return { state: g, events: [] };
}

/**
 * 11.7.2 result 2 / AMBIG-37: the rebel's 4-2s within 6 areas of one of the barbarian's units.
 * Engine decision: a 4-2 stacked with another of the rebel's units cannot defect (the two
 * would share an area as enemies).
 */
function defectionCandidates(ctx: EngineContext, g: Game, rebel: PlayerId, barbarian: PlayerId): UnitId[] {
  const from = unitsOf(g, barbarian).map((u) => u.area);
  if (!from.length) return [];
  const reach = areasWithin(ctx, ctx.options, from, 6);
  const rebels = unitsOf(g, rebel);
  return rebels
    .filter(
      (u) =>
        u.kind === 'infantry' &&
        reach.has(u.area) &&
        !rebels.some((o) => o.id !== u.id && o.area === u.area && o.kind !== 'leader'),
    )
    .map((u) => u.id)
    .sort();
}

/** 11.7.2 result 2: the barbarian takes the 4-2, which becomes a 4-2 of its colour. */
export function defect(g: Game, rebel: PlayerId, to: PlayerId, unit: UnitId): Transition {
  const u = g.units[unit];
  if (!u) return { state: g, events: [] };
  let s = removeUnits(g, [unit]);
  const l = removeOrphanLeaders(s, rebel, [u.area]);
  s = l.state;
  const [n, id] = addUnit(s, to, 'infantry', u.area);
  return { state: n, events: [{ type: 'unitDefected', from: rebel, to, unit, newUnit: id }] };
}
