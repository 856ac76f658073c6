/**
 * The sim policy's use of the optional diplomacy rules, so that simulations and the fuzzer exercise
 * them: at the start of its own movement phase a barbarian sometimes offers its combat units to a
 * kingdom or empire (13.4), a hirer accepts an offer now and then and ends a lease after a while,
 * a captor asks a ransom or executes an old prisoner, and an owner pays a ransom it can afford
 * (13.6). Each choice changes the state so that it is not offered again the same way (no loops).
 */
import { prisonersOf } from '../diplomacy/leader-capture.ts';
import { leasesOf } from '../diplomacy/mercenaries.ts';
import type { PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import type { Chooser } from '../turn/concrete-orders.ts';

type Of<T extends LegalOrder['type']> = Extract<LegalOrder, { type: T }>;

export function diplomacyChoice(
  state: GameState,
  player: PlayerId,
  legal: readonly LegalOrder[],
  choose: Chooser,
): Order | null {
  const s = state.step;
  if (s.kind !== 'playerTurn' || s.player !== player || s.phase !== 'movement' || s.moved.length) return null;
  const of = <T extends LegalOrder['type']>(t: T) => legal.filter((o) => o.type === t) as Of<T>[];
  // 13.6: a ransom the owner can pay is paid; a captor asks one, or executes an old prisoner.
  const pay = of('realmRansomAccept')[0];
  if (pay && choose(2) === 0) return pay;
  for (const p of prisonersOf(state)) {
    if (p.captor !== player) continue;
    if (state.turn - p.turn >= 4 && choose(3) === 0) return { type: 'realmExecute', leader: p.leader };
    if (p.ransom === undefined) {
      const asks = of('realmRansomOffer').filter((o) => o.leader === p.leader);
      const ask = asks[choose(asks.length)];
      if (ask) return ask;
    }
  }
  // 13.4: offers, acceptances and ends of leases.
  const accept = of('realmLeaseAccept')[0];
  if (accept && choose(2) === 0) return accept;
  const mine = leasesOf(state).filter((l) => l.owner === player || l.hirer === player);
  const old = mine.find((l) => l.status === 'active' && state.turn - l.turn >= 3);
  if (old && choose(3) === 0)
    return { type: 'realmLeaseEnd', with: old.owner === player ? old.hirer : old.owner };
  if (mine.length === 0 && choose(6) === 0) {
    const offers = of('realmLeaseOffer');
    const offer = offers[choose(offers.length)];
    if (offer) return offer;
  }
  return null;
}
