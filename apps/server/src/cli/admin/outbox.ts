/**
 * The admin CLI's view of the mail outbox (mail/outbox.ts): what waits, what was sent, what the
 * sender gave up on and why; and putting given-up mail back to be sent at once, with its full
 * number of tries (after the mail server was fixed, say).
 */
import type { Database } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Outcome } from './accounts.ts';
import { recordOperatorAction } from './operator-audit.ts';

export const OUTBOX_FILTERS = ['all', 'waiting', 'failed', 'sent'] as const;
export type OutboxFilter = (typeof OUTBOX_FILTERS)[number];

type Row = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  created_at: Date;
  attempts: number;
  next_attempt_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
};

const WHERE: Record<OutboxFilter, string> = {
  all: 'true',
  waiting: 'sent_at IS NULL AND failed_at IS NULL',
  failed: 'failed_at IS NOT NULL',
  sent: 'sent_at IS NOT NULL',
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

function state(r: Row): string {
  if (r.sent_at) return `sent ${iso(r.sent_at)}`;
  if (r.failed_at) return `GAVE UP ${iso(r.failed_at)}`;
  return r.attempts > 0 ? `retry at ${iso(r.next_attempt_at)}` : `due ${iso(r.next_attempt_at)}`;
}

/** The newest `limit` rows of the outbox that `filter` picks, newest first, and the counts of each kind. */
export async function showOutbox(db: Database, filter: OutboxFilter, limit: number): Promise<Outcome> {
  const counts = await db.sql<{ waiting: string; failed: string; sent: string }>(
    `SELECT count(*) FILTER (WHERE ${WHERE.waiting})::text AS waiting,
            count(*) FILTER (WHERE ${WHERE.failed})::text AS failed,
            count(*) FILTER (WHERE ${WHERE.sent})::text AS sent
       FROM mail_outbox`,
  );
  const rows = await db.sql<Row>(
    `SELECT id::text AS id, kind, to_address, subject, created_at, attempts, next_attempt_at, sent_at,
            failed_at, last_error
       FROM mail_outbox WHERE ${WHERE[filter]} ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  const c = counts[0] ?? { waiting: '0', failed: '0', sent: '0' };
  const lines = [`Outbox: ${c.waiting} waiting, ${c.failed} given up, ${c.sent} sent (kept 30 days).`];
  for (const r of rows) {
    lines.push(
      `#${r.id}  ${r.kind}  to ${r.to_address}  queued ${iso(r.created_at)}  tries ${r.attempts}  ${state(r)}`,
      `      ${r.subject}`,
    );
    if (r.last_error) lines.push(`      last error: ${r.last_error.split('\n')[0]}`);
  }
  if (rows.length === 0) lines.push(filter === 'all' ? '(empty)' : `(no ${filter} mail)`);
  return { code: 0, out: lines.join('\n') };
}

/** Puts given-up mail back in the queue, due now: the rows named, or every one given up. */
export async function retryOutbox(
  db: Database,
  ids: string[] | 'all-failed',
  reason: string,
): Promise<Outcome> {
  return inTransaction(db, async (tx) => {
    if (Array.isArray(ids)) {
      const found = await tx.sql<{ id: string }>(
        `SELECT id::text AS id FROM mail_outbox WHERE failed_at IS NOT NULL AND id = ANY($1::bigint[]) FOR UPDATE`,
        [ids],
      );
      const missing = ids.filter((id) => !found.some((r) => r.id === id));
      if (missing.length)
        return {
          code: 1,
          out: `Not given up, or not in the outbox: #${missing.join(', #')}; nothing was changed.`,
        };
    }
    const rows = await tx.sql<{ id: string }>(
      `UPDATE mail_outbox SET failed_at = NULL, attempts = 0, next_attempt_at = now(), claimed_until = NULL
        WHERE failed_at IS NOT NULL ${ids === 'all-failed' ? '' : 'AND id = ANY($1::bigint[])'}
        RETURNING id::text AS id`,
      ids === 'all-failed' ? [] : [ids],
    );
    const retried = rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
    if (retried.length === 0) return { code: 0, out: 'No mail was given up; nothing to send again.' };
    await recordOperatorAction(tx, 'mail.retry', reason, { params: { ids: retried } });
    return {
      code: 0,
      out: `${retried.length} message(s) back in the queue (#${retried.join(', #')}); a running server sends them within MAIL_POLL_MS.`,
    };
  });
}
