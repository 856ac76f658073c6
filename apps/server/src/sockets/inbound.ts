/**
 * Every inbound message passes the same gate before its handler runs: rate-limited (per account,
 * or per address for anonymous sockets, across all their sockets on every process:
 * rate-limit/socket-events.ts), size-checked, refused when it
 * holds control characters, and parsed with its handler's zod schema. Every answer is an
 * acknowledgement `{ ok, … }` or `{ ok: false, error: { code } }`; a handler that throws answers
 * `socket/internal` and is logged; an event nobody handles is answered too.
 */
import {
  type Ack,
  CONTROL_CHARACTERS,
  controlCharacterPath,
  findControlCharacters,
  MAX_SOCKET_MESSAGE_BYTES,
  type WireError,
} from '@bke/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'socket.io';
import type { z } from 'zod';
import type { Taken } from '../rate-limit/limit.ts';
import { type Refusal, refuse, type SocketContext, type SocketHandler } from './context.ts';
import type { BkeSocket } from './typed-server.ts';

const limiterKey = (socket: BkeSocket) =>
  socket.data.user ? `u:${socket.data.user.id}` : `a:${socket.data.address}`;

/** Answers `socket`'s messages of `h.event` through the gate, then `h`. */
export function listen<S extends z.ZodType, R extends object>(
  ctx: SocketContext,
  limiter: { take(key: string): Promise<Taken> },
  logger: FastifyBaseLogger,
  socket: BkeSocket,
  h: SocketHandler<S, R>,
): void {
  (socket as unknown as Socket).on(h.event, async (raw: unknown, ack: unknown) => {
    const reply = (r: Ack<R> | Refusal) => {
      if (typeof ack === 'function') ack(r);
      else if (!r.ok) socket.emit('error', r.error);
    };
    try {
      const taken = await limiter.take(limiterKey(socket));
      if (!taken.ok)
        return reply(refuse('socket/rate_limited', { retryAfterSeconds: taken.retryAfterSeconds }));
      let size = 0;
      try {
        size = JSON.stringify(raw ?? null).length;
      } catch {
        return reply(refuse('socket/invalid', { reason: 'unserializable' }));
      }
      if (size > MAX_SOCKET_MESSAGE_BYTES)
        return reply(refuse('socket/invalid', { reason: 'too_large', limit: MAX_SOCKET_MESSAGE_BYTES }));
      const control = findControlCharacters(raw);
      if (control !== null) return reply(refuse(CONTROL_CHARACTERS, { path: control }));
      const parsed = h.schema.safeParse(raw);
      if (!parsed.success) {
        const path = controlCharacterPath(parsed.error);
        if (path !== null) return reply(refuse(CONTROL_CHARACTERS, { path }));
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        // An order the engine's schema refuses is the engine's refusal, as if the engine had read it.
        const inOrder = parsed.error.issues.every((i) => i.path[0] === 'order');
        return reply(
          refuse(h.event === 'world/order' && inOrder ? 'order/invalid' : 'socket/invalid', { issues }),
        );
      }
      reply(await h.handle(ctx, socket, parsed.data));
    } catch (e) {
      logger.error({ err: e, event: h.event }, 'socket handler failed');
      reply(refuse('socket/internal'));
    }
  });
}

/** Answers the events no handler of `known` takes, so that every message gets a typed answer. */
export function refuseUnknownEvents(socket: BkeSocket, known: ReadonlySet<string>): void {
  socket.onAny((event: string, ...args: unknown[]) => {
    if (known.has(event)) return;
    const ack = args[args.length - 1];
    const refusal: WireError = { code: 'socket/unknown_event', event: String(event).slice(0, 40) };
    if (typeof ack === 'function') ack({ ok: false, error: refusal });
    else socket.emit('error', refusal);
  });
}
