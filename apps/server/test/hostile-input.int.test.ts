/**
 * No input ends the process or gets an untyped answer. The real server runs as its own process
 * (an unhandled rejection would end it), then receives hand-picked inputs that once broke it and a
 * bounded, seeded fuzz over HTTP bodies, headers, cookies, URLs, malformed HTTP, socket handshakes,
 * socket events and raw engine.io frames. Afterwards the process still answers, every answer it gave
 * was a typed error code (never a 5xx), and no world changed.
 *
 * The seed is printed; `FUZZ_SEED=<n>` replays a run, `FUZZ_MS` changes its length.
 */
import { type RngState, rollDie, seedRng } from '@bke/engine';
import { errorBodySchema, HTTP_ROUTES, hasControlCharacters, MODERATION_ROUTES } from '@bke/protocol';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api, signup } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/process.ts';
import { rawRequest } from './helpers/raw-http.ts';

let server: ServerProcess;
let alice: string;
let bob: string;
let worldId: string;

beforeAll(async () => {
  // Limits high enough that the fuzz reaches the code behind them rather than bouncing off them.
  server = await startServerProcess({
    AUTH_ATTEMPTS_BURST: '1000000',
    AUTH_ATTEMPTS_PER_MINUTE: '1000000',
    SOCKET_EVENTS_BURST: '1000000',
    SOCKET_EVENTS_PER_SECOND: '1000000',
    CHAT_LINES_PER_MINUTE: '1000000',
    MADE_UP_LINKS_BURST: '1000000',
    MADE_UP_LINKS_PER_MINUTE: '1000000',
  });
  alice = await signup(server.base, 'alice');
  bob = await signup(server.base, 'bob');
  // One seat, alice's: nothing the fuzz sends may change this world, and no valid request can
  // either (bob cannot join a full world; alice's cookie is only used on sockets, where every order
  // the fuzz makes is refused by the rules).
  const created = await api(server.base, alice, 'POST', '/api/worlds', {
    name: 'Target',
    options: { victory: 'basic' },
    maxPlayers: 1,
  });
  worldId = (created.body.world as { id: string }).id;
  const joined = await api(server.base, alice, 'POST', `/api/worlds/${worldId}/join`, {});
  expect(joined.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

async function healthy(): Promise<void> {
  expect(server.alive(), `the server process ended:\n${server.stderr()}`).toBe(true);
  const res = await fetch(`${server.base}/api/health`);
  expect(res.status).toBe(200);
}

function socketWith(cookie: string): Socket {
  return connectSocket(server.base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { cookie },
  });
}

/** Resolves once the socket is greeted or refused, or after `ms`. */
function settle(s: Socket, ms = 3000): Promise<'hello' | 'refused' | 'closed' | 'silent'> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve('silent'), ms);
    const end = (how: 'hello' | 'refused' | 'closed') => () => {
      clearTimeout(t);
      resolve(how);
    };
    s.once('hello', end('hello'));
    s.once('connect_error', end('refused'));
    s.once('disconnect', end('closed'));
  });
}

/** The world as the public sees it: what the fuzz must leave as it was. */
async function worldNow() {
  const w = await api(server.base, null, 'GET', `/api/worlds/${worldId}`);
  return w.body.world;
}

/** The world's public chat as a spectator receives it. */
async function chatNow(): Promise<{ body: string }[]> {
  const s = socketWith('');
  try {
    await settle(s);
    const sub = (await s.timeout(10_000).emitWithAck('world/subscribe', { worldId })) as {
      chat?: { body: string }[];
    };
    return sub.chat ?? [];
  } finally {
    s.close();
  }
}

describe('inputs that once ended the process', () => {
  it('a handshake whose cookie holds a malformed %-escape is greeted; the process lives on', async () => {
    for (const cookie of ['other=%zz', `bke_session=%zz; other=%E0%A4%A`, 'a=%', '=%%; b']) {
      const s = socketWith(cookie);
      try {
        expect(await settle(s)).toBe('hello');
      } finally {
        s.close();
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    await healthy();
  });

  it('over HTTP the same cookies are read as no session, not a 500', async () => {
    for (const cookie of ['other=%zz', `bke_session=%zz`]) {
      const res = await api(server.base, cookie, 'GET', '/api/auth/me');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: null });
    }
    const seated = await api(server.base, `other=%zz; ${alice}`, 'GET', '/api/auth/me');
    expect(seated.body.user).toMatchObject({ username: 'alice' });
  });
});

