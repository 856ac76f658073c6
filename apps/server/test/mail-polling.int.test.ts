/**
 * The outbox's timer: every `pollMs` it sends what other processes queued and what is due for a
 * retry; with 0 it never looks on its own (a test, or a process that only kicks it after queueing),
 * instead of an interval Node would run every millisecond.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSender } from '../src/mail/outbox.ts';
import { mailTransport } from '../src/mail/transport.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let smtp: SmtpSink;
const log = () => {};

beforeAll(async () => {
  t = await openTestDatabase();
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
  await t?.dispose();
});

const queue = (to: string) =>
  t.db.sql(
    `INSERT INTO mail_outbox (kind, to_address, subject, text, html) VALUES ('digest', $1, 'queued', 'x', '<p>x</p>')`,
    [to],
  );
const sender = () =>
  mailSender(t.db, mailTransport({ smtpUrl: smtp.url, from: 'bke@example.org' }, log), { log });

describe('the mail outbox timer', () => {
  it('with 0 never looks on its own, and still sends when kicked', async () => {
    const s = sender();
    try {
      await queue('off@example.org');
      s.start(0);
      await new Promise((r) => setTimeout(r, 400));
      expect(smtp.received.filter((m) => m.to === 'off@example.org')).toHaveLength(0);
      s.kick();
      expect((await smtp.waitFor('off@example.org')).subject).toBe('queued');
    } finally {
      await s.stop();
    }
  });

  it('with a period sends what another process queued without being kicked', async () => {
    const s = sender();
    try {
      s.start(50);
      await new Promise((r) => setTimeout(r, 100));
      await queue('later@example.org');
      expect((await smtp.waitFor('later@example.org', undefined, 5000)).subject).toBe('queued');
    } finally {
      await s.stop();
    }
  });
});
