/**
 * The outbox: mail is written to `mail_outbox` (in the same transaction as whatever caused it, when
 * there is one) and a sender in every server process sends it in the background — never inside a
 * request's or a world's queue, since a mail server may be slow or away.
 *
 * A sender claims due rows with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so two
 * processes never take the same row; a process that dies while holding one lets the lease run out
 * and another takes the row over. A refusal or a broken connection puts the row back with an
 * exponential backoff; after the last attempt it is kept, marked failed, with the error. What must
 * go out at most once per account (one "your move" per world and step, one digest a day) carries a
 * dedupe key, unique per account: a second insert with it does nothing.
 */
import type { Database } from '../db/database.ts';
import { failingLoop, tickOf } from '../db/failing-loop.ts';
import { inTransaction } from '../db/transaction.ts';
import { type MailKind, type MailLimits, recipientKey, withinMailLimits } from './mail-limits.ts';
import type { Rendered } from './templates.ts';
import type { MailTransport } from './transport.ts';

export interface NewMail extends Rendered {
  userId: string | null;
  kind: MailKind;
  to: string;
  unsubscribeUrl?: string | null;
  /** At most one mail with this key per account, ever. */
  dedupeKey?: string | null;
  /** The client address whose request asks for this mail (counted by the limits per client address). */
  requestedBy?: string | null;
}

/**
 * Queues a message within the mail limits (mail-limits.ts), in the caller's transaction when there
 * is one; false when nothing is added: one with its dedupe key was queued before, or a limit is reached.
 */
export async function enqueueMail(db: Database, mail: NewMail, limits: MailLimits): Promise<boolean> {
  const key = recipientKey(mail.to);
  return inTransaction(db, async (tx) => {
    if (
      !(await withinMailLimits(tx, limits, { kind: mail.kind, key, requestedBy: mail.requestedBy ?? null }))
    )
      return false;
    const rows = await tx.sql<{ id: string }>(
      `INSERT INTO mail_outbox (user_id, dedupe_key, kind, to_address, recipient_key, requested_by, subject, text, html, unsubscribe_url)
       VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (user_id, dedupe_key) DO NOTHING
       RETURNING id::text AS id`,
      [
        mail.userId,
        mail.dedupeKey ?? null,
        mail.kind,
        mail.to,
        key,
        mail.requestedBy ?? null,
        mail.subject,
        mail.text,
        mail.html,
        mail.unsubscribeUrl ?? null,
      ],
    );
    return rows.length > 0;
  });
}

export interface SenderOptions {
  /** The first retry waits this long; each further one twice as long (up to six hours). */
  retryBaseMs?: number;
  /** Attempts before a message is given up (kept in the table, marked failed). */
  maxAttempts?: number;
  /** How long a claim holds before another process may take the row over. */
  leaseMs?: number;
  log(msg: string, data?: object): void;
  /** Told of each message sent (the metrics count them). */
  onSent?(kind: string): void;
  /** Told of each failed attempt, and whether it is retried or given up. */
  onFailed?(kind: string, then: 'retry' | 'given_up'): void;
}

/** The outbox across the site: messages waiting to be sent, and how long the oldest has waited. */
export async function outboxBacklog(db: Database): Promise<{ queued: number; oldestSeconds: number }> {
  const [row] = await db.sql<{ queued: number; oldest: number }>(
    `SELECT count(*)::int AS queued,
            coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
       FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL`,
  );
  return { queued: row?.queued ?? 0, oldestSeconds: row?.oldest ?? 0 };
}

export interface MailSender {
  /** Sends what is due now, in batches until none is left; returns how many were sent. */
  runOnce(): Promise<number>;
  /** Asks for a run soon (after queueing mail in this process). */
  kick(): void;
  /**
   * Looks for due mail every `ms` (mail queued by other processes, retries); 0 or less: never on
   * its own, only when kicked or run, as the deadline timer reads 0.
   */
  start(ms: number): void;
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 6 * 3600_000;
const BATCH = 10;

interface Claimed {
  id: string;
  to_address: string;
  subject: string;
  text: string;
  html: string;
  unsubscribe_url: string | null;
  attempts: number;
  kind: string;
}

export function mailSender(db: Database, transport: MailTransport, options: SenderOptions): MailSender {
  const retryBaseMs = options.retryBaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  const claim = () =>
    db.sql<Claimed>(
      `UPDATE mail_outbox m
          SET claimed_until = now() + make_interval(secs => $1::float8), attempts = m.attempts + 1
        WHERE m.id IN (SELECT id FROM mail_outbox
                        WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
                          AND (claimed_until IS NULL OR claimed_until < now())
                        ORDER BY next_attempt_at, id
                        LIMIT $2
                        FOR UPDATE SKIP LOCKED)
      RETURNING m.id::text AS id, m.to_address, m.subject, m.text, m.html, m.unsubscribe_url, m.attempts, m.kind`,
      [leaseMs / 1000, BATCH],
    );

  async function sendOne(m: Claimed): Promise<boolean> {
    try {
      await transport.send({
        to: m.to_address,
        subject: m.subject,
        text: m.text,
        html: m.html,
        unsubscribeUrl: m.unsubscribe_url,
      });
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      const last = m.attempts >= maxAttempts;
      const wait = Math.min(MAX_BACKOFF_MS, retryBaseMs * 2 ** (m.attempts - 1));
      await db.sql(
        `UPDATE mail_outbox SET claimed_until = NULL, last_error = $2,
                next_attempt_at = now() + make_interval(secs => $3::float8),
                failed_at = CASE WHEN $4::boolean THEN now() END
          WHERE id = $1::bigint`,
        [m.id, error, wait / 1000, last],
      );
      options.onFailed?.(m.kind, last ? 'given_up' : 'retry');
      options.log(last ? 'mail given up' : 'mail not sent; will retry', {
        id: m.id,
        kind: m.kind,
        attempts: m.attempts,
        error,
        ...(last ? {} : { retryInSeconds: Math.round(wait / 1000) }),
      });
      return false;
    }
    await db.sql(
      'UPDATE mail_outbox SET sent_at = now(), claimed_until = NULL, last_error = NULL WHERE id = $1::bigint',
      [m.id],
    );
    options.onSent?.(m.kind);
    return true;
  }

  async function drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await claim();
      for (const m of batch) if (await sendOne(m)) sent++;
      if (batch.length < BATCH || stopped) return sent;
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let sent = 0;
      try {
        do {
          again = false;
          sent += await drain();
        } while (again && !stopped);
      } finally {
        running = null;
      }
      return sent;
    })();
    return running;
  }

  // While the database is away every run fails alike: told once, and once when back.
  const sending = failingLoop('mail sender', options.log);
  const run = () => void tickOf(sending, runOnce);

  return {
    runOnce,
    kick() {
      if (!stopped) setImmediate(run);
    },
    start(ms) {
      // Node runs an interval of 0 every millisecond: that would be a busy loop on the database.
      if (timer || stopped || ms <= 0) return;
      timer = setInterval(run, ms);
      timer.unref();
      run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
      transport.close();
    },
  };
}

/** Forgets mail sent or given up more than `days` ago. */
export async function purgeOldMail(db: Database, days = 30): Promise<void> {
  await db.sql(
    `DELETE FROM mail_outbox WHERE coalesce(sent_at, failed_at) < now() - make_interval(days => $1::int)`,
    [days],
  );
}
