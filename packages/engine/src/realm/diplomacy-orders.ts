/**
 * The orders a player may give while others act (13.4 leases, 13.6 ransoms and prisoners, 13.7
 * tribute, 8.1 its standing interception choice) and those of the economic phase's diplomacy (13.3
 * standing bids, 13.4 the mercenaries' pillage): their legal lists and their application.
 */

import { minimumBid } from '../diplomacy/auction.ts';
import {
  execute,
  movePrisoner,
  offerRansom,
  otherHolders,
  prisonerOf,
  prisonersOf,
  ransom,
} from '../diplomacy/leader-capture.ts';
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
import type { RealmEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { RealmOrder } from '../model/orders.ts';
import { playerById } from '../model/queries.ts';
import { intercepts, patchRealmPlayer, realmPlayer } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { Game, RealmStep } from '../model/state-ops.ts';
import { auctioneers } from './economy.ts';

/** Realm orders a player may give at any step, while others act (13.4, 13.6, 13.7, 8.1). */
const REALM_ANYTIME_ORDERS = [
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

/** 13.4, 13.6, 13.7, 8.1: an order a player may give while others act. */
export const isRealmAnytimeOrder = (o: { type: string }): boolean =>
  (REALM_ANYTIME_ORDERS as readonly string[]).includes(o.type);

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

/** 13.3: standing bids this player may make: the minimum and a little more, for each kind on sale. */
export function bidLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const money = playerById(g, player)?.money ?? 0;
  const out: RealmLegalOrder[] = [];
  for (const a of auctioneers(ctx, g)) {
    if (a === player) continue;
    // 13.4: leased units stay their barbarian owner's, and are never the hirer's to sell.
    const leased = new Set(leasesOf(g).flatMap((l) => (l.hirer === a ? l.units : [])));
    const kinds = [
      ...new Set(
        Object.values(g.units)
          .filter((u) => u.owner === a && u.kind !== 'leader' && !leased.has(u.id))
          .map((u) => u.kind),
      ),
    ].sort();
    for (const kind of kinds) {
      const min = minimumBid(ctx.options, kind);
      // 13.3: only a unit whose upkeep cannot be paid goes to auction; one without upkeep never does.
      if (min < 1) continue;
      for (const amount of [min, min + 3])
        if (amount <= money) out.push({ type: 'realmBid', auctioneer: a, kind, amount });
    }
  }
  return out;
}

/** 13.4 / 13.6: leases, ransoms, executions, prisoners handed over. */
function applyLeaseOrPrisonerOrder(g: Game, player: PlayerId, order: RealmOrder): Result<RealmStep> | null {
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

/**
 * The orders of the optional diplomacy and the standing choices (13.3 bids, 13.4 leases and the
 * mercenaries' pillage, 13.6 ransoms and prisoners, 13.7 tribute, 8.1 interception), applied; null
 * when the order is none of them.
 */
export function applyDiplomacyOrder(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> | null {
  const diplomacy = applyLeaseOrPrisonerOrder(g, player, order);
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
  return null;
}
