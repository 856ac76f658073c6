/**
 * Hidden information over real sockets: three players and a spectator follow a world with every
 * optional rule of section 13 on, played order by order through Socket.IO against the real server
 * and database. After every order, every message each of them received — patches, full views,
 * acknowledgements, catch-ups, a stale order's answer, a late subscriber's recent events — is
 * searched for another player's private information: a lease offer between two others (13.4, its
 * events and the lease itself until it runs), a standing bid (13.3) or an economic plan not yet
 * carried out (4.5). And each viewer's copy, rebuilt from its own messages, is exactly the
 * engine's view for that viewer: its own private part reaches it, no one else's does.
 */

import { createHash } from 'node:crypto';
import { type GameState, initialRealmPlayer, type PlayerId } from '@bke/engine';
import { applyPatch, type TurnReplay } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, TestClient } from './helpers/client.ts';
import { chooser } from './helpers/diplomacy-chooser.ts';
import { isObj, leaks, PRIVATE_STATUSES } from './helpers/hidden-leaks.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { worldOfThree } from './helpers/world-of-three.ts';

/** Game turns played: kingdoms rise (and barbarians lease them units) around turn 9–12. */
const TURNS = 14;

let t: TestDatabase;
let app: App;
let base: string;
let worldId: string;
const cookies: string[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, {
    limits: {
      authPerAddress: { burst: 30, perMinute: 0.6 },
      // The test plays hundreds of orders as fast as the machine allows; the per-account event limit is tested elsewhere.
      socketEvents: { burst: 10_000, perSecond: 10_000 },
      // It replays every turn for every viewer from one address; the replay limit is tested elsewhere.
      replays: { burst: 10_000, perMinute: 10_000 },
    },
  }));
  const world = await worldOfThree(t, base, 'Sealed', 'hidden-information');
  worldId = world.worldId;
  cookies.push(...world.cookies);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

/** What one viewer was sent, message by message (events and acknowledgements alike). */
interface Watcher {
  readonly client: TestClient;
  readonly viewer: PlayerId | null;
  readonly inbox: { what: string; body: unknown }[];
}

async function watch(cookie: string | null): Promise<Watcher> {
  const client = new TestClient(base, cookie, worldId);
  clients.push(client);
  const inbox: Watcher['inbox'] = [];
  client.socket.onAny((event: string, body: unknown) => inbox.push({ what: event, body }));
  const r = await client.subscribe();
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  inbox.push({ what: 'subscribe ack', body: r });
  return { client, viewer: r.playerId as PlayerId | null, inbox };
}

/** The leaks in one received message: a patch's ops are searched where they apply in the view. */
function leaksIn(message: { what: string; body: unknown }, viewer: PlayerId | null): string[] {
  const out: string[] = [];
  const search = (m: unknown) => {
    if (isObj(m) && Array.isArray(m.ops))
      for (const op of m.ops as { path: string; value?: unknown }[]) leaks(op.value, op.path, viewer, out);
    if (isObj(m) && 'view' in m) leaks(m.view, '', viewer, out);
    const rest = isObj(m)
      ? Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'ops' && k !== 'view'))
      : m;
    leaks(rest, '', viewer, out);
  };
  const body = message.body;
  search(body);
  // Acknowledgements nest their patches (a catch-up, a stale order's answer).
  if (isObj(body) && isObj(body.sync)) {
    search(body.sync);
    if (Array.isArray(body.sync.patches)) for (const p of body.sync.patches) search(p);
  }
  if (isObj(body) && isObj(body.error) && Array.isArray(body.error.patches))
    for (const p of body.error.patches) search(p);
  if (isObj(body) && Array.isArray(body.patches)) for (const p of body.patches) search(p);
  return out.map((l) => `${message.what} ${l}`);
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
/** A view's fingerprint whatever the order of its keys (a patched copy orders them as it went). */
function fingerprint(v: unknown): string {
  const canon = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(canon)
      : isObj(x)
        ? Object.fromEntries(
            Object.keys(x)
              .filter((k) => x[k] !== undefined)
              .sort()
              .map((k) => [k, canon(x[k])]),
          )
        : x;
  return createHash('sha1')
    .update(JSON.stringify(canon(plain(v))))
    .digest('hex');
}
/** Per viewer ('' for the spectator), the fingerprint of the view it held at each version. */
const held = new Map<string, Map<number, string>>();
/** The turn the sealed bid was put in place outside the log: replays from then on differ. */
let bidTurn = Number.POSITIVE_INFINITY;

