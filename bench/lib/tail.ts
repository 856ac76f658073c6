/**
 * BENCH_TAIL=1: what the slowest orders of each latency step waited on. The server under test
 * notes, per order, when its handler handed it to the hub, when its append asked the pool for a
 * connection, got one and came back, and it notes its garbage collections and the spans its event
 * loop could not run timers (blocked ≥ BLOCK_MS); the load generator notes when each order was due,
 * sent and answered (wall clock, the same on both sides of one machine). `tailReport` joins them
 * for the slowest 1 % and prints one line per component. Off by default: the timer and the wrapped
 * statement cost a little.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import type { App, Database } from '@bke/server';
import { quantile } from './stats.ts';

export const tailProbed = (): boolean => Boolean(process.env.BENCH_TAIL?.trim());

/** A span of the event loop with no timer run, and a collection, are recorded from this long. */
const BLOCK_MS = 5;

const wall = () => performance.timeOrigin + performance.now();

export interface ServerTimes {
  /**
   * Per `worldId:version`: the hub took it, the append asked for a connection, had it, returned;
   * the order's type, and whether its commit ended a game turn.
   */
  orders: Record<
    string,
    { hub: number; ask?: number; got?: number; done?: number; type?: string; turnEnd?: boolean }
  >;
  blocks: [number, number][];
  gcs: [number, number][];
}

/** In the server under test: wraps the hub's `order` and the append, and watches the event loop. */
export function probeServer(app: App, db: Database): () => ServerTimes {
  let times: ServerTimes = { orders: {}, blocks: [], gcs: [] };
  const hub = app.hub;
  // One order per world is in flight in the latency steps (each world sends its next at the ack).
  const inFlight = new Map<string, ServerTimes['orders'][string]>();
  const order = hub.order.bind(hub);
  hub.order = (worldId, playerId, userId, version, ...rest) => {
    const type = (rest[0] as { type?: unknown } | null)?.type;
    const o: ServerTimes['orders'][string] = { hub: wall(), ...(typeof type === 'string' ? { type } : {}) };
    times.orders[`${worldId}:${version}`] = o;
    inFlight.set(worldId, o);
    const answer = order(worldId, playerId, userId, version, ...rest);
    // The game turn is read before the commit can move it (that waits for the append) and again
    // at the answer: the world's next order is sent only after it.
    void hub.get(worldId).then((rt) => {
      const before = rt?.state.turn;
      void answer.then(
        (r) => {
          if (rt && r.ok) o.turnEnd = rt.state.turn !== before;
        },
        () => {},
      );
    });
    return answer;
  };
  const pool = db.pool;
  const sql = db.sql.bind(db);
  // The append alone (its statements are named bke_append_orders…, the world's id first), through
  // the pool by hand to tell the wait for a connection from the statement.
  (db as { sql: Database['sql'] }).sql = async <R>(text: string, params?: unknown[], name?: string) => {
    const o = inFlight.get(String(params?.[0]));
    if (!pool || !name?.startsWith('bke_append_orders') || !o) return sql<R>(text, params, name);
    inFlight.delete(String(params?.[0]));
    o.ask = wall();
    const c = await pool.connect();
    o.got = wall();
    try {
      return (await c.query({ name, text, values: params })).rows as R[];
    } finally {
      c.release();
      o.done = wall();
    }
  };
  let last = wall();
  const tick = () => {
    const t = wall();
    if (t - last >= BLOCK_MS) times.blocks.push([last, t]);
    last = t;
    setTimeout(tick, 1).unref();
  };
  tick();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration >= BLOCK_MS) times.gcs.push([performance.timeOrigin + e.startTime, e.duration]);
  }).observe({ entryTypes: ['gc'] });
  return () => {
    const out = times;
    times = { orders: {}, blocks: [], gcs: [] };
    return out;
  };
}

/** One order as the load generator saw it (wall clock, ms). */
export interface SentOrder {
  key: string;
  due: number;
  sent: number;
  answered: number;
}

/** The components of the slowest 1 % of `sent` (by due → answered), as printable lines. */
export function tailReport(server: ServerTimes, sent: SentOrder[]): string[] {
  const total = (o: SentOrder) => o.answered - o.due;
  const cut = quantile(
    sent.map((o) => total(o)),
    0.99,
  );
  const slow = sent.filter((o) => total(o) >= cut);
  if (slow.length === 0) return [];
  const parts = {
    'late (the world’s earlier orders were slow)': [] as number[],
    'sent → the hub has it (transit, event loop busy)': [] as number[],
    'the hub → the append asks (world queue, engine)': [] as number[],
    'waiting for a pooled connection': [] as number[],
    'the append statement': [] as number[],
    'append → answer received': [] as number[],
    'garbage collection during it': [] as number[],
    'event loop blocked during it': [] as number[],
  };
  const during = (spans: [number, number][], a: number, b: number, end: (s: [number, number]) => number) =>
    spans.reduce((n, s) => n + Math.max(0, Math.min(b, end(s)) - Math.max(a, s[0])), 0);
  const v = Object.values(parts);
  for (const o of slow) {
    const s = server.orders[o.key];
    const row = [
      o.sent - o.due,
      s ? s.hub - o.sent : Number.NaN,
      s?.ask ? s.ask - s.hub : Number.NaN,
      s?.got && s.ask ? s.got - s.ask : Number.NaN,
      s?.done && s.got ? s.done - s.got : Number.NaN,
      s?.done ? o.answered - s.done : Number.NaN,
      during(server.gcs, o.sent, o.answered, (g) => g[0] + g[1]),
      during(server.blocks, o.sent, o.answered, (b) => b[1]),
    ];
    row.forEach((x, i) => {
      if (Number.isFinite(x)) v[i]?.push(x);
    });
  }
  const mine = slow.flatMap((o) => server.orders[o.key] ?? []);
  const all = Object.values(server.orders);
  const ends = (xs: typeof all) => xs.filter((s) => s.turnEnd).length;
  const types = new Map<string, number>();
  for (const s of mine) types.set(s.type ?? '?', (types.get(s.type ?? '?') ?? 0) + 1);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  return [
    `  slowest 1 % of orders (${slow.length}, from ${cut.toFixed(1)} ms), mean ms per order:`,
    ...Object.entries(parts).map(
      ([k, xs]) => `    ${k}: ${mean(xs).toFixed(1)} (max ${Math.max(...xs, 0).toFixed(0)})`,
    ),
    `    game turns ended by them: ${ends(mine)} of ${mine.length} (by all orders of the step: ${ends(all)} of ${all.length})`,
    `    their orders: ${[...types.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  ];
}
