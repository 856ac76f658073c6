/**
 * "Your move" by e-mail, through a real SMTP server on a loopback port: a player who is away is
 * mailed when a world starts waiting for them (once per step), reminded before the deadline, or sent
 * one digest a day at their hour; every such mail carries a one-click unsubscribe link and the
 * List-Unsubscribe headers. Two apps on one database (as two server processes are) never send a
 * message twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let second: Database;
let app: App;
let other: App;
let base: string;
let smtp: SmtpSink;
let alice: string;
let bob: string;
let worldId: string;
const SITE = 'https://bke.example.org';

beforeAll(async () => {
  t = await openTestDatabase();
  smtp = await startSmtpSink();
  const options = {
    limits: { authPerAddress: { burst: 50, perMinute: 60 } },
    notifications: { publicUrl: SITE },
    mail: { smtpUrl: smtp.url, pollMs: 100, retryBaseMs: 200 },
  };
  ({ app, base } = await serveApp(t.db, options));
  // A second app on the same database, with its own pool where there is a server: a second process.
  second = t.url ? await openDatabase({ kind: 'postgres', url: t.url, poolSize: 5 }) : t.db;
  ({ app: other } = await serveApp(second, options));
  alice = await signup(base, 'alice');
  bob = await signup(base, 'bob');
  // Bob's address is verified (the verification itself is tested in mail-account.int.test.ts).
  await t.db.sql(
    `UPDATE users SET email = 'bob@example.org', email_verified_at = now() WHERE username = 'bob'`,
  );
  const created = await api(base, alice, 'POST', '/api/worlds', {
    name: 'Long Winter',
    deadline: { mode: 'correspondence', hoursPerPhase: 24 },
  });
  worldId = (created.body.world as { id: string }).id;
  for (const c of [alice, bob]) await api(base, c, 'POST', `/api/worlds/${worldId}/join`, {});
});
afterAll(async () => {
  await other?.close();
  await app?.close();
  if (second && second !== t.db) await second.close();
  await smtp?.close();
  await t?.dispose();
});

const toBob = () => smtp.received.filter((m) => m.to === 'bob@example.org');

async function bobPlayer() {
  const bobId = (await t.db.prisma.user.findFirstOrThrow({ where: { username: 'bob' } })).id;
  const seats = await t.db.prisma.worldSeat.findMany({ where: { worldId } });
  return { seats, bob: seats.find((s) => s.userId === bobId)?.playerId ?? '' };
}

/** Plays whatever the world waits for until it waits for Bob; returns how often it newly did. */
async function playUntilBob(maxOrders: number) {
  const rt = await app.hub.get(worldId);
  if (!rt) throw new Error('no world');
  const { seats, bob: p } = await bobPlayer();
  const policy = { done: true };
  let became = 0;
  let was = rt.waitingFor().includes(p as never);
  for (let i = 0; i < maxOrders; i++) {
    await rt.settled();
    const next = rt.waitingFor()[0];
    const seat = seats.find((s) => s.playerId === next);
    if (!seat?.userId) throw new Error('nobody waited for');
    const order = pickOrder(app.hub.engine.legalOrders(rt.state, next as never), policy);
    if (!order) throw new Error(`stuck: ${next}`);
    const r = await app.hub.order(worldId, next as never, seat.userId, rt.version, order);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const mine = rt.waitingFor().includes(p as never);
    if (mine && !was) became++;
    was = mine;
  }
  return { rt, became, bob: p };
}

