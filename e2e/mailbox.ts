/**
 * A real SMTP server for the browser tests (the `smtp-server` package on a loopback port): the
 * server under test sends its mail here. Each message is parsed (mailparser) and written as JSON to
 * a folder, where the tests, in other processes, read it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface StoredMail {
  to: string;
  subject: string;
  text: string;
  /** Every link in the plain text, in order. */
  links: string[];
}

export async function startMailbox(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        async (parsed) => {
          const text = parsed.text ?? '';
          const mail: StoredMail = {
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            subject: parsed.subject ?? '',
            text,
            links: text.match(/https?:\/\/\S+/g) ?? [],
          };
          n++;
          await writeFile(path.join(dir, `${Date.now()}-${n}.json`), JSON.stringify(mail));
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits for a message to `to` whose subject matches, in the folder E2E_MAIL_DIR. */
export async function waitForMail(to: string, subject: RegExp, ms = 20_000): Promise<StoredMail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set (global-setup.ts starts the mailbox)');
  const end = Date.now() + ms;
  for (;;) {
    for (const f of (await readdir(dir)).sort()) {
      const m = JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StoredMail;
      if (m.to === to && subject.test(m.subject)) return m;
    }
    if (Date.now() > end) throw new Error(`no mail to ${to} matching ${subject} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
