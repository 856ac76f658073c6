/**
 * Barbarian peoples and start positions (4.2, 9 intro, B.4). A start position label names its
 * people: SLAV 1 and SLAV 2 are both Slav, GERMAN 1 and GERMAN 2 both German.
 */

// The labels are the map's vocabulary (@bke/map); the engine re-exports them rather than restating them.
// From the map's schema alone: the order schemas built on them travel to the client without the map.
import { START_POSITIONS, type StartPosition } from '@bke/map/schema';
import { z } from 'zod';

export { START_POSITIONS, type StartPosition };
export const startPositionSchema = z.enum(START_POSITIONS);

export const PEOPLES = [
  'SLAV',
  'GERMAN',
  'HUN',
  'TURK',
  'VIKING',
  'PICT',
  'ARAB',
  'AFRICAN',
  'PERSIAN',
] as const;
export type People = (typeof PEOPLES)[number];

/** 4.2, B.4: the people a start position belongs to. */
export const peopleOf = (position: StartPosition): People => {
  if (position === 'SLAV 1' || position === 'SLAV 2') return 'SLAV';
  if (position === 'GERMAN 1' || position === 'GERMAN 2') return 'GERMAN';
  return position;
};

/** 9.3.x kingdom countdown length in turns (B.4). */
export const COUNTDOWN_TURNS: Readonly<Record<People, number>> = {
  SLAV: 6,
  GERMAN: 6,
  PICT: 6,
  AFRICAN: 6,
  HUN: 8,
  VIKING: 8,
  TURK: 5,
  ARAB: 5,
  PERSIAN: 0,
};

export const STAGES = ['barbarian', 'kingdom', 'empire'] as const;
export type Stage = (typeof STAGES)[number];
