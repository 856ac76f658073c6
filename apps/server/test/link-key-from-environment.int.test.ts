/**
 * The key that signs mailed links given by the operator (LINK_KEY): links are signed with it, the
 * database's key is neither made nor read, and a link signed with it opens what it should.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { DEFAULT_LIMITS } from '../src/limits.ts';
import { signatureHolds } from '../src/mail/link-signature.ts';
import { serveApp } from './helpers/app.ts';
import { api } from './helpers/client.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let smtp: SmtpSink;
const SITE = 'https://bke.example.org';
const KEY = randomBytes(32);

beforeAll(async () => {
  t = await openTestDatabase();
  smtp = await startSmtpSink();
  ({ app, base } = await serveApp(t.db, {
    limits: { mail: { ...DEFAULT_LIMITS.mail, perClientAddressPerHour: 1000 } },
    notifications: { publicUrl: SITE },
    mail: { smtpUrl: smtp.url, from: 'BKE Online <no-reply@bke.example.org>', pollMs: 100, linkKey: KEY },
  }));
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await t?.dispose();
});

describe('a link key given by the environment', () => {
  it('signs every mailed link, and the database keeps no key of its own', async () => {
    const r = await api(base, null, 'POST', '/api/auth/signup', {
      username: 'keyholder',
      password: 'password123',
      email: 'keyholder@example.org',
    });
    expect(r.status).toBe(200);
    const mail = await smtp.waitFor('keyholder@example.org', /Confirm your e-mail/);
    const token = /#\/verify\/([\w.-]+)$/.exec(mail.links[0] ?? '')?.[1] ?? '';
    expect(signatureHolds(KEY, 'verify_email', token)).toBe(true);
    expect(signatureHolds(randomBytes(32), 'verify_email', token)).toBe(false);
    expect(await t.db.sql('SELECT id FROM link_keys')).toEqual([]);
    const ok = await api(base, null, 'POST', '/api/account/email/verify', { token });
    expect(ok).toMatchObject({ status: 200, body: { email: 'keyholder@example.org' } });
  });
});
