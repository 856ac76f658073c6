/**
 * 13.3 Auctioning units (opt.auction, AMBIG-22): an empire that cannot pay upkeep auctions the
 * unpayable units one at a time; other players bid in seat order from the auctioneer's left;
 * the winning bid leaves the winner's treasury and goes to nobody; the winner takes the unit in
 * its own colour, as the kind of its own stage that would have become the auctioned one (D-21).
 */

import { upkeepOf } from '../kingdom/upkeep.ts';
import type { Options } from '../options.ts';
import type { Stage } from '../people.ts';
import type { UnitKind } from '../units.ts';

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
export function auctionable(unitArea: string, capital: string | null, unitsLeft: number): boolean {
  return unitArea !== capital || unitsLeft <= 1;
}

/** 13.3: the money after a winning bid: the winner pays, the auctioneer receives nothing. */
export function settleAuction(
  winnerTreasury: number,
  bid: number,
): { winner: number; auctioneerGets: 0 } | null {
  return bid <= winnerTreasury ? { winner: winnerTreasury - bid, auctioneerGets: 0 } : null;
}
