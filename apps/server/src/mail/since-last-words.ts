/**
 * A world's "since you were last here" summary (worlds/since-last.ts) in one sentence for mail: the
 * turns that passed and what each kind of line adds up to. The mail names no place and no other
 * player's private line: the full summary, each line linked to its replay, is on the world's page.
 */
import type { SinceLast } from '@bke/protocol';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The summary in words, or null when nothing happened since the last visit. */
export function sinceLastInWords(s: SinceLast): string | null {
  const n = (kind: SinceLast['lines'][number]['kind']) => s.lines.filter((l) => l.kind === kind).length;
  const parts: string[] = [];
  if (s.turnsPassed > 0) parts.push(count(s.turnsPassed, 'game turn passed', 'game turns passed'));
  if (n('battle')) parts.push(count(n('battle'), 'battle of yours', 'battles of yours'));
  const lost = s.lines.reduce((a, l) => a + (l.kind === 'loss' ? l.units : 0), 0);
  if (lost) parts.push(count(lost, 'unit lost', 'units lost'));
  if (n('stage')) parts.push(count(n('stage'), 'change of stage', 'changes of stage'));
  if (s.vpWon || s.vpLost) parts.push(`${s.vpWon} VP won, ${s.vpLost} lost`);
  const seats = n('joined') + n('left');
  if (seats) parts.push(count(seats, 'player joined or left', 'players joined or left'));
  if (n('chat')) parts.push(count(n('chat'), 'message to you', 'messages to you'));
  return parts.length ? `since your last visit: ${parts.join(', ')}` : null;
}