// ---- the fuzz ----

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const FUZZ_MS = Number(process.env.FUZZ_MS ?? 24_000);

/** Seeded choices, from the engine's own dice (so a seed replays a run). */
class Gen {
  private s: RngState;
  constructor(seed: number) {
    this.s = seedRng(String(seed));
  }
  int(n: number) {
    const [v, next] = rollDie(this.s, n);
    this.s = next;
    return v - 1;
  }
  private r() {
    return this.int(1_000_000) / 1_000_000;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  chance(p: number) {
    return this.r() < p;
  }
  /** Strings people and attackers type: control characters, escapes, wildcards, long and odd text. */
  text(): string {
    const atoms = [
      '',
      'a',
      'alice',
      '\u0000',
      'x\u0000y',
      '\u0007',
      '\u001b[31m',
      '\u007f',
      '\u0085',
      '\n',
      '\r\n',
      '\t',
      '%',
      '_',
      '%zz',
      '%00',
      "'; DROP TABLE users; --",
      '<script>alert(1)</script>',
      '\u202e',
      '\ud800',
      '😀',
      'p1',
      '-1',
      '1e400',
      '__proto__',
      'constructor',
      '0'.repeat(19),
    ];
    let s = '';
    const n = this.int(4) + 1;
    for (let i = 0; i < n; i++) s += this.pick(atoms);
    if (this.chance(0.05)) s += 'y'.repeat(this.pick([600, 2100, 20_000]));
    return s;
  }
  /** Any JSON value, biased towards the shapes the routes expect. */
  json(depth = 0): unknown {
    const k = this.int(depth > 3 ? 6 : 9);
    switch (k) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, 7]);
      case 3:
      case 4:
      case 5:
        return this.text();
      case 6:
        return Array.from({ length: this.int(4) }, () => this.json(depth + 1));
      default: {
        const o: Record<string, unknown> = {};
        const keys = [
          'reason',
          'username',
          'password',
          'name',
          'body',
          'to',
          'worldId',
          'version',
          'order',
          'type',
          'webhookUrl',
          'chatMessageId',
          'targetUserId',
          'colour',
          'away',
          'until',
          'turn',
          'options',
          'deadline',
          'plan',
          '__proto__',
          this.text(),
        ];
        for (let i = this.int(5); i > 0; i--) o[this.pick(keys)] = this.json(depth + 1);
        if (this.chance(0.4)) o.worldId = this.pick([worldId, '00000000-0000-0000-0000-000000000000', 'x']);
        return o;
      }
    }
  }
}

type Bad = { what: string; got: unknown };

function typedError(body: unknown): boolean {
  return errorBodySchema.safeParse(body).success;
}

/** The engine.io endpoint answers in its own protocol's typed shape: `{ code: n, message }`. */
function engineIoError(body: unknown): boolean {
  const b = body as { code?: unknown; message?: unknown } | null;
  return !!b && typeof b.code === 'number' && typeof b.message === 'string';
}

