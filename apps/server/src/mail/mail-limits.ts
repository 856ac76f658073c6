/**
 * How much mail one mailbox and one client address may be sent, counted in the outbox itself: the
 * count and the new row are one transaction, and the mailbox's (and the client address's) advisory
 * lock is held until it commits, so two requests at once, on one process or several, cannot both
 * pass the last free place. Mail past a limit is not queued and the request is answered as usual:
 * whoever floods an address learns nothing and reaches it no further.
 *
 * The classes are counted apart so one cannot crowd out another: links (verification, "address in
 * use", reset) are what strangers can ask for; notices (password or address changed) follow an
 * action the account's own password allowed, and must still arrive when the address was flooded
 * with links; turn mail ("your move", reminders, digests) goes only to an address its owner confirmed.
 */
import type { Database } from '../db/database.ts';

/** What a mail is; the limits count each kind in its class (`CLASS_OF`). */
export type MailKind =
  | 'verify_email'
  | 'address_in_use'
  | 'email_changed'
  | 'reset_password'
  | 'password_changed'
  | 'move'
  | 'reminder'
  | 'digest';

export interface MailLimits {
  /** Links to one mailbox per hour and per day, whoever asks. */
  linksPerHour: number;
  linksPerDay: number;
  /**
   * Verification links to one mailbox per week. A verification link only goes to an address no
   * account has confirmed, so this is how few mails a stranger's address gets from sign-ups that
   * name it, however many accounts and client addresses ask.
   */
  verifyPerWeek: number;
  /** Notices to one mailbox per hour. */
  noticesPerHour: number;
  /** Turn mail to one mailbox per hour (each is also at most once per world and step). */
  turnsPerHour: number;
  /** Links asked for by one client address per hour (sign-ups naming an address, changes of address, resets). */
  perClientAddressPerHour: number;
}

const CLASS_OF: Record<MailKind, 'links' | 'notices' | 'turns'> = {
  verify_email: 'links',
  address_in_use: 'links',
  reset_password: 'links',
  password_changed: 'notices',
  email_changed: 'notices',
  move: 'turns',
  reminder: 'turns',
  digest: 'turns',
};
const KINDS = (c: 'links' | 'notices' | 'turns') =>
  (Object.keys(CLASS_OF) as MailKind[]).filter((k) => CLASS_OF[k] === c);

/**
 * The mailbox an address reaches, as the limits count it: case folded, and a `+tag` in the local
 * part dropped (most providers deliver `name+anything@` to `name@`). The migration that added the
 * column fills it the same way for mail queued before.
 */
export function recipientKey(address: string): string {
  return address
    .trim()
    .toLowerCase()
    .replace(/\+[^@]*@/, '@');
}

/**
 * Whether one more `kind` of mail to `key`, caused by `requestedBy`, is within the limits. Must run
 * in the transaction that queues it: it takes the locks the count relies on.
 */
export async function withinMailLimits(
  tx: Database,
  limits: MailLimits,
  mail: { kind: MailKind; key: string; requestedBy: string | null },
): Promise<boolean> {
  const locks = [
    `mail-to:${mail.key}`,
    ...(mail.requestedBy ? [`mail-from:${mail.requestedBy}`] : []),
  ].sort();
  for (const lock of locks)
    await tx.sql('SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]);
  const [c] = await tx.sql<{
    links_hour: number;
    links_day: number;
    verify_week: number;
    notices_hour: number;
    turns_hour: number;
    client_hour: number;
  }>(
    `SELECT
       count(*) FILTER (WHERE recipient_key = $1 AND kind = ANY($3::text[]) AND created_at > now() - interval '1 hour')::int AS links_hour,
       count(*) FILTER (WHERE recipient_key = $1 AND kind = ANY($3::text[]) AND created_at > now() - interval '1 day')::int AS links_day,
       count(*) FILTER (WHERE recipient_key = $1 AND kind = 'verify_email')::int AS verify_week,
       count(*) FILTER (WHERE recipient_key = $1 AND kind = ANY($4::text[]) AND created_at > now() - interval '1 hour')::int AS notices_hour,
       count(*) FILTER (WHERE recipient_key = $1 AND kind = ANY($5::text[]) AND created_at > now() - interval '1 hour')::int AS turns_hour,
       count(*) FILTER (WHERE requested_by = $2 AND kind = ANY($3::text[]) AND created_at > now() - interval '1 hour')::int AS client_hour
     FROM mail_outbox
     WHERE (recipient_key = $1 OR requested_by = $2) AND created_at > now() - interval '7 days'`,
    [mail.key, mail.requestedBy, KINDS('links'), KINDS('notices'), KINDS('turns')],
  );
  if (!c) return true;
  switch (CLASS_OF[mail.kind]) {
    case 'links':
      if (mail.requestedBy && c.client_hour >= limits.perClientAddressPerHour) return false;
      if (mail.kind === 'verify_email' && c.verify_week >= limits.verifyPerWeek) return false;
      return c.links_hour < limits.linksPerHour && c.links_day < limits.linksPerDay;
    case 'notices':
      return c.notices_hour < limits.noticesPerHour;
    case 'turns':
      return c.turns_hour < limits.turnsPerHour;
  }
}
