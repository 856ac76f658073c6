/**
 * The load generator, in its own process: real Socket.IO clients (socket.io-client), signed in as
 * the worlds' players, sending the simulator's scripted orders at a fixed offered rate per world
 * (open loop: each latency is taken from the order's scheduled time, so a server that falls behind
 * is charged for the wait) or as fast as acknowledgements come back (closed loop, for throughput).
 * It counts every byte each player's socket receives — patches, private views, legal orders,
 * status, acknowledgements — and files them under the world version they belong to.
 */
import { createHash } from 'node:crypto';
import { followPatch } from '@bke/protocol';
import { io as connect, type Socket } from 'socket.io-client';
import { canonical, type ScriptedOrder } from '../fixtures/fixture.ts';
import { cpuMs, serve } from '../lib/child.ts';
import { type SentOrder, tailProbed } from '../lib/tail.ts';
import type { WorldSpec } from './server.ts';

/**
 * How long an answer may take before the order counts as unacknowledged (and the round goes on):
 * a server that never answers must show as a failure, not hang the suite.
 */
const ACK_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Where a timing that was due at `due` starts: when it was due, or now if the wait for it ended
 * early. Node truncates a timer's fractional milliseconds (and the loop's clock counts whole ones),
 * so a wait may end up to a millisecond before it was due; timed from `due`, a reply under a
 * millisecond (the bare baseline's) would then read near zero or below it.
 */
const originOf = (due: number): number => Math.min(due, performance.now());

function open(url: string, opts: { cookie?: string; auth?: Record<string, unknown> } = {}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: 30_000,
      ...(opts.cookie ? { extraHeaders: { cookie: opts.cookie } } : {}),
      ...(opts.auth ? { auth: opts.auth } : {}),
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** The version a server message belongs to (patch `to`, or `version`), if any. */
const versionOf = (m: unknown): number | null => {
  if (!m || typeof m !== 'object') return null;
  const o = m as { to?: unknown; version?: unknown };
  return typeof o.to === 'number' ? o.to : typeof o.version === 'number' ? o.version : null;
};
/** Whether a message brings the player the change itself (a patch, or a fresh view instead of it). */
const carriesChange = (event: string, m: unknown) =>
  event === 'p' || (m !== null && typeof m === 'object' && ('ops' in m || 'view' in m));

interface Player {
  playerId: string;
  socket: Socket;
  cookie: string;
  /** The newest version whose change this socket has. */
  seen: number;
  /** Bytes received per version. */
  bytes: Map<number, number>;
  largest: number;
  fullViewBytes: number;
  view: unknown;
  version: number;
  /** Sends waiting for this player to have seen a version (`seeFirst` groups). */
  awaiting: { v: number; resolve: () => void }[];
}

interface World {
  id: string;
  room: string;
  players: Player[];
  version: number;
  cursor: number;
  script: ScriptedOrder[];
  waiters: { v: number; resolve: () => void }[];
}

interface Group {
  target: 'server' | 'bare';
  url: string;
  worlds: World[];
  seeFirst?: boolean;
}

const groups = new Map<string, Group>();
const scripts = new Map<string, ScriptedOrder[]>();

/**
 * Players' sockets lost while the load ran: the heartbeat (a ping every 4 s, given up after 9 s
 * without one) fails when a process is starved of CPU, or the server closed them. Each is a failure
 * the scenarios report, and the player comes back as the web client does (a new socket, subscribed
 * again from the version it held), so that the run goes on.
 */
const drops: { reason: string; at: number }[] = [];

function watch(world: World, p: Player, target: 'server' | 'bare', url: string) {
  const socket = p.socket;
  socket.on('disconnect', (reason: string) => {
    // Closed by the load generator itself (the end of a group, a reconnect being measured).
    if (reason === 'io client disconnect' || p.socket !== socket) return;
    drops.push({ reason, at: performance.now() });
    if (drops.length <= 3) console.error(`[bench] load: a player's socket was lost (${reason}); it rejoins`);
    void rejoin(world, p, target, url).catch((e) =>
      console.error(`[bench] load: rejoin failed: ${String(e)}`),
    );
  });
  let lastPacket = 0;
  p.socket.io.engine.on('packet', (pkt: { data?: unknown }) => {
    lastPacket =
      typeof pkt.data === 'string'
        ? Buffer.byteLength(pkt.data)
        : pkt.data instanceof ArrayBuffer
          ? pkt.data.byteLength
          : 0;
  });
  (p.socket as unknown as { lastPacket: () => number }).lastPacket = () => lastPacket;
  p.socket.onAny((event: string, msg: unknown) => {
    const v = versionOf(msg);
    p.largest = Math.max(p.largest, lastPacket);
    if (v === null) return;
    p.bytes.set(v, (p.bytes.get(v) ?? 0) + lastPacket);
    // The player's copy of its view, kept as the client keeps it (the reconnect metric checks it).
    const m = msg as { ops?: unknown[]; view?: unknown; from?: number; to?: number; version?: number };
    if (Array.isArray(m.ops) && typeof m.to === 'number' && typeof m.from === 'number' && p.view !== null) {
      // A gap or a patch that does not fit leaves the copy as it is: the next whole view mends it.
      const step = followPatch(p.view, p.version, { from: m.from, to: m.to, ops: m.ops });
      if (step.kind === 'applied') {
        p.view = step.view;
        p.version = step.version;
      }
    } else if (m.view !== undefined && typeof m.version === 'number' && m.version >= p.version) {
      p.view = m.view;
      p.version = m.version;
    }
    if (carriesChange(event, msg) && v > p.seen) {
      p.seen = v;
      for (const a of p.awaiting.filter((x) => x.v <= v)) {
        p.awaiting.splice(p.awaiting.indexOf(a), 1);
        a.resolve();
      }
      const least = Math.min(...world.players.map((q) => q.seen));
      for (const w of world.waiters.filter((x) => x.v <= least)) {
        world.waiters.splice(world.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
}

type SyncAnswer = {
  ok: boolean;
  sync?: {
    kind: string;
    version?: number;
    view?: unknown;
    patches?: { ops: unknown[]; from: number; to: number }[];
  };
};

/** A new socket for `p`, subscribed to `w` from the version `p` holds, its view brought up to date. */
async function resubscribe(url: string, w: World, p: Player): Promise<Socket> {
  const s = await open(url, { cookie: p.cookie });
  const r = (await s
    .timeout(ACK_TIMEOUT_MS)
    .emitWithAck('world/subscribe', { worldId: w.id, version: p.version })) as SyncAnswer;
  if (!r.ok || !r.sync) throw new Error('subscribe refused');
  if (r.sync.kind === 'view') {
    p.view = r.sync.view;
    p.version = r.sync.version ?? p.version;
  } else
    for (const patch of r.sync.patches ?? []) {
      const step = followPatch(p.view, p.version, patch);
      if (step.kind === 'gap' || step.kind === 'drift')
        throw new Error(`the server's catch-up patch ${patch.from}→${patch.to} does not follow ${p.version}`);
      if (step.kind === 'applied') {
        p.view = step.view;
        p.version = step.version;
      }
    }
  return s;
}

async function rejoin(w: World, p: Player, target: 'server' | 'bare', url: string): Promise<void> {
  let s: Socket;
  if (target === 'server') {
    s = await resubscribe(url, w, p);
    p.seen = Math.max(p.seen, p.version);
  } else {
    s = await open(url);
    await s.timeout(ACK_TIMEOUT_MS).emitWithAck('join', w.room);
  }
  p.socket = s;
  watch(w, p, target, url);
}

interface OpenRequest {
  group: string;
  target: 'server' | 'bare';
  url: string;
  /**
   * Several server processes of one site (the server only): each player connects to one of them,
   * as a proxy would send it — all of a world's players to one process (`world`, a proxy that
   * routes by world), or player after player in turn (`seat`, round robin with sticky sessions).
   */
  spread?: { urls: string[]; by: 'world' | 'seat' };
  /**
   * Each order waits until its sender has seen the version it is made against, as a page does
   * (it orders from what it shows). Without it the next order follows the last acknowledgement at
   * once, which only one process can answer in step: another process may not have heard of that
   * version yet.
   */
  seeFirst?: boolean;
  script: string;
  /** Server: the worlds to play in. Bare: how many rooms of six. */
  worlds: WorldSpec[] | number;
}

/** One player's socket, signed in and subscribed to `world` (a room of the bare server). */
async function seatPlayer(
  req: OpenRequest,
  url: string,
  world: World,
  room: string,
  seat: { playerId: string; cookie: string },
): Promise<Player> {
  const socket = await open(url, seat.cookie ? { cookie: seat.cookie } : {});
  const p: Player = {
    playerId: seat.playerId,
    socket,
    cookie: seat.cookie,
    seen: 0,
    bytes: new Map(),
    largest: 0,
    fullViewBytes: 0,
    view: null,
    version: 0,
    awaiting: [],
  };
  try {
    if (req.target === 'server') {
      const r = (await socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck('world/subscribe', { worldId: world.id })) as {
        ok: boolean;
        sync?: { version: number; view: unknown };
        error?: unknown;
      };
      if (!r.ok || !r.sync) throw new Error(`subscribe refused: ${JSON.stringify(r.error)}`);
      p.fullViewBytes = JSON.stringify(r.sync.view).length;
      p.view = r.sync.view;
      p.version = r.sync.version;
      p.seen = r.sync.version;
      world.version = r.sync.version;
    } else await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('join', room);
  } catch (e) {
    socket.disconnect();
    throw e;
  }
  return p;
}

/** The process the `k`th player of world `n` connects to. */
function urlOf(req: OpenRequest, n: number, k: number): string {
  if (!req.spread) return req.url;
  const { urls, by } = req.spread;
  return urls[(by === 'world' ? n : n * 6 + k) % urls.length]!;
}

async function openGroup(req: OpenRequest) {
  const drops0 = drops.length;
  const script = scripts.get(req.script) ?? [];
  const worlds: World[] = [];
  const specs = typeof req.worlds === 'number' ? Array.from({ length: req.worlds }, () => null) : req.worlds;
  let i = 0;
  const queue = [...specs.entries()];
  // Eight worlds set up at a time.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [n, spec] = next;
        const room = `${req.group}-${n}`;
        const world: World = {
          id: spec?.worldId ?? room,
          room,
          players: [],
          version: 0,
          cursor: 0,
          script,
          waiters: [],
        };
        const seats =
          spec?.players ?? Array.from({ length: 6 }, (_, k) => ({ playerId: `p${k + 1}`, cookie: '' }));
        for (const [k, seat] of seats.entries()) {
          const url = urlOf(req, n, k);
          // A socket lost while it subscribes (the heartbeat gave up on it) is counted like one
          // lost later, and the player tries again, as the web client would.
          let p: Player | null = null;
          for (let attempt = 1; !p; attempt++) {
            try {
              p = await seatPlayer(req, url, world, room, seat);
            } catch (e) {
              if (attempt >= 3 || !String(e).includes('disconnected')) throw e;
              drops.push({ reason: 'lost while subscribing', at: performance.now() });
            }
          }
          world.players.push(p);
          watch(world, p, req.target, url);
        }
        worlds[n] = world;
        i++;
      }
    }),
  );
  groups.set(req.group, { target: req.target, url: req.url, worlds, seeFirst: req.seeFirst ?? false });
  // Every copy of a fixture plays the same script: left alone, all would reach their turn ends at
  // the same moment, which real worlds never do. Each world is first moved on by a different
  // number of orders (unmeasured), so that their turn ends fall at different times.
  if (req.target === 'server')
    await Promise.all(
      worlds.map(async (w, n) => {
        for (let k = 0; k < (n * 7) % 45; k++)
          // An order lost with its socket (counted among the drops) does not stop the others.
          await sendNext({ target: 'server', seeFirst: req.seeFirst }, w, performance.now()).catch(() =>
            sleep(50),
          );
      }),
    );
  return {
    worlds: i,
    fullViewBytes: worlds.flatMap((w) => w.players.map((p) => p.fullViewBytes)),
    dropped: drops.length - drops0,
  };
}

/** BENCH_TAIL: each order sent to the server under test since last asked (lib/tail.ts). */
const tailing = tailProbed();
const sentOrders: SentOrder[] = [];

interface Sent {
  ack: number;
  last: Promise<number>;
  version: number;
}

/** Sends a world's next scripted order; resolves at the acknowledgement. */
async function sendNext(
  g: { target: 'server' | 'bare'; seeFirst?: boolean },
  w: World,
  scheduled: number,
  db = true,
): Promise<Sent> {
  const step = w.script[w.cursor % Math.max(1, w.script.length)];
  if (!step) throw new Error('no script');
  if (g.target === 'server' && w.cursor >= w.script.length) throw new Error(`world ${w.id}: script used up`);
  w.cursor++;
  const actor = w.players.find((p) => p.playerId === step.actor) ?? w.players[0];
  if (!actor) throw new Error('no player');
  if (g.seeFirst && actor.seen < w.version) await untilSeen(actor, w.version);
  let r: { ok: boolean; version?: number; error?: { code: string; version?: number } };
  const sent = { key: `${w.id}:${w.version}`, sent: performance.timeOrigin + performance.now() };
  if (g.target === 'server') {
    r = await actor.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('world/order', {
      worldId: w.id,
      version: w.version,
      order: step.order,
    });
  } else {
    // The same order, and a body of the bytes its public patch has, for the room emit.
    const body = { worldId: w.id, version: w.version, order: step.order, patch: 'x'.repeat(step.patchBytes) };
    r = await actor.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('echo', { room: w.room, db, body });
  }
  const ack = performance.now() - scheduled;
  if (tailing && g.target === 'server')
    sentOrders.push({
      ...sent,
      due: performance.timeOrigin + scheduled,
      answered: performance.timeOrigin + scheduled + ack,
    });
  if (!r.ok || typeof r.version !== 'number') {
    if (g.seeFirst && r.error?.code === 'sync/stale') {
      // The sender's process had not heard of the version yet: the same order goes again next.
      w.cursor--;
      if (r.error.version !== undefined) w.version = Math.max(w.version, r.error.version);
    } else if (r.error?.version !== undefined) w.version = r.error.version;
    throw new Error(`order refused: ${JSON.stringify(r.error)}`);
  }
  const v = r.version;
  const ackBytes = (actor.socket as unknown as { lastPacket?: () => number }).lastPacket?.() ?? 0;
  actor.bytes.set(v, (actor.bytes.get(v) ?? 0) + ackBytes);
  w.version = v;
  const least = Math.min(...w.players.map((p) => p.seen));
  const last =
    least >= v
      ? Promise.resolve(performance.now() - scheduled)
      : new Promise<number>((resolve) =>
          w.waiters.push({ v, resolve: () => resolve(performance.now() - scheduled) }),
        );
  return { ack, last, version: v };
}

/** Until `p` has seen version `v` (or the acknowledgement's time-out passed: the order then finds out). */
function untilSeen(p: Player, v: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ACK_TIMEOUT_MS);
    p.awaiting.push({
      v,
      resolve: () => {
        clearTimeout(timer);
        resolve();
      },
    });
  });
}

