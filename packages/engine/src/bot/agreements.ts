/**
 * The strong bot's agreements when the options allow them (12, 13.3, 13.4, 13.6), chosen among the
 * engine's legal orders and kept once made:
 *
 * - 13.6 ransoms: an affordable ransom for its own leader is paid at once; as captor it asks the
 *   largest demand the owner can pay (treasuries are open, 2.4) and never executes a prisoner it
 *   has asked a ransom for.
 * - 13.4 mercenaries: a barbarian whose combat units have no city within reach offers them to the
 *   kingdom or empire that can pay the most (a lease is income and VP, 14.3.1); an offer nobody
 *   takes is withdrawn after two turns. A kingdom or empire with cities to take accepts an offer
 *   whose price its spare money covers at no more than one money a strength point (mercenaries pay
 *   no upkeep). A running lease is never ended early, and the price is kept back from the economic
 *   plan until the engine takes it at the next turn start (`owedForAgreements`).
 * - 13.3 auctions: with money to spare after its plan, a bid at the minimum for one unit of each
 *   auctioning empire when that is below what the unit would cost to buy; the money for it is kept.
 *
 * Tribute (13.7) is in tribute.ts.
 */
import { prisonersOf } from '../diplomacy/leader-capture.ts';
import { leasesOf } from '../diplomacy/mercenaries.ts';
import type { Engine } from '../engine.ts';
import type { PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import { realmPlayer } from '../model/realm.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf, type UnitKind } from '../model/units.ts';
import { priceOf, upkeepOf } from '../model/upkeep.ts';
import { realmPlanCost } from '../realm/plan-cost.ts';
import type { Board } from './board-facts.ts';

type Of<T extends LegalOrder['type']> = Extract<LegalOrder, { type: T }>;
const ofType = <T extends LegalOrder['type']>(all: readonly LegalOrder[], t: T) =>
  all.filter((o) => o.type === t) as Of<T>[];

/** Distance from a combat unit within which a city counts as "within reach" for the lease choice. */
const REACH = 6;
/** Turns an unanswered lease offer stands before it is withdrawn. */
const OFFER_TURNS = 2;

const moneyOf = (state: GameState, p: PlayerId): number => state.players.find((x) => x.id === p)?.money ?? 0;
const stageOf = (state: GameState, p: PlayerId) => state.players.find((x) => x.id === p)?.cycle?.stage;

/** 13.4: lease prices this player has agreed to and the engine will take at the next turn start. */
export function owedForAgreements(state: GameState, me: PlayerId): number {
  return leasesOf(state)
    .filter((l) => l.hirer === me && l.status === 'accepted')
    .reduce((s, l) => s + l.price, 0);
}

/** 10.4: what this player's units will cost at its next economic phase (barbarians pay none). */
function upkeepDue(state: GameState, me: PlayerId): number {
  const stage = stageOf(state, me);
  if (!stage) return 0;
  return Object.values(state.units)
    .filter((u) => u.owner === me)
    .reduce((s, u) => s + upkeepOf(u.kind, stage), 0);
}

/** Money free for agreements: the treasury less the coming upkeep and what it has promised. */
export function spareMoney(state: GameState, me: PlayerId): number {
  return moneyOf(state, me) - upkeepDue(state, me) - owedForAgreements(state, me);
}

/** 13.6: pay a ransom for an own leader; ask one for a prisoner held. */
function ransomChoice(state: GameState, me: PlayerId, all: readonly LegalOrder[]): Order | null {
  const pay = ofType(all, 'realmRansomAccept')[0];
  if (pay) return pay;
  for (const p of prisonersOf(state)) {
    if (p.captor !== me || p.ransom !== undefined) continue;
    const asks = ofType(all, 'realmRansomOffer').filter((o) => o.leader === p.leader);
    const can = moneyOf(state, p.owner);
    const ask =
      asks.filter((o) => o.amount <= can).sort((a, b) => b.amount - a.amount)[0] ??
      asks.sort((a, b) => a.amount - b.amount)[0];
    if (ask) return ask;
  }
  return null;
}

/** 13.4 as the barbarian: offer idle combat units; withdraw an offer nobody took. */
function leaseOffer(state: GameState, board: Board, all: readonly LegalOrder[]): Order | null {
  const me = board.me;
  const mine = leasesOf(state).filter((l) => l.owner === me);
  const stale = mine.find((l) => l.status === 'offered' && state.turn - l.turn >= OFFER_TURNS);
  if (stale) return { type: 'realmLeaseEnd', with: stale.hirer };
  if (mine.length > 0) return null;
  const combat = board.mine.filter((u) => u.kind !== 'tribe');
  if (combat.length === 0) return null;
  const inReach = board.targets.some((t) =>
    combat.some((u) => board.distances.between(u.area, t.area) <= REACH),
  );
  if (inReach) return null;
  const offers = ofType(all, 'realmLeaseOffer').filter((o) => o.units.length === combat.length);
  const best = offers
    .filter((o) => o.price <= moneyOf(state, o.hirer as PlayerId))
    .sort((a, b) => b.price - a.price || moneyOf(state, b.hirer) - moneyOf(state, a.hirer))[0];
  return best ?? null;
}

/** 13.4 as the kingdom or empire: accept a fair offer when there are cities to take. */
function leaseAccept(state: GameState, board: Board, all: readonly LegalOrder[]): Order | null {
  const me = board.me;
  if (!board.targets.some((t) => board.owned.some((c) => board.distances.between(c, t.area) <= REACH)))
    return null;
  const spare = spareMoney(state, me);
  for (const o of ofType(all, 'realmLeaseAccept')) {
    const lease = leasesOf(state).find((l) => l.owner === o.owner && l.hirer === me);
    if (!lease) continue;
    const strength = lease.units.reduce(
      (s, id) => s + strengthOf(state.units[id]?.kind ?? 'tribe', state.options),
      0,
    );
    if (lease.price <= spare && lease.price <= strength) return o;
  }
  return null;
}

/**
 * The agreements a strong bot makes at the start of its own movement phase (13.4, 13.6), or in the
 * economic phase (13.6 ransoms only); null when none is worth making.
 */
export function agreementChoice(
  state: GameState,
  board: Board,
  all: readonly LegalOrder[],
  atMovement: boolean,
): Order | null {
  const ransom = ransomChoice(state, board.me, all);
  if (ransom || !atMovement || !state.options.opt.mercenaries) return ransom;
  const stage = stageOf(state, board.me);
  if (stage === 'barbarian') return leaseOffer(state, board, all);
  return leaseAccept(state, board, all);
}

/** 13.3: the kind a winner of this stage would receive, to compare the bid with a purchase (B.1). */
const received = (kind: UnitKind, stage: string): UnitKind =>
  stage === 'empire' ? kind : kind === 'elite' ? 'cavalry' : kind === 'garrison' ? 'infantry' : kind;

/**
 * 13.3: one minimum bid per auctioning empire, for a unit that costs less than buying it, from the
 * money left after its plan (the plan is given first) and what it already promised.
 */
export function bidChoice(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  all: readonly LegalOrder[],
): Order | null {
  const bids = ofType(all, 'realmBid');
  if (bids.length === 0) return null;
  const stage = stageOf(state, me);
  if (!stage) return null;
  const rp = realmPlayer(state, me);
  const made = rp.bids?.turn === state.turn ? rp.bids.list : [];
  const plan = rp.plan;
  const left = plan ? (realmPlanCost(engine, state, me, plan)?.treasuryLeft ?? 0) : moneyOf(state, me);
  let spare = left - owedForAgreements(state, me) - made.reduce((s, b) => s + b.amount, 0);
  // A realm keeps its next upkeep; a barbarian's money buys nothing else (9.4).
  if (!plan && stage !== 'barbarian') spare -= upkeepDue(state, me);
  const lowest = new Map<string, Of<'realmBid'>>();
  for (const b of bids) {
    const k = `${b.auctioneer}|${b.kind}`;
    if (!lowest.has(k) || lowest.get(k)!.amount > b.amount) lowest.set(k, b);
  }
  const worth = [...lowest.values()]
    .filter((b) => b.kind !== 'ship' && !made.some((m) => m.auctioneer === b.auctioneer))
    .filter((b) => {
      const kind = received(b.kind, stage);
      return stage === 'barbarian' || b.amount < priceOf(kind, stage);
    })
    .sort((a, b) => strengthOf(b.kind, state.options) - strengthOf(a.kind, state.options));
  const pick = worth.find((b) => b.amount <= spare);
  return pick ?? null;
}
