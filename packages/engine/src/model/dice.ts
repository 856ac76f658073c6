/**
 * Dice on a game state (STYLE habit 2): rigged dice (tests, scripted scenarios) are used first,
 * then the PRNG whose state lives in `state.rng`. Every roll returns the new state.
 */
import { rollDie as rngDie } from './rng.ts';
import type { GameStateCore } from './state.ts';

export function rollDie<S extends GameStateCore>(state: S): { value: number; state: S } {
  const [rigged, ...rest] = state.riggedDice;
  if (rigged !== undefined) return { value: rigged, state: { ...state, riggedDice: rest } };
  const [value, rng] = rngDie(state.rng);
  return { value, state: { ...state, rng } };
}

export function roll2d6<S extends GameStateCore>(
  state: S,
): { dice: [number, number]; sum: number; state: S } {
  const a = rollDie(state);
  const b = rollDie(a.state);
  return { dice: [a.value, b.value], sum: a.value + b.value, state: b.state };
}
