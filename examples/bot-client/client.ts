/**
 * BKE Online's bot interface over HTTP (docs/bot-interface.md): every request carries the bot's
 * token as `Authorization: Bearer`, every state-changing one the `x-bke-csrf` header every client
 * sends, and every answer is parsed with the protocol's own schema before it is used.
 */
import {
  CSRF_HEADER,
  errorBodySchema,
  joinResponseSchema,
  type Order,
  type SeatedWorldsResponse,
  type SeatOrderResponse,
  type SeatViewResponse,
  seatedWorldsResponseSchema,
  seatOrderResponseSchema,
  seatViewResponseSchema,
  type WireError,
} from '@bke/protocol';
import type { z } from 'zod';

/** How often a request refused for going too fast is asked again before the bot gives up. */
const RATE_LIMITED_TRIES = 5;

/** A refusal from the server: its typed code and parameters (`retryAfterSeconds`, `version`, …). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly error: WireError,
  ) {
    super(`${status} ${error.code}${error.message ? `: ${error.message}` : ''}`);
  }
}

export class BotClient {
  constructor(
    private readonly server: string,
    private readonly token: string,
  ) {}

  private async call<T extends z.ZodType>(
    schema: T,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<z.infer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (method === 'POST') Object.assign(headers, { 'content-type': 'application/json', [CSRF_HEADER]: '1' });
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(new URL(path, this.server), {
        method,
        headers,
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      const json: unknown = await res.json().catch(() => null);
      if (res.ok) return schema.parse(json);
      const e = errorBodySchema.safeParse(json);
      const error: WireError = e.success ? e.data.error : { code: 'http/internal', message: String(json) };
      // Too fast for the bot account's pace (reads and orders share it): wait as long as the server
      // says, then ask again. A bot that keeps the pace is never refused for it twice in a row.
      if (error.code === 'http/rate_limited' && attempt < RATE_LIMITED_TRIES) {
        const wait = Number(error.retryAfterSeconds ?? res.headers.get('retry-after') ?? 1);
        await new Promise((r) => setTimeout(r, (Number.isFinite(wait) && wait > 0 ? wait : 1) * 1000));
        continue;
      }
      throw new Refused(res.status, error);
    }
  }

  /** The worlds where this bot holds a seat. */
  seats(): Promise<SeatedWorldsResponse> {
    return this.call(seatedWorldsResponseSchema, 'GET', '/api/seats');
  }

  /** Takes a seat in a world (the same request a person's Join button sends). */
  async join(worldId: string): Promise<void> {
    await this.call(joinResponseSchema, 'POST', `/api/worlds/${worldId}/join`, {});
  }

  /** This bot's seat in a world: its view, legal orders and the world's status. */
  seat(worldId: string): Promise<SeatViewResponse> {
    return this.call(seatViewResponseSchema, 'GET', `/api/worlds/${worldId}/seat`);
  }

  /** An order made against `version`. */
  order(worldId: string, version: number, order: Order): Promise<SeatOrderResponse> {
    return this.call(seatOrderResponseSchema, 'POST', `/api/worlds/${worldId}/orders`, { version, order });
  }
}
