/**
 * 4.6 for kingdoms and empires (A.4-X step A, AMBIG-13 order): the Administration Table roll
 * (10.6, 11.6) and its result, the conversion to empire (11.1), every Rebellion Table result
 * (11.7) and the capital-loss rebellion (10.3). Work is a queue of tasks in `realm.tasks`; when a
 * player must choose (which province, which cities, which units, where the capital goes), the
 * choice waits in `realm.pending` and the queue resumes once it is answered.
 */

import { administratorAtCapital, leaderTypeOf } from '../diplomacy/leaders.ts';
import { isLeased } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6, rollDie } from '../model/dice.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { cityAt, moveOrder, playerById, unitsOf } from '../model/queries.ts';
import type { AdminOutcome } from '../model/realm.ts';
import {
  clearRealmPlayer,
  patchRealm,
  patchRealmPlayer,
  type RealmChoice,
  type RealmTask,
  realmOf,
  realmPlayer,
} from '../model/realm.ts';
import type { Game } from '../model/state-ops.ts';
import { addUnit, patchUnit, removeUnits, updatePlayer } from '../model/state-ops.ts';
import { endCycle } from '../scenario/cycles.ts';
import { adminTableResult, effectivePercent, numberOutcome, turnsCounted } from './administration.ts';
import type { AnyEvent, RealmTransition } from './economy.ts';
import { empireKindOf, garrisonCandidates } from './empire-conversion.ts';
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
import { citiesInProvince, removeOrphanLeaders, revoltCities, revoltProvince } from './revolts.ts';

/** What the core's administration step gets back: `choice` set while someone must answer. */
export interface RealmStep extends RealmTransition {
  readonly choice: { readonly type: 'realm' } | null;
  readonly stop?: boolean;
}

/** Column 11 of this turn's ledger row, updated in place (a new array, never mutated). */
function noteOutcome(g: Game, player: PlayerId, f: (o: AdminOutcome | null) => AdminOutcome): Game {
  const r = realmOf(g);
  const i = r.ledger.findLastIndex((row) => row.player === player && row.turn === g.turn);
  if (i < 0) return g;
  const ledger = [...r.ledger];
  const row = ledger[i]!;
  ledger[i] = { ...row, adminResult: f(row.adminResult) };
  return patchRealm(g, { ledger });
}

const noteRebellion = (g: Game, player: PlayerId, roll: number): Game =>
  noteOutcome(g, player, (o) =>
    o
      ? { ...o, rebellions: [...o.rebellions, roll] }
      : { roll: 0, result: 'rebellion', rebellions: [roll], becameEmpire: false },
  );

/**
 * 4.6 / 10.6.2 / 11.6: the administration of one kingdom or empire: roll on the column bought
 * this turn, apply the result, then the rebellion for a capital lost this turn (10.3).
 */
export function runRealmAdministration(ctx: EngineContext, g: Game, player: PlayerId): RealmStep {
  const p = playerById(g, player);
  const cycle = p?.cycle;
  if (!p || !cycle || (cycle.stage !== 'kingdom' && cycle.stage !== 'empire'))
    return { state: g, events: [], choice: null };
  const rp = realmPlayer(g, player);
  const tasks: RealmTask[] = [];
  const events: AnyEvent[] = [];
  let s = patchRealm(g, { active: player, pending: null, tasks: [] });
  // AMBIG-12: no roll in the phase the stage was entered.
  const newStage = cycle.stageTurn === g.turn && !ctx.options.cfg.rollOnConversionTurn;
  if (!newStage) {
    const bought = rp.lastIncomeTurn === g.turn ? rp.adminPercent : 0;
    const percent = effectivePercent(
      ctx.options,
      cycle.people,
      bought,
      administratorAtCapital(s, player, p.capital),
    );
    const r = roll2d6(s);
    s = r.state;
    const result = adminTableResult(percent, r.sum);
    events.push({ type: 'administrationRolled', player, percent, dice: r.dice, result });
    s = noteOutcome(s, player, () => ({ roll: r.sum, result, rebellions: [], becameEmpire: false }));
    if (result === 'goodRuler' || result === 'corruption')
      s = patchRealmPlayer(s, player, { incomeEffect: result });
    else if (result === 'revival') tasks.push({ kind: 'revival' });
    else if (result === 'rebellion') tasks.push({ kind: 'rebellion', cause: 'administration' });
    else {
      const outcome = numberOutcome(
        cycle.stage,
        result,
        turnsCounted(g.turn, cycle.stageTurn, rp.revivalTurn),
      );
      if (outcome === 'becomeEmpire') tasks.push({ kind: 'becomeEmpire' });
      if (outcome === 'rebellion') tasks.push({ kind: 'rebellion', cause: 'empireNumber' });
    }
  }
  if (rp.capitalCapture?.turn === g.turn) tasks.push({ kind: 'rebellion', cause: 'capitalLoss' });
  s = patchRealm(s, { tasks });
  const d = drain(ctx, s);
  return { ...d, events: [...events, ...d.events] };
}

