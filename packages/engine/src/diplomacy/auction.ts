/**
 * 13.3 Auctioning units (opt.auction, AMBIG-22): an empire that cannot pay upkeep auctions the
 * unpayable units one at a time; other players bid in seat order from the auctioneer's left;
 * the winning bid leaves the winner's treasury and goes to nobody; the winner takes the unit in
 * its own colour, as the kind of its own stage that would have become the auctioned one (D-21).
 */

import type { RealmEvent } from '../model/events.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { Options } from '../model/options.ts';
import type { Stage } from '../model/people.ts';
import { playerById } from '../model/queries.ts';
import type { StandingBid } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import { addUnit, removeUnits, updatePlayer } from '../model/state-ops.ts';
import type { UnitKind } from '../model/units.ts';
import { upkeepOf } from '../model/upkeep.ts';

/** 13.3 / B.1 reverse mapping (D-21): what the winner receives for an auctioned empire unit. */
export function auctionReplacement(auctioned: UnitKind, winnerStage: Stage): UnitKind {
  if (winnerStage === 'empire') return auctioned;
  if (auctioned === 'elite') return winnerStage === 'kingdom' ? 'cavalry' : 'barbarianHorse';
  if (auctioned === 'garrison') return 'infantry';
  return auctioned;
}

/** AMBIG-22: the lowest bid: the unit's empire upkeep, or its purchase cost. */
export function minimumBid(o: Options, kind: UnitKind): number {
  const upkeep = upkeepOf(kind, 'empire');
  return o.cfg.auctionMinBid === 'purchaseCost' ? 2 * upkeep : upkeep;
}

/** 13.3: seat order starting left of the auctioneer (online: the next seats, wrapping). */
export function biddingOrder(seats: readonly number[], auctioneer: number): number[] {
  const sorted = [...seats].filter((s) => s !== auctioneer).sort((a, b) => a - b);
  return [...sorted.filter((s) => s > auctioneer), ...sorted.filter((s) => s < auctioneer)];
}

/** 13.3: may this unit go to auction? Never one in the capital's area, unless it is the last unit. */
function auctionable(unitArea: string, capital: string | null, unitsLeft: number): boolean {
  return unitArea !== capital || unitsLeft <= 1;
}

/** 13.3: the money after a winning bid: the winner pays, the auctioneer receives nothing. */
export function settleAuction(
  winnerTreasury: number,
  bid: number,
): { winner: number; auctioneerGets: 0 } | null {
  return bid <= winnerTreasury ? { winner: winnerTreasury - bid, auctioneerGets: 0 } : null;
}

/**
 * 13.3: may this unit go under the hammer? Not in the capital's area unless it is the last unit;
 * engine decision: not while stacked with another unit of the auctioneer (the buyer's unit would
 * share the area with it). Otherwise it is simply disbanded.
 */
function sellable(g: GameStateCore, unit: UnitId): boolean {
  const u = g.units[unit];
  if (!u) return false;
  const mine = Object.values(g.units).filter((x) => x.owner === u.owner && x.kind !== 'leader');
  const capital = playerById(g, u.owner as PlayerId)?.capital ?? null;
  if (!auctionable(u.area, capital, mine.length)) return false;
  return !mine.some((x) => x.id !== u.id && x.area === u.area);
}

/**
 * 13.3 (D-21): sell the auctioneer's units in the given order to the best standing bids: the
 * highest amount the bidder can still pay, ties to the first bidder in seat order from the
 * auctioneer's left; each bidder wins at most one unit per phase. The bid leaves the winner's
 * treasury (not income, no VP) and reaches nobody; the winner's unit replaces the sold one.
 * Units nobody buys are disbanded (AMBIG-22). Returns the state and who bought what.
 */
export function runAuction<S extends GameStateCore>(
  o: Options,
  g: S,
  auctioneer: PlayerId,
  units: readonly UnitId[],
  bids: readonly StandingBid[],
): { state: S; events: RealmEvent[] } {
  let s = g;
  const events: RealmEvent[] = [];
  const seats = g.players.map((p) => p.seat);
  const me = playerById(g, auctioneer)?.seat ?? 0;
  const order = biddingOrder(seats, me);
  const seatOf = (id: PlayerId) => playerById(g, id)?.seat ?? 99;
  const won = new Set<string>();
  for (const id of units) {
    const u = s.units[id];
    if (!u) continue;
    const ok = sellable(s, id);
    const best = ok
      ? bids
          .filter(
            (b) =>
              b.auctioneer === auctioneer &&
              b.kind === u.kind &&
              b.bidder !== auctioneer &&
              !won.has(b.bidder) &&
              b.amount >= minimumBid(o, u.kind) &&
              (playerById(s, b.bidder)?.money ?? 0) >= b.amount &&
              playerById(s, b.bidder)?.cycle != null,
          )
          .sort(
            (a, b) =>
              b.amount - a.amount || order.indexOf(seatOf(a.bidder)) - order.indexOf(seatOf(b.bidder)),
          )[0]
      : undefined;
    s = removeUnits(s, [id]) as S;
    if (!best) {
      events.push({ type: 'realmUnitsRemoved', player: auctioneer, units: [id], reason: 'unsold' });
      continue;
    }
    won.add(best.bidder);
    const stage = playerById(s, best.bidder)!.cycle!.stage;
    s = updatePlayer(s, best.bidder, (p) => ({ ...p, money: p.money - best.amount })) as S;
    const [n, newUnit] = addUnit(s, best.bidder, auctionReplacement(u.kind, stage), u.area);
    s = n as S;
    events.push({
      type: 'unitAuctioned',
      auctioneer,
      unit: id,
      winner: best.bidder,
      bid: best.amount,
      newUnit,
    });
  }
  return { state: s, events };
}
