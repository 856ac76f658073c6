import { minimumBid } from '../diplomacy/auction.ts';
import {
  execute,
  movePrisoner,
  offerRansom,
  otherHolders,
  prisonerOf,
  prisonersOf,
  ransom,
} from '../diplomacy/capture.ts';
import {
  acceptLease,
  endLease,
  leasableUnits,
  leaseBetween,
  leasesOf,
  mayLease,
  mercenaryPillageable,
  mercenaryPillageChosen,
  offerLease,
  offerProblem,
} from '../diplomacy/mercenaries.ts';
import { payTribute, tributeAllowance } from '../diplomacy/tribute.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameEvent, RealmEvent } from '../model/events.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { EconomicPlan, RealmOrder } from '../model/orders.ts';
import { moveOrder, playerById } from '../model/queries.ts';
import { patchRealm, patchRealmPlayer, realmOf, realmPlayer } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { Game } from '../model/state-ops.ts';
import { intercepts } from '../naval/intercept-combat.ts';
import { adminColumns } from './administration.ts';
import {
  becomeEmpire,
  defect,
  drain,
  pirates,
  type RealmStep,
  removeRealmUnits,
  revoltCandidates,
  revoltMeasure,
  revoltOptions,
  runRealmAdministration as runAdministration,
} from './administration-phase.ts';
import {
  type AnyEvent,
  auctioneers,
  collectRealm,
  defaultPlan,
  economyPreview,
  moneyAfterUpkeep,
  planProblem,
  type RealmTransition,
  recordBarbarianLedger,
  resolveCaptures,
} from './economy.ts';
import { singlePurchases } from './purchase.ts';
import { isLegalRevolt } from './rebellion.ts';
import { revoltCities, revoltProvince } from './revolts.ts';
import { removalBreaksSupport } from './support.ts';
import { priceOf } from './upkeep.ts';

export type { RealmEvent } from '../model/events.ts';

/**
 * 14.3.3 column 11: the administration phase fills in this turn's ledger row after the economic phase
 * has emitted it. Every row the step replaced is emitted again as a `ledgerRow` event, so whoever keeps
 * the sheet from the events (the server's VP ledger) sees the result, the rebellion rolls and the
 * conversion to an empire.
 */
function echoLedgerRows<T extends { readonly state: Game; readonly events: readonly unknown[] }>(
  before: Game,
  step: T,
): T {
  const old = realmOf(before).ledger;
  const now = realmOf(step.state).ledger;
  if (old === now) return step;
  // The rows not in the old ledger. A row still at its old index certainly is; the few others
  // (filled in or appended) are looked up, with a set only when many moved (the ledger grows
  // by six rows a turn and this runs for every realm every turn).
  const moved = now.filter((row, i) => old[i] !== row);
  const was = moved.length > 8 ? new Set(old) : null;
  const echoes = moved
    .filter((row) => !(was ? was.has(row) : old.includes(row)))
    .map((row) => ({ type: 'ledgerRow' as const, row }));
  return echoes.length ? { ...step, events: [...step.events, ...echoes] } : step;
}

/** 4.6: a kingdom's or empire's administration (see `ledger/administration.ts`), with its ledger rows. */
export function runRealmAdministration(ctx: EngineContext, g: Game, player: PlayerId): RealmStep {
  return echoLedgerRows(g, runAdministration(ctx, g, player));
}

/** Realm orders a player may give at any step, while others act (13.4, 13.6, 13.7, 8.1). */
export const REALM_ANYTIME_ORDERS = [
  'realmTribute',
  'realmInterception',
  'realmRansomOffer',
  'realmRansomAccept',
  'realmExecute',
  'realmPrisonerMove',
  'realmLeaseOffer',
  'realmLeaseAccept',
  'realmLeaseEnd',
] as const;

export const isRealmAnytimeOrder = (o: { type: string }): boolean =>
  (REALM_ANYTIME_ORDERS as readonly string[]).includes(o.type);

const isRealmStage = (g: Game, id: PlayerId): boolean => {
  const st = playerById(g, id)?.cycle?.stage;
  return st === 'kingdom' || st === 'empire';
};

/** 4.5: every kingdom and empire has economic decisions (upkeep, purchases, administration). */
export function realmEconomicDeciders(ctx: EngineContext, g: Game): PlayerId[] {
  const selling = auctioneers(ctx, g);
  // 13.3: with an auction coming, every other player with money may bid (acting at once, 4.5).
  return moveOrder(g).filter(
    (id) => isRealmStage(g, id) || (selling.some((a) => a !== id) && (playerById(g, id)?.money ?? 0) > 0),
  );
}

/**
 * 4.5.2–4.5.3: a handful of concrete plans: the thrifty default, each affordable administration
 * column, and one purchase of each kind (at its first legal place) — enough for a client to show
 * the costs and for random play to explore; any other legal plan is accepted too.
 */