/** Run queued tasks until one needs a choice or none is left. */
export function drain(ctx: EngineContext, g: Game): RealmStep {
  let s = g;
  const events: AnyEvent[] = [];
  for (let guard = 0; guard < 100; guard++) {
    const r = realmOf(s);
    if (r.pending) return { state: s, events, choice: { type: 'realm' } };
    const player = r.active;
    const [task, ...rest] = r.tasks;
    if (!player || !task || playerById(s, player)?.cycle == null) {
      return {
        state: patchRealm(s, { active: null, tasks: [], pending: null }),
        events,
        choice: null,
        stop: true,
      };
    }
    s = patchRealm(s, { tasks: rest });
    const t = runRealmTask(ctx, s, player, task);
    s = t.state;
    events.push(...t.events);
  }
  throw new Error('realm administration: task loop (engine bug)');
}

const ask = (g: Game, choice: RealmChoice): Game => patchRealm(g, { pending: choice });
const pushFront = (g: Game, ...tasks: RealmTask[]): Game =>
  patchRealm(g, { tasks: [...tasks, ...realmOf(g).tasks] });

function runRealmTask(ctx: EngineContext, g: Game, player: PlayerId, task: RealmTask): RealmTransition {
  switch (task.kind) {
    case 'becomeEmpire': {
      const candidates = garrisonCandidates(ctx, g, player);
      if (candidates.length === 0) return becomeEmpire(ctx, g, player, []);
      return { state: ask(g, { kind: 'garrisons', chooser: player, candidates }), events: [] };
    }
    case 'rebellion':
      return rollRebellion(ctx, g, player, task.cause);
    case 'defection':
      return nextDefection(ctx, g, player, task.queue);
    case 'civilDisorder':
      return civilDisorder(ctx, g, player, task.percent);
    case 'revival': {
      let s = patchRealmPlayer(g, player, { revivalTurn: g.turn });
      const events: AnyEvent[] = [{ type: 'revival', player, turn: g.turn }];
      const capital = playerById(s, player)?.capital ?? null;
      const others = capitalMoves(ctx, s, player).filter((a) => a !== capital);
      if (others.length)
        s = ask(s, { kind: 'capital', chooser: player, candidates: [capital, ...others], reason: 'revival' });
      return { state: s, events };
    }
    case 'garrisonRemoval': {
      const candidates = unitsOf(g, player)
        .filter((u) => u.kind === 'garrison')
        .map((u) => u.id)
        .sort();
      if (!candidates.length) return { state: g, events: [] };
      return {
        state: ask(g, {
          kind: 'units',
          chooser: player,
          rebel: player,
          reason: 'garrisonsRemoval',
          count: candidates.length,
          candidates,
          upTo: true,
        }),
        events: [],
      };
    }
  }
}

/** 10.6.2 Revival / 10.3: where the capital may move: friendly unpillaged cities. */
export function capitalMoves(ctx: EngineContext, g: Game, player: PlayerId): AreaId[] {
  return ctx.map.cityAreas.filter(
    (a) =>
      cityAt(ctx, a) &&
      g.cities[a]?.owner === player &&
      !g.markers.some((m) => m.area === a) &&
      !g.neutrals[a],
  );
}

/** 11.1: the kingdom becomes an empire now, these 4-2s turning into (4)-0 garrisons. */
export function becomeEmpire(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  garrisons: readonly UnitId[],
): RealmTransition {
  let s = g;
  const removed: UnitId[] = [];
  for (const u of unitsOf(g, player)) {
    if (isLeased(g, u.id)) continue; // 13.4: hired mercenaries keep their barbarian side
    const k = empireKindOf(u.kind, leaderTypeOf(g, player) === 'dynastic');
    if (k === null) removed.push(u.id);
    else if (u.kind === 'infantry' && garrisons.includes(u.id)) s = patchUnit(s, u.id, { kind: 'garrison' });
    else if (k !== u.kind) s = patchUnit(s, u.id, { kind: k });
  }
  s = removeUnits(s, removed);
  s = updatePlayer(s, player, (q) =>
    q.cycle ? { ...q, cycle: { ...q.cycle, stage: 'empire', stageTurn: g.turn } } : q,
  );
  s = patchRealmPlayer(s, player, { revivalTurn: null });
  s = noteOutcome(s, player, (o) => ({
    ...(o ?? { roll: 0, result: 0, rebellions: [] }),
    becameEmpire: true,
  }));
  void ctx;
  return {
    state: s,
    events: [{ type: 'becameEmpire', player, turn: g.turn, garrisons: [...garrisons], removed }],
  };
}

