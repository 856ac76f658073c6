/**
 * After every order has settled, the optional diplomacy's own bookkeeping: 13.4 leases take effect
 * or end at the start of a game turn, and lapse when a party no longer qualifies; 13.6 leaders
 * meeting unfriendly units are captured, prisoners follow their holders and go free when the
 * holder dies at their side's hands.
 */

import type { RealmEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { GameStateCore } from '../model/state.ts';
import { settlePrisoners } from './leader-capture.ts';
import { leasesAtTurnStart, settleLeases } from './mercenaries.ts';

/** 13.4, 13.6: the optional diplomacy's bookkeeping after an order has settled. */
export function settleDiplomacy<S extends GameStateCore>(
  before: GameStateCore,
  after: S,
  events: readonly { type: string }[],
  phasing: PlayerId | null,
): { state: S; events: RealmEvent[] } {
  const { mercenaries, optionalLeaders } = after.options.opt;
  if (!mercenaries && !optionalLeaders) return { state: after, events: [] };
  const out: RealmEvent[] = [];
  let s = after;
  if (mercenaries) {
    const l = settleLeases(s);
    s = l.state;
    out.push(...l.events);
    if (after.turn !== before.turn) {
      const t = leasesAtTurnStart(s);
      s = t.state;
      out.push(...t.events);
    }
  }
  if (optionalLeaders) {
    const p = settlePrisoners(s, [...events, ...out], phasing);
    s = p.state;
    out.push(...p.events);
  }
  return { state: s, events: out };
}