export function realmEconomicLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const chosen = mercenaryPillageChosen(g, player);
  const sack: RealmLegalOrder[] = mercenaryPillageable(ctx, g, player)
    .filter((area) => !chosen.includes(area))
    .map((area) => ({ type: 'realmMercenaryPillage', area }));
  const bids = [...sack, ...bidLegal(ctx, g, player)];
  const pv = economyPreview(ctx, g, player);
  if (!pv) return bids;
  const base = defaultPlan(pv);
  const left = moneyAfterUpkeep(pv, base);
  const out: RealmLegalOrder[] = [{ type: 'realmPlan', plan: base }];
  for (const c of adminColumns(ctx.options, pv.tax))
    if (c.percent > 0 && c.cost <= left)
      out.push({ type: 'realmPlan', plan: { ...base, adminPercent: c.percent } });
  const seen = new Set<string>();
  for (const p of singlePurchases(ctx, g, player, pv.stage)) {
    if (seen.has(p.kind) || priceOf(p.kind, pv.stage) > left) continue;
    const plan = { ...base, purchases: [p] };
    if (planProblem(ctx, g, pv, plan) === null) {
      seen.add(p.kind);
      out.push({ type: 'realmPlan', plan });
    }
  }
  if (pv.isolatedGarrisons.length) {
    const plan = { ...defaultPlanWithout(pv, pv.isolatedGarrisons), garrisonDisband: pv.isolatedGarrisons };
    if (planProblem(ctx, g, pv, plan) === null) out.push({ type: 'realmPlan', plan });
  }
  return [...out, ...bids];
}

/** 13.3: standing bids this player may make: the minimum and a little more, for each kind on sale. */
function bidLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const money = playerById(g, player)?.money ?? 0;
  const out: RealmLegalOrder[] = [];
  for (const a of auctioneers(ctx, g)) {
    if (a === player) continue;
    const kinds = [
      ...new Set(
        Object.values(g.units)
          .filter((u) => u.owner === a && u.kind !== 'leader')
          .map((u) => u.kind),
      ),
    ].sort();
    for (const kind of kinds) {
      const min = minimumBid(ctx.options, kind);
      for (const amount of [min, min + 3])
        if (amount <= money) out.push({ type: 'realmBid', auctioneer: a, kind, amount });
    }
  }
  return out;
}

/** The default plan once some garrisons are disbanded at will (disbanding recomputed). */
function defaultPlanWithout(
  pv: NonNullable<ReturnType<typeof economyPreview>>,
  gone: readonly UnitId[],
): EconomicPlan {
  return defaultPlan({ ...pv, upkeepUnits: pv.upkeepUnits.filter((u) => !gone.includes(u.id)) });
}

/**
 * Orders a player may give outside its own decisions, whenever their window is open: its standing
 * interception choice (8.1, while it has ships) and 13.7 tribute to the phasing player (one order
 * per amount, only with opt.tribute).
 */
export function realmAnytimeLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const p = playerById(g, player);
  const ships = Object.values(g.units).some((u) => u.owner === player && u.kind === 'ship');
  const toggle: RealmLegalOrder[] =
    p?.status === 'active' && ships ? [{ type: 'realmInterception', intercept: !intercepts(g, player) }] : [];
  const extra = [...prisonerLegal(g, player), ...leaseLegal(g, player)];
  if (!ctx.options.opt.tribute || g.step.kind !== 'playerTurn' || g.step.player === player)
    return [...toggle, ...extra];
  const to = g.step.player;
  const room = tributeAllowance(ctx, g, player, to);
  return [
    ...toggle,
    ...Array.from({ length: room }, (_, i) => ({ type: 'realmTribute' as const, to, amount: i + 1 })),
    ...extra,
  ];
}

const RANSOM_DEMANDS = [1, 3, 5, 10, 20] as const;
const LEASE_PRICES = [0, 2, 5, 10] as const;

const ownTurn = (g: Game, player: PlayerId, phase?: string): boolean =>
  g.step.kind === 'playerTurn' && g.step.player === player && (phase === undefined || g.step.phase === phase);

/** 13.6: ransom demands and executions for the captor, paying a demand for the owner. */
function prisonerLegal(g: Game, player: PlayerId): RealmLegalOrder[] {
  const out: RealmLegalOrder[] = [];
  const money = playerById(g, player)?.money ?? 0;
  for (const p of prisonersOf(g)) {
    if (p.captor === player) {
      for (const amount of RANSOM_DEMANDS)
        if (amount !== p.ransom) out.push({ type: 'realmRansomOffer', leader: p.leader, amount });
      if (ownTurn(g, player)) out.push({ type: 'realmExecute', leader: p.leader });
      if (ownTurn(g, player, 'movement'))
        for (const holder of otherHolders(g, p))
          out.push({ type: 'realmPrisonerMove', leader: p.leader, holder });
    }
    if (p.owner === player && p.ransom !== undefined && p.ransom <= money)
      out.push({ type: 'realmRansomAccept', leader: p.leader });
  }
  return out;
}

