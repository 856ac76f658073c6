/**
 * "Your move" by e-mail: the message for one player and one world's step, the reminder before the
 * deadline, and the daily digest. Each goes through the outbox with a dedupe key per account, so one
 * world and step yields at most one message of each kind per player, however many processes saw it.
 */
import type { GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { localTime } from '../mail/local-time.ts';
import type { Mailer } from '../mail/mailer.ts';
import { digestMail, reminderMail, type WaitingWorld, yourMoveMail } from '../mail/templates.ts';
import { stepText } from './step-words.ts';

/** What the claims return about a player who may be mailed. */
export interface MailRecipient {
  user_id: string;
  username: string;
  email: string | null;
  notify_mode: string;
  time_zone: string;
  unsubscribe_token: string;
}

/** The SQL columns that fill a MailRecipient (the users table as `u`). */
export const RECIPIENT_COLUMNS =
  'u.id::text AS user_id, u.username, u.email, u.notify_mode, u.time_zone, u.unsubscribe_token';

export function waitingWorld(
  mailer: Mailer,
  world: { id: string; name: string },
  state: GameState,
  deadlineAt: Date | null,
  timeZone: string,
): WaitingWorld {
  return {
    name: world.name,
    turn: state.turn,
    step: stepText(state.step),
    deadline: deadlineAt ? localTime(deadlineAt, timeZone) : null,
    url: mailer.links.world(world.id),
  };
}

const footerLinks = (mailer: Mailer, r: MailRecipient) => ({
  settingsUrl: mailer.links.account,
  unsubscribeUrl: mailer.links.unsubscribe(r.unsubscribe_token),
});

/** Queues "your move" for one player; false when it was queued before (another process) or is not wanted. */
export async function queueMoveMail(
  db: Database,
  mailer: Mailer,
  r: MailRecipient,
  world: { id: string; name: string },
  stepKey: string,
  state: GameState,
  deadlineAt: Date | null,
): Promise<boolean> {
  if (!r.email || r.notify_mode !== 'each') return false;
  const m = yourMoveMail({
    username: r.username,
    world: waitingWorld(mailer, world, state, deadlineAt, r.time_zone),
    ...footerLinks(mailer, r),
  });
  return mailer.queue(db, {
    ...m,
    userId: r.user_id,
    kind: 'move',
    to: r.email,
    unsubscribeUrl: footerLinks(mailer, r).unsubscribeUrl,
    dedupeKey: `move:${world.id}:${stepKey}`,
  });
}

/** Queues the reminder before a deadline (players who chose "each" or the digest). */
export async function queueReminderMail(
  db: Database,
  mailer: Mailer,
  r: MailRecipient,
  world: { id: string; name: string },
  stepKey: string,
  state: GameState,
  deadlineAt: Date,
  left: string,
): Promise<boolean> {
  if (!r.email || r.notify_mode === 'none') return false;
  const m = reminderMail({
    username: r.username,
    world: waitingWorld(mailer, world, state, deadlineAt, r.time_zone),
    left,
    ...footerLinks(mailer, r),
  });
  return mailer.queue(db, {
    ...m,
    userId: r.user_id,
    kind: 'reminder',
    to: r.email,
    unsubscribeUrl: footerLinks(mailer, r).unsubscribeUrl,
    dedupeKey: `remind:${world.id}:${stepKey}`,
  });
}

/** Queues a player's digest for `day` (their calendar day); at most one per day. */
export async function queueDigestMail(
  db: Database,
  mailer: Mailer,
  r: MailRecipient,
  day: string,
  worlds: WaitingWorld[],
): Promise<boolean> {
  if (!r.email || worlds.length === 0) return false;
  const m = digestMail({ username: r.username, day, worlds, ...footerLinks(mailer, r) });
  return mailer.queue(db, {
    ...m,
    userId: r.user_id,
    kind: 'digest',
    to: r.email,
    unsubscribeUrl: footerLinks(mailer, r).unsubscribeUrl,
    dedupeKey: `digest:${day}`,
  });
}
