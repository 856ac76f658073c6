/**
 * The sim's naval choices (5.2, 8.2, 8.4, AMBIG-15): now and then a ship sails, picking up a unit on
 * its way when it can; a landing is made when one is offered (sometimes); an owed landing attacks
 * with the best odds offered; a lone ship beaten in combat is usually captured. Seeded by the
 * caller's chooser, never the game's dice.
 */
import type { Engine } from '../engine.ts';
import { columnRatio } from '../model/column-ratio.ts';
import type { PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import type { Chooser } from '../turn/concrete-orders.ts';

type ShipMoveLegal = Extract<LegalOrder, { type: 'shipMove' }>;

/** A naval order for the player now, or null to let the rest of the policy decide. */
export function navalChoice(
  engine: Engine,
  state: GameState,
  player: PlayerId,
  legal: readonly LegalOrder[],
  choose: Chooser,
): Order | null {
  const step = state.step;
  if (step.kind !== 'playerTurn') return null;
  if (step.phase === 'movement') {
    const moves = legal.filter((o): o is ShipMoveLegal => o.type === 'shipMove');
    if (moves.length === 0) return null;
    const landings = moves.filter((o) => o.landing === true && o.cargo.length > 0);
    if (landings.length && choose(2) === 0)
      return concrete(
        landings[choose(landings.length)]!,
        choose,
        (x) => engine.applyOrder(state, player, x).ok,
      );
    if (choose(4) !== 0) return null;
    const plain = moves.filter((o) => o.landing !== true);
    const pick = plain[choose(plain.length)];
    return pick ? concrete(pick, choose, (x) => engine.applyOrder(state, player, x).ok) : null;
  }
  if (step.phase !== 'combat') return null;
  const capture = legal.find((o) => o.type === 'combatCapture');
  if (capture) return { type: 'combatCapture', capture: choose(4) !== 0 };
  for (const o of legal) {
    if (o.type !== 'combatAttack' || o.landing !== true) continue;
    const best = [...o.choices].sort((a, b) => columnRatio(b.odds) - columnRatio(a.odds))[0];
    if (best) return { type: 'combatAttack', target: o.target, attackers: best.attackers };
  }
  return null;
}

/** The order of a listed ship move; with an empty hold it sometimes picks up a unit on the way. */
function concrete(o: ShipMoveLegal, choose: Chooser, legal: (x: Order) => boolean): Order {
  const base = { type: 'shipMove' as const, ship: o.ship, path: o.path, cargo: o.cargo };
  const pickup = o.pickups?.[choose(o.pickups.length)];
  const unit = pickup?.units[choose(pickup.units.length)];
  if (!pickup || !unit || o.cargo.length > 0 || o.landing || choose(2) === 0) return base;
  const withStop: Order = { ...base, stops: [{ at: pickup.at, load: [unit], unload: [] }] };
  return legal(withStop) ? withStop : base;
}
