import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMailbox } from './mailbox.ts';
import { freePort, startServer } from './server.ts';

export default async function globalSetup() {
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  // The server's mail goes to a real SMTP server on this machine; tests read it from a folder.
  const mailDir = await mkdtemp(path.join(tmpdir(), 'bke-e2e-mail-'));
  const mailbox = await startMailbox(mailDir);
  process.env.E2E_MAIL_DIR = mailDir;
  const server = await startServer(port, { smtpUrl: mailbox.url });
  process.env.E2E_BASE_URL = server.url;
  return async () => {
    await server.stop();
    await mailbox.close();
    await rm(mailDir, { recursive: true, force: true });
  };
}