/** 13.4: offers of all its leasable units to each kingdom/empire, acceptances, and ends. */
function leaseLegal(g: Game, player: PlayerId): RealmLegalOrder[] {
  if (!g.options.opt.mercenaries) return [];
  const out: RealmLegalOrder[] = [];
  for (const q of g.players) {
    const hirer = q.id;
    if (!mayLease(g, player, hirer)) continue;
    const cur = leaseBetween(g, player, hirer);
    if (cur && cur.status !== 'offered') continue;
    const units = leasableUnits(g, player, hirer);
    if (units.length === 0) continue;
    for (const price of LEASE_PRICES) out.push({ type: 'realmLeaseOffer', hirer, units, price });
    if (units.length > 1) out.push({ type: 'realmLeaseOffer', hirer, units: units.slice(0, 1), price: 2 });
  }
  const money = playerById(g, player)?.money ?? 0;
  for (const l of leasesOf(g)) {
    if (l.hirer === player && l.status === 'offered' && l.price <= money)
      out.push({ type: 'realmLeaseAccept', owner: l.owner });
    if ((l.hirer === player || l.owner === player) && l.status !== 'ending')
      out.push({ type: 'realmLeaseEnd', with: l.hirer === player ? l.owner : l.hirer });
  }
  return out;
}

/** 13.4 / 13.6 anytime orders: leases, ransoms, executions, prisoners handed over. */
function applyDiplomacyOrder(g: Game, player: PlayerId, order: RealmOrder): Result<RealmStep> | null {
  const done = (t: { state: Game; events: RealmEvent[] }): Result<RealmStep> =>
    ok({ state: t.state, events: t.events, choice: null });
  switch (order.type) {
    case 'realmRansomOffer':
    case 'realmRansomAccept':
    case 'realmExecute':
    case 'realmPrisonerMove': {
      if (!g.options.opt.optionalLeaders) return err('order/option_off', { option: 'optionalLeaders' });
      const p = prisonerOf(g, order.leader);
      if (!p) return err('order/unknown_unit', { unit: order.leader });
      if (order.type === 'realmRansomAccept') {
        if (p.owner !== player) return err('order/not_your_unit', { unit: order.leader });
        if (p.ransom === undefined) return err('order/invalid', { reason: 'noRansomOffered' });
        if ((playerById(g, player)?.money ?? 0) < p.ransom)
          return err('order/invalid', { reason: 'cannotAfford' });
        return done(ransom(g, p, p.ransom));
      }
      if (p.captor !== player) return err('order/not_your_unit', { unit: order.leader });
      if (order.type === 'realmRansomOffer') return done(offerRansom(g, p, order.amount));
      if (order.type === 'realmExecute') {
        if (!ownTurn(g, player)) return err('order/not_your_turn');
        return done(execute(g, p));
      }
      if (!ownTurn(g, player, 'movement')) return err('order/wrong_phase', { expected: 'movement' });
      if (!otherHolders(g, p).includes(order.holder)) return err('order/invalid', { reason: 'holder' });
      return done(movePrisoner(g, p, order.holder));
    }
    case 'realmLeaseOffer': {
      const problem = offerProblem(g, player, order.hirer, order.units);
      if (!g.options.opt.mercenaries) return err('order/option_off', { option: 'mercenaries' });
      if (problem) return err('order/invalid', { reason: problem });
      return done(offerLease(g, player, order.hirer, order.units, order.price));
    }
    case 'realmLeaseAccept': {
      if (!g.options.opt.mercenaries) return err('order/option_off', { option: 'mercenaries' });
      const l = leaseBetween(g, order.owner, player);
      if (l?.status !== 'offered') return err('order/invalid', { reason: 'noOffer' });
      if ((playerById(g, player)?.money ?? 0) < l.price)
        return err('order/invalid', { reason: 'cannotAfford' });
      return done(acceptLease(g, order.owner, player));
    }
    case 'realmLeaseEnd': {
      if (!g.options.opt.mercenaries) return err('order/option_off', { option: 'mercenaries' });
      const mine = leaseBetween(g, player, order.with);
      const theirs = leaseBetween(g, order.with, player);
      const l = mine ?? theirs;
      if (!l || l.status === 'ending') return err('order/invalid', { reason: 'noLease' });
      return done(endLease(g, l.owner, l.hirer, player));
    }
    default:
      return null;
  }
}

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

/** Apply a realm order: an economic plan, or the answer to the pending administration choice. */
export function applyRealmOrder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> {
  const r = applyRealmOrderToState(ctx, g, player, order);
  return r.ok ? ok(echoLedgerRows(g, r.value)) : r;
}

