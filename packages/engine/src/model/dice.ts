/**
 * Dice on a game state: rigged dice (tests, scripted scenarios) are used first,
 * then the PRNG whose state lives in `state.rng`. Every roll returns the new state.
 */
import { rollDie as rngDie } from './rng.ts';
import type { GameStateCore } from './state.ts';

/** One die for a rule: a rigged die first (tests, scripted positions), else the PRNG in the state. */
export function rollDie<S extends GameStateCore>(state: S): { value: number; state: S } {
  const [rigged, ...rest] = state.riggedDice;
  if (rigged !== undefined) return { value: rigged, state: { ...state, riggedDice: rest } };
  const [value, rng] = rngDie(state.rng);
  return { value, state: { ...state, rng } };
}

/** Two dice for a rule (7.1, 10.6, 11.7): both faces, for the events, and their sum. */
export function roll2d6<S extends GameStateCore>(
  state: S,
): { dice: [number, number]; sum: number; state: S } {
  const a = rollDie(state);
  const b = rollDie(a.state);
  return { dice: [a.value, b.value], sum: a.value + b.value, state: b.state };
}
