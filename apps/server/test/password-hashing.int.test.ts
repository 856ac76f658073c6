/**
 * Password hashing against the rest of the server, on a real server and database: hashes run on
 * threads of their own with a bounded queue (a full queue answers auth/busy), static files and
 * health are answered while hashes run, a reset link is checked before any hash, and log-in,
 * sign-up and "forgot password" do the same work whether or not the account or address exists —
 * counted (the hashes each request made) and timed over many interleaved pairs. A cheaper stored
 * hash is replaced at log-in only when the threads have room: a right password never answers busy
 * for the re-hash.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { hashingStats } from '../src/auth/hashing-pool.ts';
import { hashPassword, needsRehash, verifyPassword } from '../src/auth/passwords.ts';
import { rehashIfRoom } from '../src/auth/rehash.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let webDist: string;
const ASSET = 'assets/index-test.js';

/** Nothing here is slowed by the limits: they are tried elsewhere (limits, mail-limits). */
const MANY = { burst: 100_000, perMinute: 100_000 };

beforeAll(async () => {
  t = await openTestDatabase();
  webDist = await mkdtemp(path.join(tmpdir(), 'bke-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>BKE Online</title>');
  await writeFile(path.join(webDist, ASSET), `/* ${'x'.repeat(125_000)} */`);
  ({ app, base } = await serveApp(t.db, {
    webDist,
    // One thread and two places in line: a fourth hash at once is refused.
    hashing: { threads: 1, queue: 2 },
    limits: {
      authPerAddress: MANY,
      forgotPerAddress: MANY,
      resetPerAddress: MANY,
      // Out of the way: what is checked is that a made-up link is refused by its MAC, unhashed.
      madeUpLinksPerAddress: MANY,
      loginFreeFailures: 100_000,
      accountLinksPerHour: 100_000,
      mail: {
        linksPerHour: 100_000,
        linksPerDay: 100_000,
        verifyPerWeek: 100_000,
        noticesPerHour: 100_000,
        turnsPerHour: 100_000,
        perClientAddressPerHour: 100_000,
      },
    },
  }));
  expect(
    (await api(base, null, 'POST', '/api/auth/signup', { username: 'cassia', password: 'password123' }))
      .status,
  ).toBe(200);
  await t.db.sql(
    "UPDATE users SET email = 'cassia@example.org', email_verified_at = now() WHERE username_key = 'cassia'",
  );
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.dispose();
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

/** Runs `send` and returns the hashes the server made or checked meanwhile, with the answer. */
async function hashesOf<T>(send: () => Promise<T>): Promise<{ hashes: number; answer: T }> {
  // Hashes of an earlier test still under way would count here.
  await waitFor('no hash under way', () => hashingStats().inFlight === 0, 300_000);
  const before = hashingStats().done;
  const answer = await send();
  return { hashes: hashingStats().done - before, answer };
}

/**
 * `n` pairs of requests, one of each kind per pair in alternating order (so a change of the
 * machine's load falls on both), and the median over the pairs of log(time A / time B): near 0
 * when both take the same time, whatever the load did meanwhile.
 */
async function pairedLogRatio(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  const timed = async (f: () => Promise<unknown>) => {
    const started = performance.now();
    await f();
    return performance.now() - started;
  };
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    let ta: number;
    let tb: number;
    if (i % 2 === 0) {
      ta = await timed(a);
      tb = await timed(b);
    } else {
      tb = await timed(b);
      ta = await timed(a);
    }
    ratios.push(Math.log(ta / tb));
  }
  ratios.sort((x, y) => x - y);
  return ratios[Math.floor(n / 2)] as number;
}

describe('hashing has threads of its own, with a bounded queue', () => {
  it('serves a static file and health while log-ins hash, and refuses hashes beyond the queue as auth/busy', async () => {
    const before = hashingStats();
    const logins = Array.from({ length: 8 }, (_, i) =>
      api(base, null, 'POST', '/api/auth/login', { username: `nobody${i}`, password: 'password123' }),
    );
    await waitFor('a hash under way', () => hashingStats().inFlight > 0, 30_000);
    const asset = await fetch(`${base}/${ASSET}`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(125_000);
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    // Both were answered before the first hash (about a third of a second) was done.
    expect(hashingStats().done - before.done).toBe(0);

    const answers = await Promise.all(logins);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expect(r.body.error).toMatchObject({ code: 'auth/busy', retryAfterSeconds: expect.any(Number) });
      // The wait in the header too, for clients and proxies that read only that (RFC 9110 §10.2.3).
      const wait = (r.body.error as { retryAfterSeconds: number }).retryAfterSeconds;
      expect(r.headers.get('retry-after')).toBe(String(Math.ceil(wait)));
    }
    for (const r of answers.filter((x) => x.status !== 503))
      expect(r.body.error).toMatchObject({ code: 'auth/bad_credentials' });
    expect(hashingStats().busy - before.busy).toBe(busy.length);
    expect(hashingStats().done - before.done).toBe(answers.length - busy.length);
    expect(await app.metrics.text()).toMatch(/^bke_password_hashes_total\{outcome="busy"\} \d+$/m);
  }, 120_000);
});

describe('a reset link is checked before the new password is hashed', () => {
  it('sixteen made-up links at once are refused without one hash', async () => {
    const { hashes, answer } = await hashesOf(() =>
      Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          api(base, null, 'POST', '/api/auth/reset', {
            token: `made-up-token-${i}-${'x'.repeat(20)}`,
            password: 'a brand new one',
          }),
        ),
      ),
    );
    for (const r of answer)
      expect(r).toMatchObject({ status: 400, body: { error: { code: 'account/link_invalid' } } });
    expect(hashes).toBe(0);
    expect(hashingStats().inFlight).toBe(0);
  }, 60_000);
});

