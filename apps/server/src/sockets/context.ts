/**
 * What every socket handler works with, made once per server by attachSockets, and the shape of a
 * handler: its event, the zod schema its message is parsed with before it runs, and the work.
 */
import type { Ack, ClientToServerEvents, ErrorCode, WireError } from '@bke/protocol';
import type { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import type { Metrics } from '../metrics.ts';
import type { Limit } from '../rate-limit/limit.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { Admission } from './admission.ts';
import type { ResyncParts } from './resync-parts.ts';
import type { SeatLegalOrders } from './seat-legal-orders.ts';
import type { BkeSocket, Io } from './typed-server.ts';
import type { WorldStatus } from './world-status.ts';

export interface SocketContext {
  readonly io: Io;
  readonly db: Database;
  readonly hub: WorldHub;
  readonly limits: Limits;
  readonly metrics: Metrics;
  /** Chat lines per account per minute, counted where every process sees them. */
  readonly chatLines: Limit;
  readonly admission: Admission;
  /** Each seat's legal orders: listed only when they can have changed. */
  readonly legal: SeatLegalOrders;
  readonly status: WorldStatus;
  /** What the sockets of a reconnect storm share of their answers. */
  readonly resync: ResyncParts;
  readonly log: (msg: string, data: object) => void;
}

export type Refusal = { ok: false; error: WireError };

/** A typed refusal, the answer of every check that fails. */
export const refuse = (code: ErrorCode, params: Record<string, unknown> = {}): Refusal => ({
  ok: false,
  error: { ...params, code },
});

export interface SocketHandler<S extends z.ZodType, R extends object> {
  readonly event: keyof ClientToServerEvents;
  readonly schema: S;
  handle(ctx: SocketContext, socket: BkeSocket, msg: z.infer<S>): Promise<Ack<R> | Refusal>;
}

/** Declares a handler with its schema (the message type is inferred from the schema). */
export const handler = <S extends z.ZodType, R extends object>(h: SocketHandler<S, R>): SocketHandler<S, R> =>
  h;
