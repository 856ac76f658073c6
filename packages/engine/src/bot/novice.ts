/**
 * The gentlest level: the simple policy (src/sim/policy.ts) with a newcomer's habits. It is slow
 * to move (now and then it ends its movement with units still standing, when ending costs
 * nothing), it attacks only at 3-1 or better, it pillages nothing, and it only gets orders that
 * are not absurd (guard.ts): it keeps
 * its horde together, takes no voyage likely to sink, and never risks its last units on poor odds.
 */
import type { Engine } from '../engine.ts';
import { columnRatio } from '../model/column-ratio.ts';
import type { Policy } from '../sim/policy.ts';
import { seededChooser, simplePolicy } from '../sim/policy.ts';
import { guardedEngine, NOVICE_GUARD } from './guard.ts';

/** A newcomer's caution (7.1): no attack below 3-1, where the simple policy goes in at 2-1. */
const SAFE_ODDS = 3;

/** The guarded engine, with attacks below safe odds taken out (a naval landing's is owed, 8.2). */
function timidEngine(engine: Engine): Engine {
  const guarded = guardedEngine(engine, NOVICE_GUARD);
  return {
    ...guarded,
    legalOrders: (state, player) =>
      guarded.legalOrders(state, player).flatMap((o) => {
        if (o.type !== 'combatAttack' || o.landing) return [o];
        const choices = o.choices.filter((c) => columnRatio(c.odds) >= SAFE_ODDS);
        return choices.length ? [{ ...o, choices }] : [];
      }),
  };
}

export function novicePolicy(seed: string): Policy {
  const simple = simplePolicy(seed);
  const choose = seededChooser(`${seed}|novice`);
  return {
    choose(engine, state, player) {
      const seen = timidEngine(engine);
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
