/**
 * Several server processes on one PostgreSQL database (behind a load balancer) each hold their own
 * copy of the worlds their sockets watch. The bus tells the other processes what changed here —
 * through PostgreSQL's LISTEN/NOTIFY, so it needs nothing but the database — and each process then
 * brings its copy up to date from the database and tells its own sockets. Messages name what
 * changed, never carry it: the database stays the only source of truth.
 *
 * On the embedded database (one process) the bus is silent.
 */
import { moderationNoticeSchema } from '@bke/protocol';
import { z } from 'zod';
import type { Database } from '../db/database.ts';

export const BUS_CHANNEL = 'bke_bus';

const id = z.string().regex(/^\d+$/);
export const busMessageSchema = z.discriminatedUnion('k', [
  /** A world's log, head (status, deadline, step), seats or ready flags changed. */
  z.object({ k: z.literal('world'), w: z.uuid() }),
  /** A chat message was stored (the receiver reads it from the database and delivers it). */
  z.object({ k: z.literal('chat'), w: z.uuid(), id }),
  z.object({ k: z.literal('chatDeleted'), w: z.uuid(), id }),
  z.object({ k: z.literal('notice'), notice: moderationNoticeSchema }),
  /** A process started listening: the others start telling (see `Bus.peers`). */
  z.object({ k: z.literal('hello') }),
  /** An account was banned: its sockets end everywhere. */
  z.object({ k: z.literal('endUser'), u: z.uuid() }),
  /** A seat changed hands or was freed: the sockets playing it end everywhere. */
  z.object({ k: z.literal('endSeat'), w: z.uuid(), p: z.string().max(8) }),
]);
export type BusMessage = z.infer<typeof busMessageSchema>;

const envelopeSchema = z.object({ o: z.string().max(64) });

/** The payload of a bus message from this process (also sent by the order append's SQL). */
export const busPayload = (db: Database, m: BusMessage): string => JSON.stringify({ o: db.instanceId, ...m });

export interface Bus {
  /**
   * Whether another server process listens on this database. Alone (the usual case), nothing is
   * sent: a NOTIFY costs every commit a lock. A process says hello when it starts, and each looks
   * again every `PEER_CHECK_MS` for processes that left.
   */
  readonly peers: boolean;
  /** Tells the other processes; never throws, never waits (a lost message costs a late update). */
  publish(m: BusMessage): void;
  /** The payload for `m` when there is anyone to tell (the order append sends it), else null. */
  payload(m: BusMessage): string | null;
  stop(): Promise<void>;
}

/** The bus of a process alone on its database. */
export const SILENT_BUS: Bus = { peers: false, publish() {}, payload: () => null, stop: async () => {} };

const PEER_CHECK_MS = 10_000;

export interface BusHandlers {
  message(m: BusMessage): void;
  /** The listening connection came back: anything may have been missed. */
  gap(): void;
  log(msg: string, data?: object): void;
}

export async function startBus(db: Database, handlers: BusHandlers): Promise<Bus> {
  let peers = false;
  const stop = await db.listen(
    BUS_CHANNEL,
    (payload) => {
      const m = parseBusPayload(payload, db.instanceId);
      if (m === 'invalid')
        handlers.log('bus: an unreadable message was dropped', { payload: payload.slice(0, 200) });
      else if (m?.k === 'hello') peers = true;
      else if (m) handlers.message(m);
    },
    handlers.gap,
  );
  if (!stop) return SILENT_BUS;
  // The listening connections of the other processes (database.ts names them `<instanceId>-listen`).
  const look = async () => {
    const r = await db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'bke-%-listen' AND application_name <> $1`,
      [`${db.instanceId}-listen`],
      'bke_bus_peers',
    );
    peers = (r[0]?.n ?? 0) > 0;
  };
  await look().catch((e) => handlers.log('bus: could not look for other processes', { err: String(e) }));
  const timer = setInterval(() => void look().catch(() => {}), PEER_CHECK_MS);
  timer.unref();
  const send = (payload: string, kind: string) =>
    db
      .sql(`SELECT pg_notify('${BUS_CHANNEL}', $1)`, [payload], 'bke_bus_publish')
      .catch((e) => handlers.log('bus: publish failed', { err: String(e), kind }));
  // Tell the processes already running that there is someone to tell now.
  if (peers) void send(busPayload(db, { k: 'hello' }), 'hello');
  return {
    get peers() {
      return peers;
    },
    publish(m) {
      if (peers) void send(busPayload(db, m), m.k);
    },
    payload: (m) => (peers ? busPayload(db, m) : null),
    async stop() {
      clearInterval(timer);
      await stop();
    },
  };
}

/** The message in `payload`; null when this process sent it; 'invalid' when it is not one. */
export function parseBusPayload(payload: string, self: string): BusMessage | null | 'invalid' {
  // Every order this process commits comes back to it: drop those before parsing anything.
  if (payload.startsWith(`{"o":${JSON.stringify(self)},`)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return 'invalid';
  }
  const env = envelopeSchema.safeParse(raw);
  if (!env.success) return 'invalid';
  if (env.data.o === self) return null;
  const m = busMessageSchema.safeParse(raw);
  return m.success ? m.data : 'invalid';
}
