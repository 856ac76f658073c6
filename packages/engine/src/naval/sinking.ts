/**
 * 5.3 Ships sinking, 8.1 retreat after interception, 8.3 retreat across a sea (D-8, D-24).
 */
import type { People, Stage } from '../model/people.ts';

/** 5.3 / AMBIG-26: Viking ships add +1 to sinking rolls as barbarians and kingdoms, not as empires. */
export function sinkingModifier(people: People, stage: Stage, navalLeaderAboard = false): number {
  return (people === 'VIKING' && stage !== 'empire' ? 1 : 0) + (navalLeaderAboard ? 1 : 0);
}

/**
 * 5.3 (D-24): does a ship that entered `seaAreas` sea areas this turn sink on this die? No roll
 * at all (null) if it entered none (coast only, red arrows).
 */
export function sinksAfterMove(seaAreas: number, die: number, modifier = 0): boolean | null {
  if (seaAreas <= 0) return null;
  return die + modifier <= seaAreas;
}

/** 8.1 (D-8): a moving ship sent back by ARn must roll higher than n, or sink with its cargo. */
export function sinksAfterInterceptionRetreat(n: number, die: number, modifier = 0): boolean {
  return die + modifier <= n;
}

/** 8.3: a ship retreating across one sea area sinks on a 1. */
export function sinksRetreatingAcrossSea(die: number, modifier = 0): boolean {
  return die + modifier <= 1;
}