function applyRealmOrderToState(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> {
  const diplomacy = applyDiplomacyOrder(g, player, order);
  if (diplomacy) return diplomacy;
  if (order.type === 'realmInterception') {
    const p = playerById(g, player);
    if (p?.status !== 'active') return err('order/wrong_phase');
    return ok({
      state: patchRealmPlayer(g, player, { intercept: order.intercept }),
      events: [],
      choice: null,
    });
  }
  if (order.type === 'realmTribute') {
    const to = order.to as PlayerId;
    if (!ctx.options.opt.tribute) return err('order/option_off', { option: 'tribute' });
    if (order.amount > tributeAllowance(ctx, g, player, to))
      return err('order/invalid', { reason: 'tribute' });
    const t = payTribute(g, player, to, order.amount);
    return ok({ state: t.state, events: t.events, choice: null });
  }
  if (order.type === 'realmBid') {
    if (g.step.kind !== 'economic' || !g.step.pending.includes(player)) return err('order/wrong_phase');
    if (!ctx.options.opt.auction) return err('order/option_off', { option: 'auction' });
    const a = order.auctioneer as PlayerId;
    if (a === player || !auctioneers(ctx, g).includes(a))
      return err('order/invalid', { reason: 'noAuction' });
    if (
      order.amount < minimumBid(ctx.options, order.kind) ||
      order.amount > (playerById(g, player)?.money ?? 0)
    )
      return err('order/invalid', { reason: 'bid' });
    const prev = realmPlayer(g, player).bids;
    const list = (prev?.turn === g.turn ? prev.list : []).filter(
      (b) => !(b.auctioneer === a && b.kind === order.kind),
    );
    const bid = { bidder: player, auctioneer: a, kind: order.kind, amount: order.amount };
    return ok({
      state: patchRealmPlayer(g, player, { bids: { turn: g.turn, list: [...list, bid] } }),
      events: [],
      choice: null,
    });
  }
  if (order.type === 'realmMercenaryPillage') {
    if (g.step.kind !== 'economic' || !g.step.pending.includes(player)) return err('order/wrong_phase');
    const chosen = mercenaryPillageChosen(g, player);
    if (!mercenaryPillageable(ctx, g, player).includes(order.area) || chosen.includes(order.area))
      return err('order/not_pillageable', { area: order.area });
    const mercenaryPillage = { turn: g.turn, areas: [...chosen, order.area] };
    // The plan given before no longer matches the tax: it is dropped (the player may give it again).
    return ok({
      state: patchRealmPlayer(g, player, { mercenaryPillage, plan: null }),
      events: [],
      choice: null,
    });
  }
  if (order.type === 'realmPlan') {
    if (g.step.kind !== 'economic' || !g.step.pending.includes(player)) return err('order/wrong_phase');
    const pv = economyPreview(ctx, g, player);
    if (!pv) return err('order/wrong_phase', { reason: 'notARealm' });
    const problem = planProblem(ctx, g, pv, order.plan);
    if (problem) return err('order/invalid', { reason: problem });
    return ok({ state: patchRealmPlayer(g, player, { plan: order.plan }), events: [], choice: null });
  }
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
  let t: RealmTransition | null = null;
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

/**
 * 4.5 resolved in move order with part 2: capitals captured first (10.3), then each player's
 * collection — the core's for barbarians (followed by their ledger row), `collectRealm` for
 * kingdoms and empires.
 */
export function resolveEconomicWithRealms(
  ctx: EngineContext,
  g: Game,
  barbarianCollect: (g: Game, player: PlayerId) => { state: Game; events: GameEvent[] },
): RealmTransition {
  const c = resolveCaptures(g);
  let s = c.state;
  const events: AnyEvent[] = [...c.events];
  for (const id of moveOrder(g)) {
    const stage = playerById(s, id)?.cycle?.stage;
    if (stage === 'kingdom' || stage === 'empire') {
      const t = collectRealm(ctx, s, id);
      s = t.state;
      events.push(...t.events);
    } else {
      const before = s;
      const t = barbarianCollect(s, id);
      const l = recordBarbarianLedger(t.state, id, before, t.events);
      s = l.state;
      events.push(...t.events, ...l.events);
    }
  }
  return { state: s, events };
}

/**
 * 14.3 / 14.3.2 (D-27): may this player abandon its position to start a new cycle? Always under
 * the basic conditions; under the advanced ones only if last turn's unmodified income was below 10.
 * (Leaving the game for good is never limited.)
 */
export function mayAbandon(ctx: EngineContext, g: Game, player: PlayerId): boolean {
  if (ctx.options.victory !== 'advanced') return true;
  const rp = realmOf(g).players[player];
  return (rp?.lastIncome ?? 0) < 10;
}
