/**
 * How mail leaves the server: over SMTP with nodemailer when SMTP_URL is set, else into the log
 * (so that `npm start` needs no mail server, and a developer still sees each message and its links).
 */
import nodemailer from 'nodemailer';

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe address (RFC 8058), for the List-Unsubscribe headers. */
  unsubscribeUrl: string | null;
}

export interface MailTransport {
  /** Sends one message; throws when the mail server refuses it or cannot be reached. */
  send(mail: OutgoingMail): Promise<void>;
  /** `smtp` or `log`: what the sender says at start-up. */
  readonly kind: 'smtp' | 'log';
  close(): void;
}

export interface MailSettings {
  /** smtp://user:pass@host:port or smtps://…; null: the messages are logged, not sent. */
  smtpUrl: string | null;
  /** The From header. */
  from: string;
}

const headersOf = (mail: OutgoingMail) =>
  mail.unsubscribeUrl
    ? {
        'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }
    : {};

export function mailTransport(
  settings: MailSettings,
  log: (msg: string, data: object) => void,
): MailTransport {
  if (!settings.smtpUrl) {
    return {
      kind: 'log',
      async send(mail) {
        log('mail (no SMTP_URL set: logged here, not sent)', {
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          headers: headersOf(mail),
        });
      },
      close() {},
    };
  }
  // Short timeouts: a sender holds its claim on a message for a few minutes (outbox.ts), and a
  // connection that hangs must fail well inside that, so the message is retried rather than stuck.
  const smtp = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await smtp.sendMail({
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: headersOf(mail),
      });
    },
    close() {
      smtp.close();
    },
  };
}
