/**
 * 9.3.x Kingdom countdown: it starts in the first administration phase in which a barbarian has
 * ten or more units of any kind, can never be undone, and ends N turns later (B.4: 6, Hun and
 * Viking 8, Turk and Arab 5) in the administration phase where the barbarian becomes a kingdom.
 */
import { COUNTDOWN_TURNS, type People } from '../model/people.ts';

const COUNTDOWN_UNITS = 10;

/** D-4: the turn whose administration phase converts a countdown started on `start`. */
export const kingdomTurn = (people: People, start: number): number => start + COUNTDOWN_TURNS[people];

/** 9.3.x: does the countdown start now? */
export const countdownStarts = (started: number | null, units: number): boolean =>
  started === null && units >= COUNTDOWN_UNITS;

/** 9.3.x: does the countdown end in this turn's administration phase? */
export const countdownEnds = (people: People, started: number | null, turn: number): boolean =>
  started !== null && turn >= kingdomTurn(people, started);
