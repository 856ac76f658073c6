/**
 * Mail to one mailbox is limited whoever asks for it, counted in the outbox under the mailbox's
 * lock: sign-ups naming a stranger's address from many client addresses at once, "address in use"
 * notices asked for by many accounts, one account asking for links to many addresses, and one
 * client address naming many mailboxes. Answers stay the same past a limit; a notice about the
 * account's own password still arrives at a mailbox flooded with links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { DEFAULT_LIMITS } from '../src/limits.ts';
import { serveApp } from './helpers/app.ts';
import { postFrom } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
// Links per mailbox as low as the links per account, so one account's resets reach it.
const MAIL = { ...DEFAULT_LIMITS.mail, linksPerHour: DEFAULT_LIMITS.accountLinksPerHour };

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    trustProxy: true,
    // The client address limits of sign-ups and changes of address are not what is tried here.
    limits: { authPerAddress: { burst: 500, perMinute: 600 }, mail: MAIL },
  }));
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const post = (path: string, body: unknown, from: string, cookie?: string) =>
  postFrom(base, path, from, body, cookie);

const queued = async (kind: string, to: string) =>
  (
    await t.db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE kind = $1 AND lower(to_address) LIKE $2`,
      [kind, to],
    )
  )[0]?.n;

let users = 0;
const signup = (email: string | undefined, from: string) =>
  post(
    '/api/auth/signup',
    { username: `user${++users}`, password: 'password123', ...(email ? { email } : {}) },
    from,
  );

/** An account whose address `email` is confirmed. */
async function holder(email: string) {
  const name = `holder${++users}`;
  const r = await post('/api/auth/signup', { username: name, password: 'password123' }, '10.9.0.1');
  await t.db.sql(`UPDATE users SET email = $1, email_verified_at = now() WHERE username = $2`, [email, name]);
  return r.cookie;
}

describe('mail to one mailbox', () => {
  it('sign-ups naming a stranger’s address, from as many client addresses at once, mail it a few links', async () => {
    // Each sign-up hashes a password: a dozen show the limit as well as forty would.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signup(i % 2 ? 'Stranger@Example.org' : `stranger+${i}@example.org`, `10.1.0.${i + 1}`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await queued('verify_email', 'stranger%@example.org')).toBe(
      Math.min(MAIL.verifyPerWeek, MAIL.linksPerHour),
    );
  });

  it('"address in use" notices asked for by many accounts stop at the mailbox’s links per hour', async () => {
    await holder('taken@example.org');
    const askers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signup(undefined, `10.2.0.${i + 1}`)),
    );
    const answers = await Promise.all(
      askers.map((a, i) =>
        post(
          '/api/account/email',
          { email: 'taken@example.org', password: 'password123' },
          `10.2.1.${i + 1}`,
          a.cookie,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(askers.map(() => 200));
    expect(await queued('address_in_use', 'taken@example.org')).toBe(MAIL.linksPerHour);
  });

  it('one account asking for links to many held addresses is mailed its links per hour, whichever mail each becomes', async () => {
    // Five: the account's password is asked for each time, and five tries is its burst.
    const held = Array.from({ length: 5 }, (_, i) => `held${i}@example.org`);
    for (const h of held) await holder(h);
    const me = await signup(undefined, '10.3.0.1');
    for (const h of held)
      expect(
        (await post('/api/account/email', { email: h, password: 'password123' }, '10.3.0.1', me.cookie))
          .status,
      ).toBe(200);
    expect(await queued('address_in_use', 'held%@example.org')).toBe(DEFAULT_LIMITS.accountLinksPerHour);
  }, 180_000);

  it('one client address naming many mailboxes is mailed for its links per hour', async () => {
    for (let i = 0; i < MAIL.perClientAddressPerHour + 2; i++)
      expect((await signup(`person${i}@example.net`, '10.4.0.1')).status).toBe(200);
    expect(await queued('verify_email', 'person%@example.net')).toBe(MAIL.perClientAddressPerHour);
  }, 180_000);

  it('a mailbox flooded with links still gets the notice of its account’s password change', async () => {
    const owner = await holder('owner@example.org');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post('/api/auth/forgot', { account: 'owner@example.org' }, `10.5.0.${i + 1}`),
      ),
    );
    expect(await queued('reset_password', 'owner@example.org')).toBe(MAIL.linksPerHour);
    const changed = await fetch(`${base}/api/account/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bke-csrf': '1', cookie: owner },
      body: JSON.stringify({ current: 'password123', next: 'password456' }),
    });
    expect(changed.status).toBe(200);
    expect(await queued('password_changed', 'owner@example.org')).toBe(1);
  });
});
