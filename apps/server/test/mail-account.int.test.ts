/**
 * E-mail on the account, through a real SMTP server on a loopback port: the address verified by a
 * link, a password reset by a single-use link that expires, the notice after a password change, a
 * message retried after the mail server refused it once, and answers that never tell whether an
 * account or address exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { DEFAULT_LIMITS } from '../src/limits.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let smtp: SmtpSink;
const SITE = 'https://bke.example.org';

beforeAll(async () => {
  t = await openTestDatabase();
  smtp = await startSmtpSink();
  ({ app, base } = await serveApp(t.db, {
    limits: {
      authPerAddress: { burst: 50, perMinute: 60 },
      forgotPerAddress: { burst: 50, perMinute: 60 },
      // Every request here comes from one client address: its own limit is tried in mail-limits.
      mail: { ...DEFAULT_LIMITS.mail, perClientAddressPerHour: 1000 },
    },
    notifications: { publicUrl: SITE },
    mail: { smtpUrl: smtp.url, from: 'BKE Online <no-reply@bke.example.org>', pollMs: 100, retryBaseMs: 200 },
  }));
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await t?.dispose();
});

/** The token at the end of a link such as https://…/#/verify/<token>. */
const tokenOf = (link: string | undefined, kind: 'verify' | 'reset') => {
  const m = new RegExp(`^${SITE}/#/${kind}/([\\w.-]+)$`).exec(link ?? '');
  if (!m?.[1]) throw new Error(`no ${kind} link in ${link}`);
  return m[1];
};

async function signupWithEmail(username: string, email: string) {
  const r = await api(base, null, 'POST', '/api/auth/signup', { username, password: 'password123', email });
  expect(r.status).toBe(200);
  return r.cookie as string;
}

