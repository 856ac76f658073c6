/** Moderation in words: the audit log for the admins reading it, and what a moderator just did. */
import type { AuditActionName, AuditEntry } from '@bke/protocol';
import { count } from '../lib/ui/count.ts';
import { localTime, untilWords } from '../lib/ui/time.ts';

const VERB: Record<AuditActionName, string> = {
  'world.pause': 'paused',
  'world.resume': 'resumed',
  'world.deadline': 'moved the deadline of',
  'world.resolve': 'resolved the current step of',
  'world.settings': 'changed the deadline settings of',
  'world.close': 'closed',
  'world.rollback': 'rolled back',
  'world.fromPosition': 'started from a position',
  'seat.remove': 'removed',
  'seat.handOver': 'handed over',
  'seat.absent': 'changed the absence of',
  'seat.allowRejoin': 'allowed back',
  'user.ban': 'banned',
  'user.unban': 'lifted the ban on',
  'user.mute': 'muted',
  'user.unmute': 'lifted the mute on',
  'user.role': 'changed the role of',
  'chat.delete': 'deleted a chat message',
  'report.resolve': 'closed a report',
  'user.create': 'created',
  'user.resetPassword': 'set a new password for',
  'user.endSessions': 'logged out',
  'mail.retry': 'sent failed mail again',
  'migration.resolve': 'marked a failed migration resolved',
};

const ROLE_WORDS: Record<string, string> = {
  player: 'a player',
  moderator: 'a moderator',
  admin: 'an admin',
};

const text = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** What was done, without who did it: "paused the world “Gaul”", "banned carol forever". */
function actionWords(e: AuditEntry): string {
  const p = e.params ?? {};
  const world = e.worldName ? `the world “${e.worldName}”` : 'the world';
  const who = text(p.username, e.targetUsername ?? 'an account');
  switch (e.action) {
    case 'world.pause':
    case 'world.resume':
    case 'world.close':
    case 'world.resolve':
    case 'world.settings':
      return `${VERB[e.action]} ${world}`;
    case 'world.deadline':
      return `moved the deadline of ${world}${typeof p.deadlineAt === 'string' ? ` to ${localTime(p.deadlineAt)}` : ''}`;
    case 'world.fromPosition':
      return `started ${world} from a position (turn ${String(p.turn)})`;
    case 'world.rollback': {
      const undone = Array.isArray(p.undone) ? p.undone.length : 0;
      return `rolled ${world} back to the start of turn ${String(p.turn)} (${count(undone, 'order')} undone)`;
    }
    case 'seat.remove':
      return `removed ${who} from ${world}${p.abandoned ? ' (their position was abandoned)' : ''}`;
    case 'seat.allowRejoin':
      return `allowed ${who} to join ${world} again`;
    case 'seat.absent':
      return `marked ${who}’s seat in ${world} ${p.absent ? 'absent' : 'present'}`;
    case 'seat.handOver':
      return `handed ${text(p.fromUsername, 'a player')}’s seat in ${world} to ${text(p.toUsername, 'another account')}`;
    case 'user.ban':
    case 'user.mute':
      return `${VERB[e.action]} ${who} ${untilWords(typeof p.until === 'string' ? p.until : null)}`;
    case 'user.unban':
    case 'user.unmute':
      return `${VERB[e.action]} ${who}`;
    case 'user.role':
      return `made ${who} ${ROLE_WORDS[String(p.to)] ?? String(p.to)} (was ${ROLE_WORDS[String(p.from)] ?? String(p.from)})`;
    case 'report.resolve':
      return `${p.status === 'dismissed' ? 'dismissed' : 'resolved'} a report`;
    case 'user.create':
      return `created ${who} as ${ROLE_WORDS[String(p.role)] ?? String(p.role)}`;
    case 'user.resetPassword':
      return `set a new password for ${who} (every session of theirs ended)`;
    case 'user.endSessions':
      return `logged ${who} out everywhere (${count(Number(p.sessions ?? 0), 'session')} ended)`;
    case 'mail.retry':
      return `put ${count(Array.isArray(p.ids) ? p.ids.length : 0, 'failed message')} back in the outbox`;
    case 'migration.resolve':
      return `marked the failed migration ${text(p.migration, '?')} ${p.as === 'applied' ? 'applied' : 'rolled back'}`;
    case 'chat.delete':
      return `deleted a chat message${e.worldName ? ` in ${world}` : ''}${e.targetUsername ? ` by ${e.targetUsername}` : ''}`;
  }
}

/** One line per entry: "mod1 rolled the world “Gaul” back to the start of turn 2 (3 orders undone)". */
export function describeAction(e: AuditEntry): string {
  return `${e.actor.username} ${actionWords(e)}`;
}

/** The moderator's own confirmation: "Done: paused the world “Gaul”." */
export function doneWords(e: AuditEntry): string {
  return `Done: ${actionWords(e)}.`;
}
