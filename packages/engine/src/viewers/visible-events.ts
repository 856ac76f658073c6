/**
 * Which events a viewer may see. The log of an order's events is written once, for everyone; what
 * each viewer receives of it is this filter's answer. Almost every fact is open (2.4: bookkeeping
 * is open, and what happens on the board is seen by all). The exceptions are the 13.4 dealings
 * between a barbarian and a would-be hirer before the lease is in force: an offer, its acceptance,
 * its withdrawal and its lapse are known to the two parties alone, as the view shows the lease to
 * them alone until it runs. Standing bids (13.3) and economic plans (4.5) make no event: they stay
 * in their maker's part of the view.
 */
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';

/** The players who alone may see this event, or null when it is open to every viewer. */
function eventAudience(e: GameEvent): readonly PlayerId[] | null {
  switch (e.type) {
    case 'leaseOffered':
    case 'leaseAccepted':
    case 'leaseLapsed':
      return [e.owner, e.hirer];
    case 'leaseEnded':
      // Ending a running lease is public (its end shows on the board); withdrawing an offer is not.
      return e.atTurnStart ? null : [e.owner, e.hirer];
    default:
      return null;
  }
}

/** May `viewer` (a player, or null for a spectator) see this event? */
function eventSeenBy(e: GameEvent, viewer: PlayerId | null): boolean {
  const audience = eventAudience(e);
  return audience === null || (viewer !== null && audience.includes(viewer));
}

/**
 * The events of one order as `viewer` receives them, in order. The same array when nothing is
 * hidden from the viewer (the common case costs no copy).
 */
export function eventsFor<E extends GameEvent>(events: readonly E[], viewer: PlayerId | null): readonly E[] {
  return events.every((e) => eventSeenBy(e, viewer)) ? events : events.filter((e) => eventSeenBy(e, viewer));
}