describe('the address, verified by a link', () => {
  it('sign-up with an address mails a link; the address counts once the link is opened, once', async () => {
    const cookie = await signupWithEmail('vera', 'Vera@Example.org');
    const before = await api(base, cookie, 'GET', '/api/account/mail');
    expect(before.body).toMatchObject({ email: null, pendingEmail: 'vera@example.org', verified: false });
    const mail = await smtp.waitFor('vera@example.org', /Confirm your e-mail/);
    expect(mail.text).toContain('Hello vera,');
    expect(mail.html).toContain('<a href="https://bke.example.org/#/verify/');
    // Account mail is not a list: no unsubscribe header.
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    const token = tokenOf(mail.links[0], 'verify');
    // No session is needed: the link may be opened on another device.
    const ok = await api(base, null, 'POST', '/api/account/email/verify', { token });
    expect(ok).toMatchObject({ status: 200, body: { email: 'vera@example.org' } });
    const after = await api(base, cookie, 'GET', '/api/account/mail');
    expect(after.body).toMatchObject({ email: 'vera@example.org', pendingEmail: null, verified: true });
    const again = await api(base, null, 'POST', '/api/account/email/verify', { token });
    expect(again).toMatchObject({ status: 410, body: { error: { code: 'account/link_used' } } });
    const made = await api(base, null, 'POST', '/api/account/email/verify', { token: 'x'.repeat(43) });
    expect(made).toMatchObject({ status: 400, body: { error: { code: 'account/link_invalid' } } });
  });

  it("sign-up keeps the browser's time zone for the mail's deadlines; an unknown zone leaves UTC", async () => {
    for (const [username, timeZone, kept] of [
      ['newyorker', 'America/New_York', 'America/New_York'],
      ['nowhere', 'Mars/Olympus_Mons', 'UTC'],
    ]) {
      const made = await api(base, null, 'POST', '/api/auth/signup', {
        username,
        password: 'password123',
        timeZone,
      });
      expect(made.status).toBe(200);
      expect((await api(base, made.cookie as string, 'GET', '/api/account/mail')).body).toMatchObject({
        timeZone: kept,
      });
    }
  });

  it('sign-up and log-in still work without an address; bad addresses are refused', async () => {
    const cookie = await signup(base, 'noaddr');
    expect((await api(base, cookie, 'GET', '/api/account/mail')).body).toMatchObject({
      email: null,
      pendingEmail: null,
      verified: false,
      notify: 'each',
    });
    for (const email of ['not an address', 'a@b', `x\u0007@example.org`]) {
      const r = await api(base, null, 'POST', '/api/auth/signup', {
        username: 'bad_addr',
        password: 'password123',
        email,
      });
      expect(r.status).toBe(400);
    }
    const ctl = await api(base, null, 'POST', '/api/auth/signup', {
      username: 'bad_addr',
      password: 'password123',
      email: 'x\u0007@example.org',
    });
    expect(ctl.body).toMatchObject({ error: { code: 'text/control_characters' } });
  });

  it('changing the address needs the password, verifies the new one and tells the old one', async () => {
    const cookie = await signupWithEmail('carl', 'carl@example.org');
    await api(base, null, 'POST', '/api/account/email/verify', {
      token: tokenOf((await smtp.waitFor('carl@example.org', /Confirm/)).links[0], 'verify'),
    });
    const wrong = await api(base, cookie, 'POST', '/api/account/email', {
      email: 'carl@new.example',
      password: 'nope',
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'auth/bad_credentials' } } });
    const set = await api(base, cookie, 'POST', '/api/account/email', {
      email: 'carl@new.example',
      password: 'password123',
    });
    // The old address stays in use until the new one is confirmed.
    expect(set.body).toMatchObject({
      email: 'carl@example.org',
      pendingEmail: 'carl@new.example',
      verified: true,
    });
    const link = await smtp.waitFor('carl@new.example', /Confirm/);
    await api(base, null, 'POST', '/api/account/email/verify', { token: tokenOf(link.links[0], 'verify') });
    expect((await api(base, cookie, 'GET', '/api/account/mail')).body).toMatchObject({
      email: 'carl@new.example',
    });
    const notice = await smtp.waitFor('carl@example.org', /address was changed/);
    expect(notice.text).toContain('carl@new.example');
  });

  it('an address another account confirmed is not told on the page; its owner gets a notice, not a link', async () => {
    const cookie = await signup(base, 'squatter');
    const r = await api(base, cookie, 'POST', '/api/account/email', {
      email: 'vera@example.org',
      password: 'password123',
    });
    expect(r).toMatchObject({ status: 200, body: { pendingEmail: 'vera@example.org', verified: false } });
    const notice = await smtp.waitFor('vera@example.org', /another BKE Online account/);
    expect(notice.links.some((l) => l.includes('/verify/'))).toBe(false);
  });

  it('an expired verification link is refused as expired', async () => {
    const cookie = await signup(base, 'late');
    await api(base, cookie, 'POST', '/api/account/email', {
      email: 'late@example.org',
      password: 'password123',
    });
    const token = tokenOf((await smtp.waitFor('late@example.org', /Confirm/)).links[0], 'verify');
    await t.db.sql(
      `UPDATE account_tokens SET expires_at = now() - interval '1 minute' WHERE kind = 'verify_email' AND email = 'late@example.org'`,
    );
    const r = await api(base, null, 'POST', '/api/account/email/verify', { token });
    expect(r).toMatchObject({ status: 410, body: { error: { code: 'account/link_expired', hours: 48 } } });
  });
});