describe('hidden information, over real sockets, with every optional rule on', () => {
  // About 350 orders, each checked in four viewers' messages: minutes on a busy machine.
  it('no message any viewer receives holds another player’s lease offers, bids or plans', {
    timeout: 600_000,
  }, async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const engine = app.hub.engine;
    const watchers = [...(await Promise.all(cookies.map((c) => watch(c)))), await watch(null)];
    const seats = new Map(watchers.filter((w) => w.viewer).map((w) => [w.viewer!, w]));
    expect(seats.size).toBe(3);
    const choose = chooser(engine);
    const seen = { leaseOffered: 0, offersHeld: 0, plans: 0, bids: 0, stale: 0, orders: 0 };
    let sealedBidPlaced = false;

    const check = async () => {
      for (const w of watchers) {
        await w.client.until(rt.version);
        const found = w.inbox.flatMap((m) => leaksIn(m, w.viewer));
        expect(found, `what ${w.viewer ?? 'the spectator'} received`).toEqual([]);
        for (const m of w.inbox) {
          const text = JSON.stringify(m.body);
          if (w.viewer && text.includes('"leaseOffered"')) seen.leaseOffered++;
        }
        w.inbox.length = 0;
        // The copy rebuilt from its own messages is the engine's view for this viewer, no more, no less.
        expect(plain(w.client.view)).toEqual(plain(engine.view(rt.state, w.viewer)));
        const mine = held.get(w.viewer ?? '') ?? new Map<number, string>();
        held.set(w.viewer ?? '', mine.set(rt.version, fingerprint(w.client.view)));
      }
    };

    for (let i = 0; i < 3000 && rt.state.turn <= TURNS; i++) {
      const player = rt.waitingFor()[0];
      if (!player) break;
      const w = seats.get(player);
      if (!w) throw new Error(`nobody plays ${player}`);
      // A standing bid needs an empire short of upkeep, rare in a short game: one is put in place
      // once, as its order would record it (13.3), and must then reach its maker alone.
      if (!sealedBidPlaced && rt.state.turn >= 6) {
        sealedBidPlaced = true;
        bidTurn = rt.state.turn;
        const realm = rt.state.realm!;
        const bid = {
          bidder: player,
          auctioneer: player === 'p1' ? 'p2' : 'p1',
          kind: 'infantry',
          amount: 3,
        };
        const mine = {
          ...initialRealmPlayer(),
          ...(realm.players[player] ?? {}),
          bids: { turn: rt.state.turn, list: [bid] },
        };
        rt.state = {
          ...rt.state,
          realm: { ...realm, players: { ...realm.players, [player]: mine } },
        } as GameState;
      }
      const order = choose(rt.state, player);
      // Now and then the order is made against an older version: the answer carries patches.
      if (i % 37 === 5 && rt.version > 1) {
        const stale = await w.client.order(order, rt.version - 1);
        w.inbox.push({ what: 'stale answer', body: stale });
        expect(stale.ok).toBe(false);
        seen.stale++;
      }
      const r = await w.client.order(order);
      w.inbox.push({ what: 'order ack', body: r });
      if (!r.ok) throw new Error(`${player} ${JSON.stringify(order)}: ${JSON.stringify(r.error)}`);
      seen.orders++;
      await check();
      const realm = rt.state.realm;
      seen.offersHeld += (realm?.leases ?? []).filter((l) => PRIVATE_STATUSES.has(l.status)).length;
      seen.plans += Object.values(realm?.players ?? {}).filter((p) => p.plan).length;
      seen.bids += Object.values(realm?.players ?? {}).filter((p) => p.bids?.list.length).length;
    }

    // A reload and a late subscriber: a catch-up from an older version, and a fresh view with the
    // world's recent events, for each viewer.
    for (const w of watchers) {
      const back = await w.client.subscribe(Math.max(0, rt.version - 30));
      w.inbox.push({ what: 'catch-up', body: back });
      const fresh = await watch(w.client.cookie);
      expect(fresh.viewer).toBe(w.viewer);
      expect(fresh.inbox.flatMap((m) => leaksIn(m, fresh.viewer))).toEqual([]);
    }
    await check();

    // The secrets were there to keep: offers made and held, plans given, a bid standing; their
    // parties saw the offers (the search above could fail).
    expect(seen.orders).toBeGreaterThan(200);
    expect(seen.leaseOffered).toBeGreaterThan(0);
    expect(seen.offersHeld).toBeGreaterThan(0);
    expect(seen.plans).toBeGreaterThan(0);
    expect(seen.bids).toBeGreaterThan(0);
    expect(seen.stale).toBeGreaterThan(0);
  });

  // Runs on the world the test above played.
  it('a replayed turn shows each viewer what it was sent then, order by order, and nothing more', {
    timeout: 300_000,
  }, async () => {
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const seats = await t.db.prisma.worldSeat.findMany({
      where: { worldId },
      select: { playerId: true, user: { select: { username: true } } },
    });
    const seatOf = (name: string) => seats.find((x) => x.user?.username === name)?.playerId ?? '?';
    const viewers: { cookie: string | null; viewer: string }[] = [
      ...['alice', 'bob', 'carol'].map((name, i) => ({ cookie: cookies[i] ?? null, viewer: seatOf(name) })),
      { cookie: null, viewer: '' },
    ];
    let compared = 0;
    for (let turn = 1; turn <= Math.min(TURNS, rt.state.turn); turn++) {
      for (const { cookie, viewer } of viewers) {
        const r = await api(base, cookie, 'GET', `/api/worlds/${worldId}/replay/${turn}`);
        expect(r.status, `turn ${turn} for ${viewer || 'the spectator'}`).toBe(200);
        const replay = r.body as unknown as TurnReplay;
        const who = (viewer || null) as PlayerId | null;
        expect(leaks(replay.start.view, '', who)).toEqual([]);
        expect(replay.steps.length).toBeGreaterThan(0);
        let view: unknown = replay.start.view;
        for (const step of replay.steps) {
          expect(leaksIn({ what: `replay ${turn} step ${step.seq}`, body: step }, who)).toEqual([]);
          view = applyPatch(view, step.ops);
          // Before the bid placed outside the log, the log rebuilds exactly what was sent then.
          const then = held.get(viewer)?.get(step.seq);
          if (turn < bidTurn && then !== undefined) {
            expect(fingerprint(view), `turn ${turn}, order ${step.seq}, ${viewer || 'spectator'}`).toBe(then);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    // A turn not played yet, and a malformed one, are refused in words.
    expect((await api(base, null, 'GET', `/api/worlds/${worldId}/replay/999`)).status).toBe(404);
    expect((await api(base, null, 'GET', `/api/worlds/${worldId}/replay/x`)).status).toBe(404);
  });

  it('the search finds a leak when there is one (the check can fail)', () => {
    const offer = { type: 'leaseOffered', owner: 'p1', hirer: 'p2', units: ['u1'], price: 3 };
    expect(leaksIn({ what: 'patch', body: { events: [offer] } }, 'p3' as PlayerId)).toHaveLength(1);
    expect(leaksIn({ what: 'patch', body: { events: [offer] } }, 'p2' as PlayerId)).toEqual([]);
    const plan = { op: 'replace', path: '/realm/players/p1/plan', value: { adminPercent: 20 } };
    expect(leaksIn({ what: 'patch', body: { ops: [plan] } }, null)).toHaveLength(1);
    const entry = { op: 'add', path: '/realm/players/p1', value: { plan: null, bids: { list: [] } } };
    expect(leaksIn({ what: 'patch', body: { ops: [entry] } }, 'p2' as PlayerId)).not.toEqual([]);
    expect(leaksIn({ what: 'patch', body: { ops: [entry] } }, 'p1' as PlayerId)).toEqual([]);
  });
});
