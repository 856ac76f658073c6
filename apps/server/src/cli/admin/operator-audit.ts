/**
 * An operator's change on the command line goes into the moderators' audit log, in the transaction
 * that makes it: the command line is the actor (no account did it), and the machine's user who ran
 * it is kept with the parameters.
 */
import { userInfo } from 'node:os';
import { type AuditActionName, COMMAND_LINE_ACTOR_ID, type OperatorActionName } from '@bke/protocol';
import type { Database } from '../../db/database.ts';
import { recordAction } from '../../moderation/audit.ts';

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? '?';
  }
}

export async function recordOperatorAction(
  tx: Database,
  action: OperatorActionName | Extract<AuditActionName, 'user.role'>,
  reason: string,
  target: { userId?: string | null; params?: Record<string, unknown> } = {},
): Promise<void> {
  await recordAction(tx, {
    actorId: COMMAND_LINE_ACTOR_ID,
    action,
    targetUserId: target.userId ?? null,
    reason,
    params: { ...target.params, osUser: osUser() },
  });
}