describe('password reset', () => {
  it('answers the same whether or not the account exists, and mails only a verified address', async () => {
    const cookie = await signupWithEmail('rosa', 'rosa@example.org');
    await smtp.waitFor('rosa@example.org', /Confirm/);
    // Not verified yet: no link goes to an address nobody confirmed.
    const unverified = await api(base, null, 'POST', '/api/auth/forgot', { account: 'rosa' });
    const unknown = await api(base, null, 'POST', '/api/auth/forgot', { account: 'nobody-here' });
    const unknownAddr = await api(base, null, 'POST', '/api/auth/forgot', { account: 'nobody@example.org' });
    for (const r of [unverified, unknown, unknownAddr])
      expect(r).toMatchObject({ status: 200, body: { ok: true } });
    await app.mail.runOnce();
    expect(smtp.received.filter((m) => /new BKE Online password/.test(m.subject))).toHaveLength(0);
    expect(cookie).toBeTruthy();
  });

  it('a single-use link sets a new password and logs every browser out; the notice follows', async () => {
    const first = await signupWithEmail('mira', 'mira@example.org');
    await api(base, null, 'POST', '/api/account/email/verify', {
      token: tokenOf((await smtp.waitFor('mira@example.org', /Confirm/)).links[0], 'verify'),
    });
    const r = await api(base, null, 'POST', '/api/auth/forgot', { account: 'MIRA@example.org' });
    expect(r).toMatchObject({ status: 200, body: { ok: true } });
    const mail = await smtp.waitFor('mira@example.org', /new BKE Online password/);
    expect(mail.text).toContain('60 minutes');
    const token = tokenOf(mail.links[0], 'reset');

    const short = await api(base, null, 'POST', '/api/auth/reset', { token, password: 'short' });
    expect(short.status).toBe(400);
    const done = await api(base, null, 'POST', '/api/auth/reset', { token, password: 'a brand new one' });
    expect(done).toMatchObject({ status: 200, body: { username: 'mira' } });
    // The session that existed before is gone.
    expect((await api(base, first, 'GET', '/api/auth/me')).body).toEqual({ user: null });
    const old = await api(base, null, 'POST', '/api/auth/login', {
      username: 'mira',
      password: 'password123',
    });
    expect(old.status).toBe(401);
    const fresh = await api(base, null, 'POST', '/api/auth/login', {
      username: 'mira',
      password: 'a brand new one',
    });
    expect(fresh.status).toBe(200);
    const reused = await api(base, null, 'POST', '/api/auth/reset', { token, password: 'yet another one' });
    expect(reused).toMatchObject({ status: 410, body: { error: { code: 'account/link_used' } } });
    const notice = await smtp.waitFor('mira@example.org', /password was changed/);
    expect(notice.text).toContain('Every browser that was logged in has been logged out');
  });

  it('an expired reset link is refused and changes nothing', async () => {
    await signupWithEmail('otto', 'otto@example.org');
    await api(base, null, 'POST', '/api/account/email/verify', {
      token: tokenOf((await smtp.waitFor('otto@example.org', /Confirm/)).links[0], 'verify'),
    });
    await api(base, null, 'POST', '/api/auth/forgot', { account: 'otto' });
    const token = tokenOf(
      (await smtp.waitFor('otto@example.org', /new BKE Online password/)).links[0],
      'reset',
    );
    await t.db.sql(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'reset_password' AND email = 'otto@example.org'`,
    );
    const r = await api(base, null, 'POST', '/api/auth/reset', { token, password: 'too late now' });
    expect(r).toMatchObject({ status: 410, body: { error: { code: 'account/link_expired', hours: 1 } } });
    const login = await api(base, null, 'POST', '/api/auth/login', {
      username: 'otto',
      password: 'password123',
    });
    expect(login.status).toBe(200);
  });

  it('sends at most a few links per account an hour, with the same answer', async () => {
    await signupWithEmail('flood', 'flood@example.org');
    await api(base, null, 'POST', '/api/account/email/verify', {
      token: tokenOf((await smtp.waitFor('flood@example.org', /Confirm/)).links[0], 'verify'),
    });
    for (let i = 0; i < 6; i++)
      expect((await api(base, null, 'POST', '/api/auth/forgot', { account: 'flood' })).status).toBe(200);
    await app.mail.runOnce();
    await new Promise((r) => setTimeout(r, 300));
    expect(
      smtp.received.filter((m) => m.to === 'flood@example.org' && /new BKE Online password/.test(m.subject)),
    ).toHaveLength(3);
  });

  it('changing the password tells the verified address', async () => {
    const cookie = await signupWithEmail('paul', 'paul@example.org');
    await api(base, null, 'POST', '/api/account/email/verify', {
      token: tokenOf((await smtp.waitFor('paul@example.org', /Confirm/)).links[0], 'verify'),
    });
    const r = await api(base, cookie, 'POST', '/api/account/password', {
      current: 'password123',
      next: 'another secret',
    });
    expect(r.status).toBe(200);
    await smtp.waitFor('paul@example.org', /password was changed/);
  });
});

describe('delivery', () => {
  it('a message the mail server refuses is retried later and arrives once', async () => {
    smtp.refuseNext(1);
    const refusedBefore = smtp.refused;
    await signupWithEmail('retry', 'retry@example.org');
    const mail = await smtp.waitFor('retry@example.org', /Confirm/, 15_000);
    expect(smtp.refused).toBe(refusedBefore + 1);
    expect(mail.subject).toMatch(/Confirm/);
    // The sender marks the row sent once the server has accepted it: a moment after it arrived.
    const rowOf = async () =>
      (
        await t.db.sql<{ attempts: number; sent_at: Date | null; last_error: string | null }>(
          `SELECT attempts, sent_at, last_error FROM mail_outbox WHERE to_address = 'retry@example.org'`,
        )
      )[0];
    let row = await rowOf();
    for (let i = 0; i < 100 && !row?.sent_at; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await rowOf();
    }
    expect(row).toMatchObject({ attempts: 2, last_error: null });
    expect(row?.sent_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 400));
    expect(smtp.received.filter((m) => m.to === 'retry@example.org')).toHaveLength(1);
  });
});
