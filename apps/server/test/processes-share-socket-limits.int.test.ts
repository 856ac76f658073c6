/**
 * Two real server processes on one PostgreSQL database keep the socket limits of the site, not of
 * each process: one account's events spread over both are refused at the site's limit, not at
 * twice it (on the PostgreSQL adapter by each process's share of it, on Redis by one shared count),
 * and its open sockets are counted on both. Skipped on the embedded database, which serves one
 * process; its single process is held to the whole limit in limits.int.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers/app.ts';
import { signup } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
let scratch: { url: string; drop(): Promise<void> } | null = null;
const procs: ServerProcess[] = [];
const sockets: Socket[] = [];

/** Ten events in a window of 1000 s, three sockets per account. */
const LIMITS = {
  SOCKET_EVENTS_BURST: '10',
  SOCKET_EVENTS_PER_SECOND: '0.01',
  SOCKETS_PER_ACCOUNT: '3',
  AUTH_ATTEMPTS_BURST: '100',
};

beforeAll(async () => {
  if (!serverUrl) return;
  scratch = await createScratchDatabase(serverUrl);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(procs.map((p) => p.stop()));
  await scratch?.drop();
});

/** Two processes, the first migrating the fresh database before the second starts. */
async function startPair(env: Record<string, string>): Promise<[ServerProcess, ServerProcess]> {
  const all = { DATABASE_URL: scratch?.url ?? '', LOG_LEVEL: 'info', ...LIMITS, ...env };
  const one = startServerProcess(all);
  procs.push(one);
  await one.ready(90_000);
  const two = startServerProcess(all);
  procs.push(two);
  await two.ready(90_000);
  return [one, two];
}

function open(base: string, cookie: string): Socket {
  const s = connect(base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { cookie },
  });
  sockets.push(s);
  return s;
}
const greeted = (s: Socket) =>
  new Promise<string>((resolve) => {
    s.once('hello', () => resolve('ok'));
    s.once('connect_error', (e: Error & { data?: { code?: string; per?: string } }) =>
      resolve(`${e.data?.code}:${e.data?.per}`),
    );
  });

/** `n` cheap events, alternating between the sockets; each answer's code ('ok' when let through). */
async function spread(over: Socket[], n: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = over[i % over.length] as Socket;
    const r = (await s.timeout(5000).emitWithAck('world/unsubscribe', {
      worldId: '00000000-0000-0000-0000-000000000000',
    })) as { ok: boolean; error?: { code: string } };
    codes.push(r.ok ? 'ok' : (r.error?.code ?? '?'));
  }
  return codes;
}

/** Both processes have told their log that they share the socket-event limit between two. */
const bothShare = (pair: ServerProcess[]) =>
  waitFor(
    'both processes to share the socket-event limit',
    () =>
      pair.every((p) =>
        p.output
          .join('')
          .split('\n')
          .some((line) => line.includes('socket-event limit shared') && line.includes('"processes":2')),
      ),
    30_000,
  );

describe.runIf(serverUrl)('two server processes on the PostgreSQL adapter', () => {
  let pair: [ServerProcess, ServerProcess] | undefined;

  it('refuse one account its events at the site limit, its sockets spread over both', async () => {
    pair = await startPair({ CLUSTER_ADAPTER: 'postgres' });
    await bothShare(pair);
    const cookie = await signup(pair[0].base, 'spreader');
    const both = [open(pair[0].base, cookie), open(pair[1].base, cookie)];
    expect(await Promise.all(both.map(greeted))).toEqual(['ok', 'ok']);
    const codes = await spread(both, 20);
    // Each process grants half of the ten: ten in all, where per-process counting gave twenty.
    expect(codes.filter((c) => c === 'ok')).toHaveLength(10);
    expect(codes.filter((c) => c !== 'ok').every((c) => c === 'socket/rate_limited')).toBe(true);
  }, 240_000);

  it('count one account’s open sockets on both processes', async () => {
    if (!pair) throw new Error('the two processes did not start');
    const cookie = await signup(pair[0].base, 'tabs');
    const first = [open(pair[0].base, cookie), open(pair[0].base, cookie), open(pair[1].base, cookie)];
    expect(await Promise.all(first.map(greeted))).toEqual(['ok', 'ok', 'ok']);
    // The fourth finds three open on the site, whichever process it reaches.
    expect(await greeted(open(pair[1].base, cookie))).toBe('socket/too_many:account');
    expect(await greeted(open(pair[0].base, cookie))).toBe('socket/too_many:account');
    first[0]?.close();
    // One closed on the first process: a socket on the second fits again once the first has counted it out.
    let again = 'none';
    for (let i = 0; i < 20 && again !== 'ok'; i++) {
      again = await greeted(open(pair[1].base, cookie));
      if (again !== 'ok') await new Promise((r) => setTimeout(r, 100));
    }
    expect(again).toBe('ok');
  });

  afterAll(async () => {
    for (const s of sockets.splice(0)) s.close();
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });
});

describe.runIf(serverUrl)('two server processes on the Redis Streams adapter', () => {
  it('count one account’s events in Redis: refused at the site limit over both', async (ctx) => {
    const probe = createClient({ url: redisUrl, socket: { reconnectStrategy: false, connectTimeout: 1000 } });
    probe.on('error', () => {});
    const reachable = await probe.connect().then(
      () => true,
      () => false,
    );
    if (reachable) await probe.close();
    if (!reachable) ctx.skip(`no Redis at ${redisUrl}`);
    const stream = `bke-test-${randomBytes(4).toString('hex')}`;
    const pair = await startPair({ CLUSTER_ADAPTER: 'redis', REDIS_URL: redisUrl, REDIS_STREAM: stream });
    const cookie = await signup(pair[0].base, 'redisspreader');
    const both = [open(pair[0].base, cookie), open(pair[1].base, cookie)];
    expect(await Promise.all(both.map(greeted))).toEqual(['ok', 'ok']);
    const codes = await spread(both, 20);
    expect(codes.filter((c) => c === 'ok')).toHaveLength(10);
    expect(codes.slice(10)).toEqual(Array(10).fill('socket/rate_limited'));
    // The count is Redis's, under this site's prefix.
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const keys = await redis.keys(`${stream}:socket:*`);
      expect(keys).toHaveLength(1);
      expect(Number(await redis.get(keys[0] as string))).toBeGreaterThanOrEqual(10);
      await redis.del(keys);
    } finally {
      await redis.close();
    }
  }, 240_000);
});
