/**
 * The middle level: the strong strategy (strong.ts), except that in the movement phase it takes the
 * simple policy's obvious move two times in three instead of weighing the best one: it has a plan
 * but loses tempo and concentration. It gets the same guarded orders as every level (guard.ts).
 */
import type { Policy } from '../sim/policy.ts';
import { seededChooser, simplePolicy } from '../sim/policy.ts';
import type { Clock } from './clock.ts';
import { type Guard, guardedEngine } from './guard.ts';
import { strongPolicy } from './strong.ts';

export function normalPolicy(seed: string, guard: Guard, clock?: () => Clock): Policy {
  const strong = strongPolicy(seed, clock);
  const simple = simplePolicy(`${seed}|obvious`);
  const choose = seededChooser(`${seed}|normal`);
  return {
    aside: strong.aside,
    choose(engine, state, player) {
      const step = state.step;
      if (step.kind === 'playerTurn' && step.phase === 'movement' && choose(3) !== 0) {
        const obvious = simple.choose(guardedEngine(engine, guard), state, player);
        if (obvious?.type === 'move') return obvious;
      }
      return strong.choose(engine, state, player);
    },
  };
}