async function fuzzHttp(g: Gen, until: number, bad: Bad[]): Promise<number> {
  const routes = [...Object.values(HTTP_ROUTES), ...Object.values(MODERATION_ROUTES)].map((r) => r.path);
  const ids = [worldId, 'x', '%zz', '1', '00000000-0000-0000-0000-000000000000', '%00', 'a'.repeat(300)];
  const cookies = ['', bob, 'bke_session=%zz', 'a=%', `${bob}; x=%E0%A4%A`, 'bke_session=AAAA'];
  let n = 0;
  while (Date.now() < until) {
    n++;
    let p = g
      .pick(routes)
      .replace(':id', g.pick(ids))
      .replace(':playerId', g.pick(['p1', 'p9', '%zz', 'x']));
    if (g.chance(0.2))
      p += `?${g.pick(['q=a&q=b', 'q=%', 'q=_', 'q=%00', 'status=x&status=y', 'before=%zz', 'q=%E0'])}`;
    const method = g.pick(['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
    const headers: Record<string, string> = {};
    if (g.chance(0.8)) headers['x-bke-csrf'] = '1';
    const cookie = g.pick(cookies);
    if (cookie) headers.cookie = cookie;
    if (g.chance(0.1)) headers.origin = g.pick(['null', 'http://evil.example', 'garbage', server.base]);
    let body: string | undefined;
    if (method !== 'GET' && method !== 'OPTIONS') {
      headers['content-type'] = g.pick([
        'application/json',
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'multipart/form-data; boundary=x',
      ]);
      body = g.chance(0.15)
        ? g.pick(['{', '{"a":', '[', 'nul', '"\\u0000"', '{"a":1}}'])
        : JSON.stringify(g.json());
    }
    let res: Response;
    try {
      res = await fetch(`${server.base}${p}`, { method, headers, body });
    } catch (e) {
      bad.push({ what: `${method} ${p}: no answer`, got: String(e) });
      continue;
    }
    const text = await res.text();
    if (res.status >= 500)
      bad.push({ what: `${method} ${p} ${body?.slice(0, 200)}`, got: `${res.status} ${text}` });
    else if (res.status >= 400) {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(text);
      } catch {}
      if (!typedError(parsed))
        bad.push({ what: `${method} ${p}`, got: `${res.status} ${text.slice(0, 300)}` });
    }
  }
  return n;
}

/** Requests no HTTP client library would send: bad escapes, huge lines and headers, broken framing. */
async function rawHttp(bad: Bad[]): Promise<number> {
  const cases = [
    'GET /api/worlds/%zz HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n',
    `GET /api/${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
    'GARBAGE\r\n\r\n',
    'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nx-bke-csrf: 1\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    'GET /api/auth/me HTTP/1.1\r\nHost: x\r\nCookie: bke_session=%zz\r\n\r\n',
    'GET /socket.io/?EIO=9&transport=polling HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /socket.io/?EIO=4&transport=polling&sid=nope HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n4ab',
  ];
  for (const req of cases) {
    const { status, body, text: answer } = await rawRequest(server.base, req);
    const where = req.slice(0, 60);
    if (status === 0) bad.push({ what: `raw ${where}`, got: 'no HTTP answer' });
    else if (status >= 500) bad.push({ what: `raw ${where}`, got: answer.slice(0, 300) });
    else if (status >= 400 && !(typedError(body) || (req.includes('/socket.io/') && engineIoError(body))))
      bad.push({ what: `raw ${where}`, got: answer.slice(0, 300) });
  }
  return cases.length;
}

async function fuzzSockets(g: Gen, until: number, bad: Bad[]): Promise<number> {
  const events = [
    'world/subscribe',
    'world/unsubscribe',
    'world/order',
    'world/planCost',
    'chat/send',
    'nope',
    'hello',
    'x'.repeat(50),
  ];
  let n = 0;
  while (Date.now() < until) {
    const cookie = g.pick(['', alice, bob, 'bke_session=%zz', `${bob}; o=%zz`, 'a=%']);
    const s = socketWith(cookie);
    const greeted = await settle(s);
    if (greeted !== 'hello') {
      if (greeted === 'silent') bad.push({ what: `handshake with cookie ${cookie}`, got: greeted });
      s.close();
      continue;
    }
    // Subscribed first half the time, so orders and chat reach the checks behind the schemas.
    if (g.chance(0.5))
      await s
        .timeout(5000)
        .emitWithAck('world/subscribe', { worldId })
        .catch(() => null);
    for (let i = 0; i < 15 && Date.now() < until; i++) {
      n++;
      const event = g.pick(events);
      let payload = g.json();
      if (event === 'world/order' && g.chance(0.6))
        payload = {
          worldId,
          version: g.pick([0, 1, 2, 999, -1]),
          order: g.pick([
            { type: 'nonsense' },
            { type: 'chooseStart', position: g.text(), area: g.text() },
            { type: 'move', unit: g.text(), to: g.json() },
            { type: g.text() },
          ]),
        };
      if (event === 'chat/send' && g.chance(0.6))
        payload = { worldId, to: g.pick([null, 'p1', 'p2', g.text()]), body: g.text() };
      if (!g.chance(0.8)) {
        s.emit(event, payload);
        continue;
      }
      let ack: unknown;
      try {
        ack = await s.timeout(5000).emitWithAck(event, payload);
      } catch {
        if (s.connected)
          bad.push({ what: `${event} ${JSON.stringify(payload)?.slice(0, 200)}`, got: 'no answer' });
        break;
      }
      const a = ack as { ok?: unknown; error?: { code?: unknown } };
      if (typeof a?.ok !== 'boolean' || (a.ok === false && typeof a.error?.code !== 'string'))
        bad.push({ what: `${event} ${JSON.stringify(payload)?.slice(0, 200)}`, got: ack });
      else if (a.ok === false && /internal/.test(String(a.error?.code)))
        bad.push({ what: `${event} ${JSON.stringify(payload)?.slice(0, 200)}`, got: ack });
    }
    s.close();
  }
  return n;
}

/** Engine.io and Socket.IO packets written by hand, as a hostile client would. */
async function fuzzFrames(g: Gen, until: number): Promise<number> {
  const { host } = new URL(server.base);
  const frames = [
    '42["world/subscribe"',
    '42[1,2,3]',
    '42["chat/send",{"worldId":"x","body":"\\u0000"}]',
    `42["world/subscribe",{"worldId":"${worldId}","version":"__proto__"}]`,
    '421["world/order",{"__proto__":{"ok":true}}]',
    '451-["chat/send",{"_placeholder":true,"num":99}]',
    '4',
    '49',
    '6',
    '1',
    '2probe',
    '40/admin,',
    '41',
    `42["x","${'z'.repeat(70_000)}"]`,
    '42',
    '43[]',
  ];
  let n = 0;
  while (Date.now() < until) {
    const ws = new WebSocket(`ws://${host}/socket.io/?EIO=4&transport=websocket`, {
      headers: { cookie: g.pick(['', alice, 'bke_session=%zz']) },
    });
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2500);
      ws.on('error', () => {});
      ws.on('close', () => {
        clearTimeout(t);
        resolve();
      });
      ws.on('open', () => {
        ws.send('40');
        for (let i = 0; i < 6; i++) {
          n++;
          if (g.chance(0.2)) ws.send(Buffer.from(Array.from({ length: g.int(64) }, () => g.int(256))));
          else ws.send(g.chance(0.7) ? g.pick(frames) : `4${g.text()}`);
        }
        setTimeout(() => ws.close(), 200);
      });
    });
  }
  return n;
}

