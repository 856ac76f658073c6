/**
 * "Since you were last here" through the server: three players play order by order over Socket.IO
 * with every optional rule of section 13 on; alice marks the world seen, stays away (her orders are
 * still made, she does not look) for 10 game turns, then asks for her summary. It covers exactly
 * those turns; its battles, losses, stage changes and VP are exactly the ones in the events her own
 * socket was sent for those orders (nothing the engine kept from her); the chat line bob sent her
 * is in it and the one he sent carol is not; once marked seen, the next summary is empty. The
 * History then pages back through the whole log, saying what her socket was sent.
 */
import type { PlayerId } from '@bke/engine';
import {
  HTTP_ROUTES,
  historyPageSchema,
  type PatchMessage,
  type SinceLast,
  sinceLastSchema,
} from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, signup, TestClient } from './helpers/client.ts';
import { chooser } from './helpers/diplomacy-chooser.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { worldOfThree } from './helpers/world-of-three.ts';

const AWAY_TURNS = 10;
/** The turn alice last looks at the world. */
const LEFT_AT_TURN = 2;

let t: TestDatabase;
let app: App;
let base: string;
let worldId: string;
const cookies: string[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: { socketEvents: { burst: 10_000, perSecond: 10_000 }, replays: { burst: 1000, perMinute: 1000 } },
  }));
  const world = await worldOfThree(t, base, 'Away', 'since-last');
  worldId = world.worldId;
  cookies.push(...world.cookies);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

const path = (p: string) => p.replace(':id', worldId);
async function summary(cookie: string): Promise<SinceLast> {
  const r = await api(base, cookie, 'GET', path(HTTP_ROUTES.sinceLast.path));
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return sinceLastSchema.parse(r.body);
}

/** The summary's lines, as the events a seat was sent would give them (worlds/since-last.ts's rules). */
type Seen = { seq: number; event: { type: string; [k: string]: unknown } };
function expectedLines(sent: Seen[], me: PlayerId) {
  const out: string[] = [];
  for (const { seq, event: e } of sent) {
    if (e.type === 'combatResolved' && (e.attacker === me || e.defender === me))
      out.push(`battle ${seq} ${e.target}`);
    if (e.type === 'combatUnitsEliminated' && e.player === me) out.push(`loss ${seq}`);
    if ((e.type === 'unitsRemoved' || e.type === 'realmUnitsRemoved') && e.player === me)
      out.push(`loss ${seq}`);
    if (['cycleStarted', 'becameKingdom', 'becameEmpire', 'cycleEnded'].includes(e.type))
      out.push(`stage ${seq} ${e.player}`);
    if (e.type === 'vpGained' && e.player === me && e.vp !== 0) out.push(`vp ${seq} ${e.vp}`);
  }
  return out.sort();
}
function linesOf(s: SinceLast) {
  return s.lines
    .flatMap((l) => {
      if (l.kind === 'battle') return [`battle ${l.seq} ${l.area}`];
      if (l.kind === 'loss') return [`loss ${l.seq}`];
      if (l.kind === 'stage') return [`stage ${l.seq} ${l.player}`];
      if (l.kind === 'vp') return [`vp ${l.seq} ${l.vp}`];
      return [];
    })
    .sort();
}

