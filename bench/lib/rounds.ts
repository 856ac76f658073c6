/** Rounds of a measured pair: the bare baseline (A) and the server under test (B), interleaved. */
import { interleaving } from './stats.ts';

export interface Paired<T> {
  A: T[];
  B: T[];
}

/** Runs a warm-up round (discarded), then `rounds` rounds in the order A B, B A, A B, … */
export async function interleaved<T>(
  rounds: number,
  sides: { A: () => Promise<T>; B: () => Promise<T> },
): Promise<Paired<T>> {
  const out: Paired<T> = { A: [], B: [] };
  for (const round of interleaving(rounds)) {
    for (const side of round.order) {
      const r = await sides[side]();
      if (!round.warmUp) out[side].push(r);
    }
  }
  return out;
}