/** 11.7.1: roll 2d6 on the Rebellion Table and apply the result at once. */
function rollRebellion(ctx: EngineContext, g: Game, player: PlayerId, cause: string): RealmTransition {
  const r = roll2d6(g);
  let s = noteRebellion(r.state, player, r.sum);
  const result = rebellionResult(r.sum);
  const events: AnyEvent[] = [{ type: 'rebellionRolled', player, dice: r.dice, result, cause }];
  const p = playerById(s, player)!;
  const stage = p.cycle!.stage;
  const mine = unitsOf(s, player);
  const add = (t: RealmTransition): RealmTransition => ({ state: t.state, events: [...events, ...t.events] });
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
        state: ask(s, { kind: 'cities', chooser: player, reason: 'pirates', target: 0, candidates: coastal }),
        events,
      };
    }
    case 'provincialRebellion':
    case 'provincialRebellionNotSmallest': {
      const candidates = provinceCandidates(ctx, s, player, result === 'provincialRebellionNotSmallest');
      if (candidates.length === 0) return { state: s, events };
      if (candidates.length === 1) return add(revoltProvince(ctx, s, player, candidates[0]!));
      return { state: ask(s, { kind: 'province', chooser: player, candidates }), events };
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
      s = pushFront(d.state, { kind: 'civilDisorder', percent: 'roll' });
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
      return { state: pushFront(s, ...more), events };
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
): RealmTransition {
  if (count <= 0 || pool.length === 0) return { state: g, events: [] };
  if (count >= pool.length) return removeRealmUnits(g, player, pool, reason);
  return {
    state: ask(g, {
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

export function removeRealmUnits(
  g: Game,
  player: PlayerId,
  units: readonly UnitId[],
  reason: string,
): RealmTransition {
  const areas = units.map((id) => g.units[id]?.area).filter((a): a is AreaId => !!a);
  const s = removeUnits(g, units);
  const l = removeOrphanLeaders(s, player, areas);
  return {
    state: l.state,
    events: [{ type: 'realmUnitsRemoved', player, units: [...units, ...l.removed], reason }],
  };
}

/** 11.7.2 result 4 / AMBIG-9: pirates pillage an unoccupied coastal city (a marker, ownership kept). */
export function pirates(g: Game, player: PlayerId, area: AreaId): RealmTransition {
  const digit = ((g.turn % 10) + 5) % 10;
  const marker = { area, digit, pillager: player, turn: g.turn, pirates: true };
  return {
    state: { ...g, markers: [...g.markers, marker] },
    events: [{ type: 'citiesRevolted', player, cities: [area], units: [], reason: 'pirates' }],
  };
}

/** 11.7.2 results 5/10 (D-32, AMBIG-36): provinces with a friendly city that may revolt. */
export function provinceCandidates(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  notSmallest: boolean,
): string[] {
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
function civilDisorder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  percent: number | 'roll',
): RealmTransition {
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
    state: ask(s, {
      kind: 'cities',
      chooser: player,
      reason: 'civilDisorder',
      target,
      candidates: eligible.map((c) => c.area),
    }),
    events: [],
  };
}

/** A few legal revolts to offer as concrete orders (the default first). */
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
function nextDefection(
  ctx: EngineContext,
  g: Game,
  rebel: PlayerId,
  queue: readonly PlayerId[],
): RealmTransition {
  for (let i = 0; i < queue.length; i++) {
    const b = queue[i]!;
    const candidates = defectionCandidates(ctx, g, rebel, b);
    if (candidates.length === 0) continue;
    const s = pushFront(g, { kind: 'defection', queue: queue.slice(i + 1) });
    return {
      state: ask(s, {
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
export function defectionCandidates(
  ctx: EngineContext,
  g: Game,
  rebel: PlayerId,
  barbarian: PlayerId,
): UnitId[] {
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
export function defect(g: Game, rebel: PlayerId, to: PlayerId, unit: UnitId): RealmTransition {
  const u = g.units[unit];
  if (!u) return { state: g, events: [] };
  let s = removeUnits(g, [unit]);
  const l = removeOrphanLeaders(s, rebel, [u.area]);
  s = l.state;
  const [n, id] = addUnit(s, to, 'infantry', u.area);
  return { state: n, events: [{ type: 'unitDefected', from: rebel, to, unit, newUnit: id }] };
}
