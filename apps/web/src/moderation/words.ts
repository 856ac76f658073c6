/** The audit log in words, for the admins reading it. */
import type { AuditEntry, ModerationActionName } from '@bke/protocol';

const VERB: Record<ModerationActionName, string> = {
  'world.pause': 'paused the world',
  'world.resume': 'resumed the world',
  'world.deadline': 'moved the deadline',
  'world.resolve': 'resolved the current step',
  'world.settings': 'changed the deadline settings',
  'world.close': 'closed the world',
  'world.rollback': 'rolled the world back',
  'seat.remove': 'removed a player',
  'seat.handOver': 'handed a seat over',
  'seat.absent': 'changed a seat’s absence',
  'user.ban': 'banned an account',
  'user.unban': 'lifted a ban',
  'user.mute': 'muted an account',
  'user.unmute': 'lifted a mute',
  'user.role': 'changed a role',
  'chat.delete': 'deleted a chat message',
  'report.resolve': 'closed a report',
};

/** One line per entry: "mod1 rolled the world back to turn 2 (3 orders undone)". */
export function describeAction(e: AuditEntry): string {
  const p = e.params;
  let detail = '';
  switch (e.action) {
    case 'world.rollback':
      detail = ` to turn ${String(p.turn)} (${Array.isArray(p.undone) ? p.undone.length : 0} orders undone)`;
      break;
    case 'seat.remove':
    case 'seat.absent':
      detail = ` (${String(p.playerId)}${e.action === 'seat.absent' ? (p.absent ? ': absent' : ': present') : ''})`;
      break;
    case 'seat.handOver':
      detail = ` (${String(p.playerId)}: ${String(p.fromUsername)} → ${String(p.toUsername)})`;
      break;
    case 'user.ban':
    case 'user.mute':
      detail = ` (${String(p.username)}${p.until ? ` until ${String(p.until)}` : ', until lifted'})`;
      break;
    case 'user.unban':
    case 'user.unmute':
      detail = ` (${String(p.username)})`;
      break;
    case 'user.role':
      detail = ` (${String(p.username)}: ${String(p.from)} → ${String(p.to)})`;
      break;
    case 'report.resolve':
      detail = ` (#${String(p.reportId)} ${String(p.status)})`;
      break;
    case 'world.deadline':
      if (p.deadlineAt) detail = ` to ${String(p.deadlineAt)}`;
      break;
    default:
      break;
  }
  return `${e.actor.username} ${VERB[e.action]}${detail}`;
}