describe('fuzz', () => {
  it(
    `keeps answering with typed codes and changes no world (seed ${SEED})`,
    async () => {
      const before = await worldNow();
      const g = new Gen(SEED);
      const bad: Bad[] = [];
      const start = Date.now();
      const httpN = await fuzzHttp(g, Date.now() + FUZZ_MS * 0.35, bad);
      const rawN = await rawHttp(bad);
      await healthy();
      const socketN = await fuzzSockets(g, Date.now() + FUZZ_MS * 0.4, bad);
      await healthy();
      const frameN = await fuzzFrames(g, Date.now() + FUZZ_MS * 0.2);
      await new Promise((r) => setTimeout(r, 300));
      await healthy();
      console.log(
        `fuzz seed ${SEED}: ${httpN} HTTP requests, ${rawN} raw requests, ${socketN} socket events, ${frameN} frames in ${Date.now() - start} ms`,
      );
      expect(bad.slice(0, 10), `seed ${SEED}: ${bad.length} untyped or failed answers`).toEqual([]);
      expect(await worldNow()).toEqual(before);
      // Chat may take what a player could type, but never a control character.
      const stored = (await chatNow()).filter((m) => hasControlCharacters(m.body));
      expect(stored).toEqual([]);
    },
    FUZZ_MS + 60_000,
  );
});
