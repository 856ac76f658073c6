/**
 * A real SMTP server on a loopback port (the `smtp-server` package), standing in for a mail
 * provider: it accepts mail without authentication, parses each message (mailparser) and keeps it.
 * `refuseNext(n)` makes it answer the next n messages with a temporary failure (451), as a busy
 * provider does.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Each header as it arrived (lower-cased name → unfolded value). */
  headers: Map<string, string>;
  /** Every link in the plain text, in order. */
  links: string[];
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** How many messages were refused so far. */
  refused: number;
  refuseNext(n: number): void;
  /** Waits until a message for `to` (and matching `subject`, when given) arrives; returns it. */
  waitFor(to: string, subject?: RegExp, ms?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let toRefuse = 0;
  const sink: SmtpSink = {
    url: '',
    received,
    refused: 0,
    refuseNext(n) {
      toRefuse = n;
    },
    async waitFor(to, subject, ms = 10_000) {
      const end = Date.now() + ms;
      for (;;) {
        const m = received.find((r) => r.to === to && (!subject || subject.test(r.subject)));
        if (m) return m;
        if (Date.now() > end)
          throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    // Plain SMTP on loopback: without STARTTLS offered, nodemailer does not try its self-signed certificate.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse--;
          sink.refused++;
          callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const text = parsed.text ?? '';
            received.push({
              to: session.envelope.rcptTo.map((r) => r.address).join(','),
              subject: parsed.subject ?? '',
              text,
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: new Map(
                parsed.headerLines.map((h) => [
                  h.key,
                  h.line
                    .slice(h.line.indexOf(':') + 1)
                    .replace(/\r?\n[ \t]+/g, ' ')
                    .trim(),
                ]),
              ),
              links: text.match(/https?:\/\/\S+/g) ?? [],
            });
            callback();
          },
          (e: Error) => callback(e),
        );
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return sink;
}