interface LatencyRequest {
  group: string;
  worlds: number;
  ratePerWorld: number;
  seconds: number;
}

async function latency(req: LatencyRequest) {
  const g = groups.get(req.group);
  if (!g) throw new Error(`no group ${req.group}`);
  const worlds = g.worlds.slice(0, req.worlds);
  const period = 1000 / req.ratePerWorld;
  const acks: number[] = [];
  const lasts: Promise<number>[] = [];
  const versions: { w: World; v: number }[] = [];
  let errors = 0;
  const drops0 = drops.length;
  const cpu0 = cpuMs();
  const t0 = performance.now() + 100;
  const end = t0 + req.seconds * 1000;
  await Promise.all(
    worlds.map(async (w) => {
      let next = t0 + Math.random() * period;
      while (next < end) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        try {
          const s = await sendNext(g, w, originOf(next));
          acks.push(s.ack);
          lasts.push(s.last);
          versions.push({ w, v: s.version });
        } catch (e) {
          errors++;
          if (errors <= 3) console.error(`[bench] load: ${String(e)}`);
        }
        next += period;
      }
    }),
  );
  const last = await Promise.race([Promise.all(lasts), sleep(10_000).then(() => null)]);
  await sleep(300); // messages sent after the last patch (legal orders, status) still arrive
  // Bytes per order per player, and per order for the whole world.
  const perPlayer: number[] = [];
  const perPlayerRatio: number[] = [];
  const perOrder: number[] = [];
  let largest = 0;
  for (const { w, v } of versions) {
    let sum = 0;
    for (const p of w.players) {
      const b = p.bytes.get(v) ?? 0;
      sum += b;
      perPlayer.push(b);
      if (p.fullViewBytes > 0) perPlayerRatio.push(b / p.fullViewBytes);
      largest = Math.max(largest, p.largest);
    }
    perOrder.push(sum);
  }
  for (const w of worlds) for (const p of w.players) p.bytes.clear();
  return {
    ack: acks,
    last: last ?? [],
    lostPatches: last === null ? lasts.length : 0,
    orders: acks.length,
    errors,
    perPlayer,
    perPlayerRatio,
    perOrder,
    largest,
    cpuMs: cpuMs() - cpu0,
    dropped: drops.length - drops0,
  };
}