describe('the same work whether or not the account exists', () => {
  const login = (username: string) => () =>
    api(base, null, 'POST', '/api/auth/login', { username, password: 'not-the-password' });

  it('a log-in hashes once for a known name and once for an unknown one, in the same time', async () => {
    const known = await hashesOf(login('cassia'));
    const unknown = await hashesOf(login('nobody-at-all'));
    expect(known.answer).toMatchObject({ status: 401, body: { error: { code: 'auth/bad_credentials' } } });
    expect(unknown.answer).toMatchObject({ status: 401, body: { error: { code: 'auth/bad_credentials' } } });
    expect([known.hashes, unknown.hashes]).toEqual([1, 1]);
    // Within a third either way (the finding: 1.3 s against 3.0 s).
    expect(Math.abs(await pairedLogRatio(8, login('cassia'), login('nobody-at-all')))).toBeLessThan(
      Math.log(1.33),
    );
    // Sixteen hashes one after the other: seconds alone, minutes on a loaded machine.
  }, 600_000);

  it('a sign-up hashes once whether or not the name is taken', async () => {
    const taken = await hashesOf(() =>
      api(base, null, 'POST', '/api/auth/signup', { username: 'Cassia', password: 'password123' }),
    );
    const free = await hashesOf(() =>
      api(base, null, 'POST', '/api/auth/signup', { username: 'livia', password: 'password123' }),
    );
    expect(taken.answer.status).toBe(409);
    expect(free.answer.status).toBe(200);
    expect([taken.hashes, free.hashes]).toEqual([1, 1]);
  }, 60_000);

  it('"forgot password" for a verified address answers in the same time as for an unknown one', async () => {
    const forgot = (account: string) => async () => {
      const r = await api(base, null, 'POST', '/api/auth/forgot', { account });
      expect(r).toMatchObject({ status: 200, body: { ok: true } });
    };
    const links = async () =>
      Number(
        (
          await t.db.sql<{ n: number }>(
            "SELECT count(*)::int AS n FROM account_tokens WHERE kind = 'reset_password'",
          )
        )[0]?.n,
      );
    const before = await links();
    // The finding: 38 ms against 20 ms, a log-ratio of 0.64.
    expect(
      Math.abs(await pairedLogRatio(30, forgot('cassia@example.org'), forgot('nobody@example.org'))),
    ).toBeLessThan(Math.log(1.2));
    // The verified address was really sent its links meanwhile.
    expect((await links()) - before).toBe(30);
  }, 240_000);
});

describe('a cheaper stored hash is replaced at log-in only when the threads have room', () => {
  /** A hash of `password` at a quarter of today's memory cost, as an older release stored it. */
  const cheaper = (password: string) => {
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  };

  it('keeps the cheaper hash when the queue is full, replaces it later, and never overwrites a new password', async () => {
    expect(
      (await api(base, null, 'POST', '/api/auth/signup', { username: 'veteran', password: 'password123' }))
        .status,
    ).toBe(200);
    const old = cheaper('password123');
    const { id } = await t.db.prisma.user.update({
      where: { usernameKey: 'veteran' },
      data: { passwordHash: old },
    });
    await waitFor('no hash under way', () => hashingStats().inFlight === 0, 300_000);
    // One thread and two places in line, all taken.
    const others = Array.from({ length: 3 }, () => hashPassword('someone else'));
    expect(hashingStats().inFlight).toBe(3);
    expect(await rehashIfRoom(t.db, id, old, 'password123')).toBe('busy');
    await Promise.all(others);
    const stored = async () => (await t.db.prisma.user.findUniqueOrThrow({ where: { id } })).passwordHash;
    expect(await stored()).toBe(old);

    // With room, the log-in itself replaces it, and the password still works.
    const login = await api(base, null, 'POST', '/api/auth/login', {
      username: 'veteran',
      password: 'password123',
    });
    expect(login.status).toBe(200);
    const fresh = await stored();
    expect(needsRehash(fresh)).toBe(false);
    expect(await verifyPassword('password123', fresh)).toBe(true);

    // A password changed while a re-hash ran is kept.
    expect(await rehashIfRoom(t.db, id, old, 'password123')).toBe('changed');
    expect(await stored()).toBe(fresh);
  }, 120_000);
});
