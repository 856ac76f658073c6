/**
 * "Your move" by e-mail: the message for one player and one world's step, the reminder before the
 * deadline, and the daily digest. Each goes through the outbox with a dedupe key per account, so one
 * world and step yields at most one message of each kind per player, however many processes saw it.
 */
import type { GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { localTime } from '../mail/local-time.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  digestMail,
  type Rendered,
  reminderMail,
  type WaitingWorld,
  yourMoveMail,
} from '../mail/templates.ts';
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

/** The links every turn mail ends with: the account's settings and a one-click unsubscribe. */
interface FooterLinks {
  settingsUrl: string;
  unsubscribeUrl: string;
}

/**
 * Queues one turn mail for `r`: `render` builds it from the footer links, the outbox keeps it at most
 * once per `dedupeKey` and account. False when it was queued before (another process saw it too).
 */
function queueTurnMail(
  db: Database,
  mailer: Mailer,
  r: MailRecipient & { email: string },
  kind: 'move' | 'reminder' | 'digest',
  dedupeKey: string,
  render: (links: FooterLinks) => Rendered,
): Promise<boolean> {
  const links = {
    settingsUrl: mailer.links.account,
    unsubscribeUrl: mailer.links.unsubscribe(r.unsubscribe_token),
  };
  return mailer.queue(db, {
    ...render(links),
    userId: r.user_id,
    kind,
    to: r.email,
    unsubscribeUrl: links.unsubscribeUrl,
    dedupeKey,
  });
}

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
  const waiting = waitingWorld(mailer, world, state, deadlineAt, r.time_zone);
  return queueTurnMail(db, mailer, { ...r, email: r.email }, 'move', `move:${world.id}:${stepKey}`, (links) =>
    yourMoveMail({ username: r.username, world: waiting, ...links }),
  );
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
  const waiting = waitingWorld(mailer, world, state, deadlineAt, r.time_zone);
  return queueTurnMail(
    db,
    mailer,
    { ...r, email: r.email },
    'reminder',
    `remind:${world.id}:${stepKey}`,
    (links) => reminderMail({ username: r.username, world: waiting, left, ...links }),
  );
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
  return queueTurnMail(db, mailer, { ...r, email: r.email }, 'digest', `digest:${day}`, (links) =>
    digestMail({ username: r.username, day, worlds, ...links }),
  );
}