/** Every world sends its next order as soon as the previous one is acknowledged (saturation). */
async function throughput(req: { group: string; worlds: number; seconds: number; db?: boolean }) {
  const g = groups.get(req.group);
  if (!g) throw new Error(`no group ${req.group}`);
  const worlds = g.worlds.slice(0, req.worlds);
  let orders = 0;
  let errors = 0;
  const drops0 = drops.length;
  const t0 = performance.now();
  const end = t0 + req.seconds * 1000;
  await Promise.all(
    worlds.map(async (w) => {
      while (performance.now() < end) {
        try {
          await sendNext(g, w, performance.now(), req.db ?? true);
          orders++;
        } catch (e) {
          errors++;
          if (errors <= 3) console.error(`[bench] load: ${String(e)}`);
          await sleep(50);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const w of worlds) for (const p of w.players) p.bytes.clear();
  return { orders, errors, seconds, dropped: drops.length - drops0 };
}

const idle: Socket[] = [];

/** The session the bare server looks up for every reconnecting client (processes/bare.ts). */
const BARE_TOKEN = 'bare-bench-session';

interface ReconnectRequest {
  group: string;
  clients: number;
  spreadMs: number;
  /**
   * Clients behind by this many versions: each world moves on that far while its clients' copies
   * stay where they were (as if they had been away), then they come back and catch up.
   */
  behind?: number;
}

/** Reconnects: each client drops its socket, connects again and resyncs from the version it held. */
async function reconnect(req: ReconnectRequest) {
  const g = groups.get(req.group);
  if (!g) throw new Error(`no group ${req.group}`);
  const players = g.worlds.flatMap((w) => w.players.map((p) => ({ w, p }))).slice(0, req.clients);
  /** How far behind each client came back (the storms that catch up). */
  const behindBy: number[] = [];
  if (req.behind && g.target === 'server') {
    const held = players.map(({ w, p }) => ({ w, p, view: structuredClone(p.view), version: p.version }));
    const worlds = [...new Set(players.map((x) => x.w))];
    // A world whose script no longer fits (an order of an earlier round went unanswered but was
    // committed) stops where it is: its clients are then less far behind, which the answer says.
    await Promise.all(
      worlds.map(async (w) => {
        try {
          // The acknowledgement only: sockets of earlier storms do not follow patches (their copies are set back anyway).
          for (let i = 0; i < (req.behind ?? 0); i++) await sendNext(g, w, performance.now());
        } catch (e) {
          console.error(`[bench] load: world ${w.id} moved on less than ${req.behind}: ${String(e)}`);
        }
      }),
    );
    for (const h of held) behindBy.push(h.w.version - h.version);
    for (const h of held) {
      h.p.view = h.view;
      h.p.version = h.version;
    }
  }
  const lat: number[] = [];
  let dropped = 0;
  let mismatched = 0;
  const resynced: Player[] = [];
  // Key order is not part of a view's content (a patch's `add` appends keys): compared canonically.
  const digest = (x: unknown) => createHash('sha1').update(canonical(x)).digest('hex');
  await Promise.all(
    players.map(async ({ w, p }, i) => {
      const due = performance.now() + (req.spreadMs * i) / Math.max(1, players.length);
      await sleep(due - performance.now());
      const scheduled = originOf(due);
      p.socket.disconnect();
      try {
        if (g.target === 'server') {
          const s = await resubscribe(g.url, w, p);
          lat.push(performance.now() - scheduled);
          p.socket = s;
          resynced.push(p);
        } else {
          const s = await new Promise<Socket>((resolve, reject) => {
            const sock = connect(g.url, {
              transports: ['websocket'],
              forceNew: true,
              reconnection: false,
              auth: { view: true, token: BARE_TOKEN },
            });
            sock.once('view', () => resolve(sock));
            sock.once('connect_error', reject);
          });
          lat.push(performance.now() - scheduled);
          p.socket = s;
        }
      } catch {
        dropped++;
      }
    }),
  );
  // Then each resynced copy is compared with a full view from the server (outside the timing).
  // A socket lost since it resynced counts as dropped (the comparison cannot be made on it).
  for (const p of resynced) {
    const w = g.worlds.find((x) => x.players.includes(p));
    try {
      const r = (await p.socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck('world/subscribe', { worldId: w?.id })) as { ok: boolean; sync?: { view?: unknown } };
      if (!r.ok || digest(r.sync?.view) !== digest(p.view)) mismatched++;
    } catch {
      dropped++;
    }
  }
  return { lat, dropped, mismatched, behindBy };
}

serve(
  {
    script: (req: { name: string; script: ScriptedOrder[] }) => {
      scripts.set(req.name, req.script);
      return req.script.length;
    },
    open: (req: OpenRequest) => openGroup(req),
    latency: (req: LatencyRequest) => latency(req),
    sentOrders: () => sentOrders.splice(0),
    throughput: (req: { group: string; worlds: number; seconds: number; db?: boolean }) => throughput(req),
    reconnect: (req: ReconnectRequest) => reconnect(req),
    // Idle connections as a watching page holds them: subscribed to a world (a room on the bare server).
    idleOpen: async (req: { url: string; count: number; worldId: string; target: 'server' | 'bare' }) => {
      const one = async () => {
        // On the bare server the page is given the full view with its room, as a subscribe gives it.
        const s = await open(req.url, req.target === 'bare' ? { auth: { watch: true } } : {});
        if (req.target === 'server') {
          const r = (await s
            .timeout(ACK_TIMEOUT_MS)
            .emitWithAck('world/subscribe', { worldId: req.worldId })) as { ok: boolean };
          if (!r.ok) throw new Error('spectator subscribe refused');
        } else await s.timeout(ACK_TIMEOUT_MS).emitWithAck('join', req.worldId);
        return s;
      };
      // Fifty at a time; one that fails is counted (the large step reports how many were held).
      let failed = 0;
      for (let i = 0; i < req.count; i += 50) {
        const batch = await Promise.allSettled(Array.from({ length: Math.min(50, req.count - i) }, one));
        for (const r of batch)
          if (r.status === 'fulfilled') idle.push(r.value);
          else failed++;
      }
      return { open: idle.length, failed };
    },
    idleClose: () => {
      for (const s of idle.splice(0)) s.disconnect();
      return true;
    },
    close: (group: string) => {
      for (const w of groups.get(group)?.worlds ?? []) for (const p of w.players) p.socket.disconnect();
      groups.delete(group);
      return true;
    },
    cpu: () => cpuMs(),
  },
  async () => {
    for (const g of groups.values())
      for (const w of g.worlds) for (const p of w.players) p.socket.disconnect();
  },
);
