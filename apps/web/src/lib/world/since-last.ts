/**
 * "Since you were last here" in words: each line of the server's summary as a sentence naming
 * players and areas as the History does, and the address of the replay at that moment.
 */
import type { SinceLast, SinceLastLine } from '@bke/protocol';
import type { Names } from './history.ts';

/** How a cycle ended, in words (14.1 abandonment, 12.3 collapse, elimination, leaving the world). */
const ENDED: Record<string, string> = {
  abandoned: 'abandoned its cycle',
  eliminated: 'was wiped out',
  collapsed: 'collapsed',
  left: 'left its cycle',
};

/** One line as a sentence, for the seat `me`. */
export function lineWords(l: SinceLastLine, me: string, n: Names): string {
  const who = (p: string | null) => (p === null ? 'a neutral garrison' : p === me ? 'you' : n.player(p));
  switch (l.kind) {
    case 'battle':
      return l.role === 'attacker'
        ? `You attacked ${who(l.against)} in ${n.area(l.area)} at ${l.odds}: ${l.result}.`
        : `${who(l.against)} attacked you in ${n.area(l.area)} at ${l.odds}: ${l.result}.`;
    case 'loss':
      return `You lost ${l.units === 1 ? 'a unit' : `${l.units} units`}${l.area ? ` in ${n.area(l.area)}` : ''}.`;
    case 'stage': {
      const subject = l.player === me ? 'You' : n.player(l.player);
      if (l.stage === 'barbarian') return `${subject} began a new cycle as barbarians.`;
      if (l.stage === 'kingdom') return `${subject} became a kingdom.`;
      if (l.stage === 'empire') return `${subject} became an empire.`;
      const how = ENDED[l.reason ?? ''] ?? 'ended its cycle';
      return `${subject} ${l.player === me ? how.replace('its', 'your') : how}.`;
    }
    case 'vp':
      return l.vp > 0
        ? `You won ${l.vp} VP (${l.total} in all).`
        : `You lost ${-l.vp} VP (${l.total} in all).`;
    case 'joined':
      return `${n.player(l.player)} joined the world.`;
    case 'left':
      return `${n.player(l.player)} left the world.`;
    case 'chat':
      return `${l.from ? n.player(l.from) : 'Someone'} wrote to you: “${l.body}”`;
  }
}

/** The summary's headline: how long the player was away and the VP balance. */
export function headline(s: SinceLast): string {
  const turns =
    s.turnsPassed === 0
      ? 'No game turn has passed'
      : `${s.turnsPassed} game turn${s.turnsPassed === 1 ? '' : 's'} passed (turn ${s.fromTurn} to turn ${s.toTurn})`;
  const vp = s.vpWon || s.vpLost ? `; you won ${s.vpWon} VP and lost ${s.vpLost}` : '';
  return `${turns} since you were last here${vp}.`;
}

/** Whether the summary has anything to tell. */
/**
 * Whether the summary goes on screen: something happened, and the player has left this world's page
 * since taking the seat. A seat never marked seen was taken on this page (a join, "Play now", a new
 * world) and the page marks it when it is left, so "since you were last here" would speak of turns
 * the player watched (docs/since-last.md).
 */
export const worthShowing = (s: SinceLast) =>
  s.fromVersion !== null && (s.turnsPassed > 0 || s.lines.length > 0);
