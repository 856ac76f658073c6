/**
 * After a cycle ends (14.3), what happened in words: the last combat that cost the player units
 * in the turn its cycle ended — where, against whom, at which odds, which result — what is kept
 * (the cycle's victory points, never lost, 14.3) and what comes next (a new start, 4.2; the newest
 * horde moves first, 4.1). Read from the world's event log the page already holds.
 */
import type { WorldEvent } from '@bke/protocol';
import { RESULT_WORDS } from '../words.ts';
import type { Names } from './history.ts';
import type { LoggedEvent } from './link.ts';

type Ev<T extends string> = Extract<WorldEvent, { type: T }>;

export interface LossStory {
  readonly turn: number;
  /** The log position of the cycle's end: where the replay opens when no combat caused it. */
  readonly seq: number;
  readonly reason: string;
  readonly vp: number;
  /** The combat that took the player's last units, if a combat did. */
  readonly combat: { readonly seq: number; readonly event: Ev<'combatResolved'> } | null;
}

/** The player's last ended cycle, with the combat of that turn in which the player last lost units. */
export function lastLoss(log: readonly LoggedEvent[], player: string): LossStory | null {
  let end = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!.event;
    if (e.type === 'cycleEnded' && e.player === player) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const ended = log[end]!;
  const e = ended.event as Ev<'cycleEnded'>;
  let combat: LossStory['combat'] = null;
  let lostHere = false;
  // Walk back through that turn: the player's losses come after the combat that caused them.
  for (let i = end - 1; i >= 0 && log[i]!.turn === ended.turn; i--) {
    const x = log[i]!.event;
    if (x.type === 'combatUnitsEliminated' && x.player === player) lostHere = true;
    if (x.type === 'combatRetreated' && x.player === player && x.eliminated) lostHere = true;
    if (x.type === 'combatResolved' && lostHere && (x.attacker === player || x.defender === player)) {
      combat = { seq: log[i]!.seq, event: x };
      break;
    }
  }
  return { turn: ended.turn, seq: ended.seq, reason: String(e.reason), vp: e.vp, combat };
}

const REASONS: Record<string, string> = {
  eliminated: 'Your horde has no units left, and a horde with no units has finished its cycle (rule 14.3).',
  collapsed: 'Your empire fell in a Complete Collapse: all its units were removed (rules 11.7, 14.3).',
  abandoned: 'You abandoned your position (rule 4.6).',
  left: 'You left the world.',
};

/** What happened, in sentences: the combat, then why the cycle ended. */
export function lossWords(story: LossStory, player: string, names: Names): string[] {
  const out: string[] = [];
  const c = story.combat?.event;
  if (c) {
    const result = RESULT_WORDS[String(c.result)] ?? String(c.result);
    const dice = c.dice ? `; the dice showed ${c.dice.join(' and ')}` : '';
    const odds = c.odds === 'autoAE' ? 'at odds too poor for the table' : `at ${c.odds}`;
    if (c.attacker === player) {
      const whom = c.defender ? names.player(c.defender) : 'the neutral garrison';
      out.push(
        `In turn ${story.turn} you attacked ${whom} in ${names.area(c.target)} ${odds}${dice}: ${result}.`,
      );
    } else {
      out.push(
        `In turn ${story.turn} ${names.player(c.attacker)} attacked you in ${names.area(c.target)} ${odds}${dice}: ${result}.`,
      );
    }
  }
  out.push(REASONS[story.reason] ?? `Your cycle ended in turn ${story.turn}.`);
  return out;
}