describe('your move by e-mail', () => {
  it('mails an away player once per step, with the world, turn, step, local deadline and links', async () => {
    await t.db.sql(`UPDATE users SET time_zone = 'Europe/Amsterdam' WHERE username = 'bob'`);
    const { became } = await playUntilBob(40);
    expect(became).toBeGreaterThan(0);
    await waitFor('a "your move" mail', () => toBob().length > 0, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    const moves = toBob().filter((m) => m.subject.startsWith('Your move in Long Winter'));
    expect(moves.length).toBe(toBob().length);
    expect(moves.length).toBeLessThanOrEqual(became);
    const mail = moves[0];
    expect(mail?.subject).toMatch(/^Your move in Long Winter \(turn \d+\)$/);
    expect(mail?.text).toMatch(/Long Winter is waiting for you: turn \d+, .+\./);
    // The deadline as Bob reads it, in his time zone.
    expect(mail?.text).toMatch(/Deadline: \w{3} \d+ \w{3}, \d\d:\d\d (CET|CEST|GMT\+\d)\./);
    expect(mail?.text).toContain(`${SITE}/#/world/${worldId}`);
    expect(mail?.html).toContain(`href="${SITE}/#/world/${worldId}"`);
    const [row] = await t.db.sql<{ token: string }>(
      `SELECT unsubscribe_token AS token FROM users WHERE username = 'bob'`,
    );
    const unsubscribe = `${SITE}/mail/unsubscribe?token=${row?.token}`;
    expect(mail?.headers.get('list-unsubscribe')).toContain(unsubscribe);
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail?.text).toContain(unsubscribe);
    // One row per world and step: the dedupe keys are all different.
    const keys = await t.db.sql<{ dedupe_key: string }>(
      `SELECT dedupe_key FROM mail_outbox WHERE kind = 'move'`,
    );
    expect(new Set(keys.map((k) => k.dedupe_key)).size).toBe(keys.length);

    // With Bob's page open on the world, the page tells him: no mail. First let every mail already
    // queued arrive, so that one still in the outbox is not taken for a new one on a busy machine.
    const queued = async () =>
      Number(
        (await t.db.sql<{ n: string }>(`SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL`))[0]?.n,
      );
    for (let waited = 0; (await queued()) > 0; waited += 100) {
      if (waited > 15_000) throw new Error('the queued mail did not go out');
      await new Promise((r) => setTimeout(r, 100));
    }
    const page = new TestClient(base, bob, worldId);
    try {
      expect((await page.subscribe()).ok).toBe(true);
      const before = toBob().length;
      const rowsBefore = (await t.db.sql(`SELECT id FROM mail_outbox`)).length;
      const { became: more } = await playUntilBob(40);
      expect(more).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500));
      expect((await t.db.sql(`SELECT id FROM mail_outbox`)).length).toBe(rowsBefore);
      expect(toBob()).toHaveLength(before);
    } finally {
      page.close();
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('reminds before the deadline once, however many processes look', async () => {
    const { rt, bob: p } = await playUntilBob(0);
    const ready = rt.waitingFor().includes(p as never) ? rt : (await playUntilBob(60)).rt;
    expect(ready.waitingFor()).toContain(p);
    await new Promise((r) => setTimeout(r, 500));
    smtp.received.length = 0;
    const due = ready.head.deadlineAt?.getTime() ?? 0;
    const at = new Date(due - 24 * 3600_000 * 0.1);
    const counts = await Promise.all([app.turns.remind(at), other.turns.remind(at), app.turns.remind(at)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const mail = await smtp.waitFor('bob@example.org', /^Reminder: 2 h 24 min left in Long Winter$/);
    expect(mail.text).toContain('the deadline is close');
    await new Promise((r) => setTimeout(r, 500));
    expect(toBob()).toHaveLength(1);
  });

  it("sends the digest once a day at the player's hour, listing the worlds that wait", async () => {
    const prefs = await api(base, bob, 'POST', '/api/account/mail', {
      notify: 'digest',
      digestHour: 9,
      timeZone: 'Asia/Tokyo',
    });
    expect(prefs.body).toMatchObject({
      notify: 'digest',
      digestHour: 9,
      timeZone: 'Asia/Tokyo',
      verified: true,
    });
    const [u] = await t.db.sql<{ due: Date }>(
      `SELECT digest_due_at AS due FROM users WHERE username = 'bob'`,
    );
    const due = u?.due as Date;
    // 09:00 in Tokyo is 00:00 UTC.
    expect(due.getUTCHours()).toBe(0);
    expect(due.getUTCMinutes()).toBe(0);
    smtp.received.length = 0;
    expect(await app.turns.digest(new Date(due.getTime() - 60_000))).toBe(0);
    const counts = await Promise.all([app.turns.digest(due), other.turns.digest(due)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const mail = await smtp.waitFor('bob@example.org', /^BKE Online: 1 world waits for you$/);
    expect(mail.text).toMatch(/- Long Winter: turn \d+, .+; deadline \w{3} \d+ \w{3}, \d\d:\d\d GMT\+9/);
    // Bob has never opened the world: the summary since his joining, in the world's line.
    expect(mail.text).toMatch(/Long Winter: .+ — since your last visit: \d+ game turns? passed/);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The next one is due a day later; asking again now sends nothing.
    expect(await app.turns.digest(due)).toBe(0);
    const [n] = await t.db.sql<{ due: Date }>(
      `SELECT digest_due_at AS due FROM users WHERE username = 'bob'`,
    );
    expect(n?.due.getTime()).toBe(due.getTime() + 86_400_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(toBob()).toHaveLength(1);
  });

  it('unsubscribes in one click from the header; opening the link alone changes nothing', async () => {
    const mail = toBob()[0];
    const header = String(mail?.headers.get('list-unsubscribe') ?? '');
    const link = /<(https:\/\/[^>]+)>/.exec(header)?.[1] ?? '';
    const local = link.replace(SITE, base);
    const page = await fetch(local);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stop these e-mails');
    expect((await api(base, bob, 'GET', '/api/account/mail')).body).toMatchObject({ notify: 'digest' });
    // What a mail program sends for RFC 8058 one-click unsubscribe.
    const post = await fetch(local, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    expect(await post.text()).toContain('No more "your move" e-mail');
    expect((await api(base, bob, 'GET', '/api/account/mail')).body).toMatchObject({ notify: 'none' });
    const bad = await fetch(`${base}/mail/unsubscribe?token=nope`, { method: 'POST' });
    expect(bad.status).toBe(404);
  });

  it('two senders on one database send each queued message exactly once', async () => {
    smtp.received.length = 0;
    for (let i = 0; i < 25; i++)
      await t.db.sql(
        `INSERT INTO mail_outbox (kind, to_address, subject, text, html) VALUES ('digest', $1, $2, 'x', '<p>x</p>')`,
        [`many${i}@example.org`, `message ${i}`],
      );
    await Promise.all([app.mail.runOnce(), other.mail.runOnce(), app.mail.runOnce(), other.mail.runOnce()]);
    await waitFor('25 messages', () => smtp.received.length >= 25, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received).toHaveLength(25);
    expect(new Set(smtp.received.map((m) => m.subject)).size).toBe(25);
  });
});
