/**
 * A policy for games that must show their secrets soon: the sim's policy, plus mercenary lease
 * offers (13.4) made whenever one can be, half of them accepted, and bids (13.3) made.
 */
import { type Engine, type GameState, type PlayerId, type Policy, simplePolicy } from '@bke/engine';

/** The sim's policy, plus the diplomacy a short game needs to show its secrets: offers, acceptances. */
export function chooser(
  engine: Engine,
  seed = 'hidden-information',
): (state: GameState, player: PlayerId) => unknown {
  const policy: Policy = simplePolicy(seed);
  return (state, player) => {
    const legal = engine.legalOrders(state, player);
    const leases = (state.realm?.leases ?? []).filter((l) => l.owner === player || l.hirer === player);
    const offer = legal.find((o) => o.type === 'realmLeaseOffer');
    if (offer && leases.length === 0) return offer;
    const accept = legal.find((o) => o.type === 'realmLeaseAccept');
    // Every other offer is accepted; the rest stay offered (a secret that lasts).
    if (accept && state.turn % 2 === 0) return accept;
    const bid = legal.find((o) => o.type === 'realmBid');
    if (bid) return bid;
    return policy.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0];
  };
}