describe('since you were last here', () => {
  it('a player away for 10 game turns gets exactly those turns, as she may see them', {
    timeout: 900_000,
  }, async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const players = await Promise.all(
      cookies.map(async (cookie) => {
        const client = new TestClient(base, cookie, worldId);
        clients.push(client);
        const r = await client.subscribe();
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        return { cookie, client, viewer: r.playerId as PlayerId };
      }),
    );
    const [alice, bob, carol] = players as [(typeof players)[0], (typeof players)[0], (typeof players)[0]];
    // What alice's own socket was sent, order by order.
    const sent: Seen[] = [];
    /** Everything her socket was sent since she subscribed: the History's pages must say the same. */
    const everything: Seen[] = [];
    const subscribedAt = alice.client.version;
    alice.client.socket.on('world/patch', (p: PatchMessage) => {
      for (const event of p.events as Seen['event'][]) {
        sent.push({ seq: p.to, event });
        everything.push({ seq: p.to, event });
      }
    });
    const seatOf = new Map(players.map((p) => [p.viewer, p]));
    const choose = chooser(app.hub.engine, 'since-last');
    let seenAt: { version: number; turn: number } | null = null;
    let chatted = false;
    for (let i = 0; i < 6000; i++) {
      if (seenAt === null && rt.state.turn === LEFT_AT_TURN) {
        const s = await summary(alice.cookie);
        const r = await api(base, alice.cookie, 'POST', path(HTTP_ROUTES.sinceLastSeen.path), {
          version: s.toVersion,
        });
        expect(r.status).toBe(200);
        seenAt = { version: s.toVersion, turn: rt.state.turn };
        sent.length = 0;
      }
      if (seenAt && !chatted && rt.state.turn === LEFT_AT_TURN + 3) {
        chatted = true;
        for (const [to, body] of [
          [alice.viewer, 'for alice only'],
          [carol.viewer, 'for carol only'],
        ] as const) {
          const r = await bob.client.emit('chat/send', { worldId, to, body });
          expect(r.ok, JSON.stringify(r)).toBe(true);
        }
      }
      if (seenAt && rt.state.turn === seenAt.turn + AWAY_TURNS) break;
      const player = rt.waitingFor()[0];
      if (!player) throw new Error(`nobody to play at turn ${rt.state.turn}`);
      const p = seatOf.get(player);
      if (!p) throw new Error(`nobody plays ${player}`);
      await p.client.until(rt.version);
      const r = await p.client.order(choose(rt.state, player));
      if (!r.ok) throw new Error(`${player}: ${JSON.stringify(r.error)}`);
    }
    if (!seenAt) throw new Error('alice never looked');
    await alice.client.until(rt.version);

    const s = await summary(alice.cookie);
    expect(s.player).toBe(alice.viewer);
    expect(s.fromVersion).toBe(seenAt.version);
    expect(s.toVersion).toBe(rt.version);
    expect(s.fromTurn).toBe(LEFT_AT_TURN);
    expect(s.toTurn).toBe(LEFT_AT_TURN + AWAY_TURNS);
    expect(s.turnsPassed).toBe(AWAY_TURNS);
    for (const l of s.lines) {
      expect(l.seq).toBeGreaterThanOrEqual(seenAt.version);
      expect(l.seq).toBeLessThanOrEqual(rt.version);
      expect(l.turn).toBeGreaterThanOrEqual(LEFT_AT_TURN);
      expect(l.turn).toBeLessThanOrEqual(LEFT_AT_TURN + AWAY_TURNS);
    }
    // Exactly what her socket was sent: a line from an event kept from her would show up here.
    expect(linesOf(s)).toEqual(expectedLines(sent, alice.viewer));
    expect(s.lines.some((l) => l.kind === 'battle' || l.kind === 'stage')).toBe(true);
    const chats = s.lines.filter((l) => l.kind === 'chat');
    expect(chats.map((c) => c.kind === 'chat' && [c.body, c.from])).toEqual([['for alice only', bob.viewer]]);
    expect(JSON.stringify(s)).not.toContain('for carol only');
    const vp = s.lines.flatMap((l) => (l.kind === 'vp' ? [l.vp] : []));
    expect(s.vpWon - s.vpLost).toBe(vp.reduce((a, b) => a + b, 0));

    // Each line's order is a step of its turn's replay, as alice may replay it: the link's moment.
    const replays = new Map<number, number[]>();
    for (const l of s.lines.filter((x) => x.kind !== 'chat')) {
      if (!replays.has(l.turn)) {
        const r = await api(
          base,
          alice.cookie,
          'GET',
          path(HTTP_ROUTES.replayTurn.path).replace(':turn', String(l.turn)),
        );
        expect(r.status).toBe(200);
        replays.set(
          l.turn,
          (r.body.steps as { seq: number }[]).map((x) => x.seq),
        );
      }
      expect(replays.get(l.turn), `${l.kind} at turn ${l.turn}, seq ${l.seq}`).toContain(l.seq);
    }

    // Bob's summary never names alice's private line.
    expect(JSON.stringify(await summary(bob.cookie))).not.toContain('for alice only');

    // Seen: the next summary starts where this one ended; a version beyond the world is the world as it stands.
    const marked = await api(base, alice.cookie, 'POST', path(HTTP_ROUTES.sinceLastSeen.path), {
      version: s.toVersion + 1000,
    });
    expect(marked.body).toEqual({ seenVersion: rt.version });
    const back = await api(base, alice.cookie, 'POST', path(HTTP_ROUTES.sinceLastSeen.path), { version: 0 });
    expect(back.body).toEqual({ seenVersion: rt.version });
    const again = await summary(alice.cookie);
    expect(again.turnsPassed).toBe(0);
    expect(again.lines).toEqual([]);

    // The History pages back through the whole log, as her socket was sent it.
    const pages: { seq: number; event: { type: string } }[] = [];
    let before = rt.version + 1;
    for (let i = 0; i < 1000; i++) {
      const r = await api(
        base,
        alice.cookie,
        'GET',
        `${path(HTTP_ROUTES.worldHistory.path)}?before=${before}`,
      );
      expect(r.status).toBe(200);
      const page = historyPageSchema.parse(r.body);
      expect(page.events.length).toBeLessThanOrEqual(300);
      pages.unshift(...page.events);
      if (!page.more) break;
      expect(page.events.length).toBeGreaterThan(0);
      before = page.events[0]?.seq ?? 0;
    }
    expect(pages.length).toBeGreaterThan(600);
    const fromPages = pages.filter((e) => e.seq > subscribedAt).map((e) => `${e.seq}:${e.event.type}`);
    expect(fromPages).toEqual(everything.map((e) => `${e.seq}:${e.event.type}`));

    // A spectator holds no seat: a typed refusal.
    const watcher = await signup(base, 'watcher');
    const refused = await api(base, watcher, 'GET', path(HTTP_ROUTES.sinceLast.path));
    expect(refused.status).toBe(409);
    expect((refused.body.error as { code: string }).code).toBe('world/not_seated');
  });
});
