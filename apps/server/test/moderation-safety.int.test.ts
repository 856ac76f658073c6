/**
 * Moderation's safety nets through the HTTP API and real sockets on a real database: the last admin
 * who can log in is never demoted (not even by two admins demoting each other at once); a removed
 * player is told why on their own sockets before the seat goes, and cannot join the world again
 * until a moderator allows it; a mute reaches the muted account with its end; the moderators' own
 * notices in chat cannot be reported.
 */
import { MODERATION_NOTICE_EVENT, type ModerationNotice } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { createUser } from '../src/auth/users.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let worldId: string;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const clients: TestClient[] = [];

async function login(username: string, role: 'admin' | 'moderator') {
  await createUser(t.db, username, 'password123', role);
  const r = await api(base, null, 'POST', '/api/auth/login', { username, password: 'password123' });
  if (!r.cookie) throw new Error('login failed');
  return r.cookie;
}

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 50, perMinute: 60 } } }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io, { limits: { burst: 500, perSecond: 50 } }),
  ));
  cookies.ada = await login('ada', 'admin');
  cookies.bea = await login('bea', 'admin');
  cookies.mod = await login('mod', 'moderator');
  cookies.alice = await signup(base, 'alice');
  cookies.bob = await signup(base, 'bob');
  for (const u of await t.db.prisma.user.findMany()) ids[u.username] = u.id;
  const created = await api(base, cookies.alice, 'POST', '/api/worlds', {
    name: 'Safety',
    options: { victory: 'basic' },
    deadline: { mode: 'live', minutesPerPhase: 10 },
  });
  worldId = (created.body.world as { id: string }).id;
  for (const c of [cookies.alice, cookies.bob])
    expect((await api(base, c ?? null, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const role = (who: string, to: string, as: string) =>
  api(base, cookies[as] ?? null, 'POST', `/api/moderation/users/${ids[who]}/role`, {
    reason: 'tidy up',
    role: to,
  });

describe('the last admin', () => {
  it('two admins demoting each other at once: one stays admin, the other is refused in words', async () => {
    const [a, b] = await Promise.all([role('bea', 'player', 'ada'), role('ada', 'player', 'bea')]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 403]);
    // Whichever acts second acts after the first committed: no longer an admin, and told so, the
    // same on a database that runs the two side by side as on one that serializes them.
    const refused = a.status === 403 ? a : b;
    expect(refused.body).toMatchObject({ error: { code: 'auth/forbidden', needs: 'admin' } });
    const admins = await t.db.prisma.user.count({ where: { role: 'admin' } });
    expect(admins).toBe(1);
  });

  it('the last admin cannot be banned either, and a new admin lifts the bar', async () => {
    const admin = (await t.db.prisma.user.findFirstOrThrow({ where: { role: 'admin' } })).username;
    const other = admin === 'ada' ? 'bea' : 'ada';
    // The demoted one is a player now: make the moderator an admin through the remaining admin.
    expect((await role('mod', 'admin', admin)).status).toBe(200);
    expect((await role(admin, 'player', 'mod')).status).toBe(200);
    const ban = await api(base, cookies.mod ?? null, 'POST', `/api/moderation/users/${ids.mod}/ban`, {
      reason: 'locking the site',
    });
    // Acting on oneself is refused before anything else.
    expect(ban.body).toMatchObject({ error: { code: 'auth/forbidden' } });
    expect(await t.db.prisma.user.count({ where: { role: 'admin' } })).toBe(1);
    expect(other).not.toBe(admin);
  });
});

describe('removal, consent, mutes and notices', () => {
  let mod: string;
  beforeAll(async () => {
    mod = cookies.mod ?? '';
  });

  it('tells the removed player why on their own socket, then refuses their rejoin until consent', async () => {
    const bob = new TestClient(base, cookies.bob ?? null, worldId);
    const alice = new TestClient(base, cookies.alice ?? null, worldId);
    clients.push(bob, alice);
    await bob.subscribe();
    await alice.subscribe();
    const toBob: ModerationNotice[] = [];
    const toAlice: ModerationNotice[] = [];
    bob.socket.on(MODERATION_NOTICE_EVENT, (n: ModerationNotice) => toBob.push(n));
    alice.socket.on(MODERATION_NOTICE_EVENT, (n: ModerationNotice) => toAlice.push(n));
    const seat = await t.db.prisma.worldSeat.findFirstOrThrow({ where: { worldId, userId: ids.bob } });
    const removed = await api(
      base,
      mod,
      'POST',
      `/api/moderation/worlds/${worldId}/seats/${seat.playerId}/remove`,
      { reason: 'threats in chat' },
    );
    expect(removed.status).toBe(200);
    await waitFor('the personal notice', () => toBob.some((n) => n.personal));
    expect(toBob.find((n) => n.personal)).toMatchObject({
      action: 'seat.remove',
      worldId,
      worldName: 'Safety',
      reason: 'threats in chat',
      personal: true,
    });
    // The others hear of it in the world's room, not as something done to them.
    await waitFor('the world notice', () => toAlice.length > 0);
    expect(toAlice.every((n) => !n.personal)).toBe(true);

    const again = await api(base, cookies.bob ?? null, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ error: { code: 'world/removed' } });

    const consent = await api(
      base,
      mod,
      'POST',
      `/api/moderation/worlds/${worldId}/seats/${seat.playerId}/allow-rejoin`,
      { reason: 'apologised' },
    );
    expect(consent.status).toBe(200);
    const back = await api(base, cookies.bob ?? null, 'POST', `/api/worlds/${worldId}/join`, {});
    expect(back.status).toBe(200);
    // Consent for someone never removed is refused in words.
    const alicesSeat = await t.db.prisma.worldSeat.findFirstOrThrow({
      where: { worldId, userId: ids.alice },
    });
    const pointless = await api(
      base,
      mod,
      'POST',
      `/api/moderation/worlds/${worldId}/seats/${alicesSeat.playerId}/allow-rejoin`,
      { reason: 'just in case' },
    );
    expect(pointless.body).toMatchObject({ error: { code: 'moderation/not_removed' } });
  });

  it('tells a muted player until when, on every socket of the account', async () => {
    const alice = new TestClient(base, cookies.alice ?? null, worldId);
    clients.push(alice);
    await alice.subscribe();
    const told: ModerationNotice[] = [];
    alice.socket.on(MODERATION_NOTICE_EVENT, (n: ModerationNotice) => told.push(n));
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const r = await api(base, mod, 'POST', `/api/moderation/users/${ids.alice}/mute`, {
      reason: 'shouting',
      until,
    });
    expect(r.status).toBe(200);
    await waitFor('the mute notice', () => told.length > 0);
    expect(told[0]).toMatchObject({ action: 'user.mute', reason: 'shouting', until, personal: true });
    const said = await alice.emit('chat/send', { worldId, body: 'can anyone hear me' });
    expect(said).toMatchObject({ ok: false, error: { code: 'chat/muted', until } });
  });

  it("refuses a report of the moderators' own notice", async () => {
    const paused = await api(base, mod, 'POST', `/api/moderation/worlds/${worldId}/pause`, {
      reason: 'maintenance',
    });
    expect(paused.status).toBe(200);
    const notice = await t.db.prisma.chatMessage.findFirstOrThrow({
      where: { worldId, system: true },
      orderBy: { id: 'desc' },
    });
    expect(notice.body).toContain('maintenance');
    const report = await api(base, cookies.bob ?? null, 'POST', '/api/reports', {
      reason: 'I disagree',
      chatMessageId: notice.id.toString(),
    });
    expect(report.status).toBe(403);
    expect(report.body).toMatchObject({ error: { code: 'moderation/not_reportable' } });
    // It reaches the players marked as a notice, so their screens offer no report button.
    const bob = new TestClient(base, cookies.bob ?? null, worldId);
    clients.push(bob);
    const sub = await bob.subscribe();
    if (!sub.ok) throw new Error('subscribe failed');
    expect(sub.chat.find((m) => m.id === notice.id.toString())).toMatchObject({ system: true });
  });
});
