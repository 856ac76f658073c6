/**
 * The gentlest level: the simple policy (src/sim/policy.ts) with a newcomer's habits. It is slow
 * to move (now and then it ends its movement with units still standing, when ending costs
 * nothing), it pillages nothing, and it only gets the orders its guard leaves (guard.ts): it
 * attacks only at 3-1 or better, keeps its horde together, takes no voyage likely to sink, and
 * never risks its last units on poor odds.
 */
import type { Policy } from '../sim/policy.ts';
import { seededChooser, simplePolicy } from '../sim/policy.ts';
import { guardedEngine, NOVICE_GUARD } from './guard.ts';

export function novicePolicy(seed: string): Policy {
  const simple = simplePolicy(seed);
  const choose = seededChooser(`${seed}|novice`);
  return {
    choose(engine, state, player) {
      const seen = guardedEngine(engine, NOVICE_GUARD);
      const step = state.step;
      if (step.kind === 'playerTurn' && step.phase === 'movement' && step.moved.length > 0) {
        const end = seen.legalOrders(state, player).find((o) => o.type === 'endPhase');
        // Hesitation: one time in two it stops moving, if stopping loses nothing (6, 9.2, 9.3.4).
        if (end && !end.onlyLoses && !(end.consequences ?? []).length && choose(2) === 0)
          return { type: 'endPhase' };
      }
      const order = simple.choose(seen, state, player);
      if (order?.type === 'pillage') return { type: 'endPhase' };
      return order;
    },
  };
}
