/**
 * A floor under an answer's time, for routes whose work depends on something the answer must not
 * tell: "forgot password" writes a link and a mail for a verified address and nothing for an
 * unknown one (38 ms against 20 ms when measured, enough to tell accounts apart). Doing the same
 * writes on both paths would mean mail and links for nobody; instead the answer waits until the
 * floor, well above the work's time, so both paths answer at the floor.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Starts the clock at the request; `done()` resolves once `floorMs` have passed since. */
export function answerFloor(floorMs: number): { done(): Promise<void> } {
  const started = performance.now();
  return {
    async done() {
      const left = floorMs - (performance.now() - started);
      if (left > 0) await sleep(left);
    },
  };
}
