/**
 * The mail the account routes send: verification and reset links, and notices after a change of
 * password or address. Each message is queued in the outbox (in the caller's transaction when there
 * is one) and the sender is woken once it commits.
 */
import type { Database } from '../db/database.ts';
import { afterCommit } from '../db/transaction.ts';
import { localTime } from './local-time.ts';
import type { MailLimits } from './mail-limits.ts';
import { enqueueMail, type NewMail } from './outbox.ts';
import {
  addressInUseMail,
  emailChangedMail,
  passwordChangedMail,
  passwordResetMail,
  verifyEmailMail,
} from './templates.ts';
import { issueToken, TOKEN_TTL_MS } from './tokens.ts';

/** Addresses on the site, as links in mail show them (PUBLIC_URL). */
function siteLinks(publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    base,
    login: `${base}/#/login`,
    account: `${base}/#/account`,
    verify: (token: string) => `${base}/#/verify/${token}`,
    reset: (token: string) => `${base}/#/reset/${token}`,
    world: (id: string) => `${base}/#/world/${encodeURIComponent(id)}`,
    unsubscribe: (token: string) => `${base}/mail/unsubscribe?token=${encodeURIComponent(token)}`,
  };
}
export type SiteLinks = ReturnType<typeof siteLinks>;

export interface Mailer {
  links: SiteLinks;
  /** The site's link key (link-key.ts): signs the links this mailer sends, checks those that come back. */
  linkKey: Buffer;
  /**
   * Queues a message within the mail limits; the sender is woken after the transaction (if any)
   * commits. False when nothing was queued (sent before under its dedupe key, or past a limit).
   */
  queue(db: Database, mail: NewMail): Promise<boolean>;
  /**
   * A verification link to `email` for the account (a notice instead if another account holds it),
   * asked for from client address `requestedBy`.
   */
  sendVerification(
    db: Database,
    user: { id: string; username: string },
    email: string,
    requestedBy: string,
  ): Promise<void>;
  sendReset(
    db: Database,
    user: { id: string; username: string; email: string },
    requestedBy: string,
  ): Promise<void>;
  sendPasswordChanged(
    db: Database,
    user: { id: string; username: string; email: string | null; timeZone: string },
  ): Promise<void>;
  sendEmailChanged(
    db: Database,
    user: { id: string; username: string },
    old: string,
    next: string | null,
  ): Promise<void>;
}

export function makeMailer(publicUrl: string, wake: () => void, limits: MailLimits, linkKey: Buffer): Mailer {
  const links = siteLinks(publicUrl);
  const queue = async (db: Database, mail: NewMail) => {
    const added = await enqueueMail(db, mail, limits);
    if (added) afterCommit(db, wake);
    return added;
  };
  return {
    links,
    linkKey,
    queue,
    async sendVerification(db, user, email, requestedBy) {
      const holder = await db.prisma.user.findUnique({ where: { email }, select: { id: true } });
      // A link is issued either way: the account's links per hour count the request whichever mail
      // it becomes, and a link for an address another account holds cannot be used (it is taken).
      const token = await issueToken(db, linkKey, user.id, 'verify_email', email);
      if (holder && holder.id !== user.id) {
        // The answer on the page stays the same: whether an address has an account is not told.
        await queue(db, {
          userId: holder.id,
          kind: 'address_in_use',
          to: email,
          requestedBy,
          ...addressInUseMail({ url: links.login }),
        });
        return;
      }
      const hours = TOKEN_TTL_MS.verify_email / 3600_000;
      await queue(db, {
        userId: user.id,
        kind: 'verify_email',
        to: email,
        requestedBy,
        ...verifyEmailMail({ username: user.username, url: links.verify(token), hours }),
      });
    },
    async sendReset(db, user, requestedBy) {
      const token = await issueToken(db, linkKey, user.id, 'reset_password', user.email);
      const minutes = TOKEN_TTL_MS.reset_password / 60_000;
      await queue(db, {
        userId: user.id,
        kind: 'reset_password',
        to: user.email,
        requestedBy,
        ...passwordResetMail({ username: user.username, url: links.reset(token), minutes }),
      });
    },
    async sendPasswordChanged(db, user) {
      if (!user.email) return;
      await queue(db, {
        userId: user.id,
        kind: 'password_changed',
        to: user.email,
        ...passwordChangedMail({
          username: user.username,
          when: localTime(new Date(), user.timeZone),
          url: links.login,
        }),
      });
    },
    async sendEmailChanged(db, user, old, next) {
      await queue(db, {
        userId: user.id,
        kind: 'email_changed',
        to: old,
        ...emailChangedMail({ username: user.username, next }),
      });
    },
  };
}
