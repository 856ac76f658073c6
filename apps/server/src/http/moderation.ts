/**
 * Moderation routes, registered from MODERATION_ROUTES in @bke/protocol. Every route
 * checks the session and the role on the server before anything else, parses its body with its zod
 * schema, is rate-limited per account, and every state-changing moderator route writes one row to
 * the append-only audit log with its reason — in the same transaction as the action's own writes,
 * so an action is never done without its audit row (db/transaction.ts). An action on a world runs
 * inside the world's queue, caught up, with the transaction inside it.
 */
import {
  auditQuerySchema,
  type BotLevel,
  MODERATION_ROUTES,
  type ModerationLevel,
  type ModerationRouteKey,
  type Role,
  reportListQuerySchema,
  userSearchQuerySchema,
  type WorldFromPosition,
} from '@bke/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import { banUser, listUsers, muteUser, setRole, unbanUser, unmuteUser } from '../moderation/accounts.ts';
import { readAudit, recordAction } from '../moderation/audit.ts';
import { createReport, deleteChat, listReports, resolveReport, worldChat } from '../moderation/chat.ts';
import type { Actor, ModContext } from '../moderation/context.ts';
import { MODERATION_STATUS, type ModFail, type ModResult } from '../moderation/errors.ts';
import { type Notifier, socketNotifier } from '../moderation/notify.ts';
import { listTurnStarts, rollbackWorld } from '../moderation/rollback.ts';
import {
  allowRejoin,
  handOverSeat,
  markAbsent,
  removePlayer,
  watchAbsentSeats,
} from '../moderation/seats.ts';
import { worldFromPosition } from '../moderation/world-from-position.ts';
import {
  changeDeadline,
  changeSettings,
  closeWorld,
  pauseWorld,
  resolveNow,
  resumeWorld,
} from '../moderation/worlds.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import type { Io } from '../sockets/typed-server.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { HttpError } from './errors.ts';
import { parseBody, parseQuery, requireUser } from './guard.ts';

const RANK: Record<Role, number> = { player: 0, moderator: 1, admin: 2 };
const NEEDS: Record<ModerationLevel, number> = { user: 0, moderator: 1, admin: 2 };

const paramsSchema = z.object({
  id: z
    .string()
    .regex(/^([0-9a-f-]{36}|\d{1,18})$/i)
    .optional(),
  playerId: z
    .string()
    .regex(/^p\d{1,3}$/)
    .optional(),
});
const uuid = z.uuid();
const serial = z.string().regex(/^\d{1,18}$/);

interface Call {
  actor: Actor;
  id: string;
  playerId: string;
  body: Record<string, unknown> & { reason: string };
  query: Record<string, string | undefined>;
}

/** What a moderator action did: where the audit row points, and what players are told. */
interface Done {
  params: Record<string, unknown>;
  worldId?: string | null;
  targetUserId?: string | null;
  /** Told to the world's players (with the reason), as a notice and a chat line. */
  tell?: string;
  /** The game turn a rollback returned to, for the notice. */
  turn?: number;
}

type ActionHandler = (c: Call, ctx: ModContext) => Promise<ModResult<Done>>;
type ReadHandler = (c: Call, ctx: ModContext) => Promise<object>;

const ACTIONS: Partial<Record<ModerationRouteKey, ActionHandler>> = {
  pauseWorld: async (c, ctx) =>
    withWorld(c, await pauseWorld(ctx, c.id, c.body.reason), 'The world is paused by a moderator.'),
  resumeWorld: async (c, ctx) => withWorld(c, await resumeWorld(ctx, c.id), 'The world is running again.'),
  changeDeadline: async (c, ctx) =>
    withWorld(
      c,
      await changeDeadline(ctx, c.id, c.body as { shiftSeconds?: number; deadlineAt?: string }),
      'A moderator moved the current deadline.',
    ),
  resolveNow: async (c, ctx) =>
    withWorld(c, await resolveNow(ctx, c.id), 'A moderator resolved the current step now.'),
  changeSettings: async (c, ctx) =>
    withWorld(
      c,
      await changeSettings(ctx, c.id, c.body as Parameters<typeof changeSettings>[2]),
      'A moderator changed the deadline settings.',
    ),
  closeWorld: async (c, ctx) => withWorld(c, await closeWorld(ctx, c.id), 'The world is closed.'),
  worldFromPosition: async (c, ctx) => {
    const r = await worldFromPosition(ctx, c.actor.id, c.body as unknown as WorldFromPosition);
    return r.ok ? { ok: true, params: r.params, worldId: r.worldId } : r;
  },
  rollbackWorld: async (c, ctx) => {
    const turn = c.body.turn as number;
    const r = withWorld(
      c,
      await rollbackWorld(ctx, c.id, turn, c.actor.id, new Date(), c.body.reason),
      `A moderator returned the world to the start of game turn ${turn}.`,
    );
    return r.ok ? { ...r, turn } : r;
  },
  removePlayer: async (c, ctx) => {
    const r = await removePlayer(ctx, c.id, c.playerId, c.actor.id, c.body.reason);
    if (!r.ok) return r;
    const tell = `A moderator removed ${String(r.params.username)} from the world.`;
    return { ok: true, params: r.params, worldId: c.id, targetUserId: r.params.userId as string, tell };
  },
  allowRejoin: async (c, ctx) => {
    const r = await allowRejoin(ctx, c.id, c.playerId);
    if (!r.ok) return r;
    return { ok: true, params: r.params, worldId: c.id, targetUserId: r.params.userId as string };
  },
  handOverSeat: async (c, ctx) => {
    const r = await handOverSeat(ctx, c.id, c.playerId, c.body.username as string);
    if (!r.ok) return r;
    const tell = `A moderator handed ${String(r.params.fromUsername)}’s seat to ${String(r.params.toUsername)}.`;
    return { ok: true, params: r.params, worldId: c.id, targetUserId: r.toUserId, tell };
  },
  markAbsent: async (c, ctx) => {
    const standIn = (c.body.standIn as BotLevel | null | undefined) ?? null;
    const r = await markAbsent(ctx, c.id, c.playerId, c.body.absent as boolean, standIn);
    if (!r.ok) return r;
    return { ok: true, params: r.params, worldId: c.id, targetUserId: r.userId };
  },
  banUser: async (c, ctx) =>
    forUser(c, await banUser(ctx, c.actor, c.id, c.body.reason, c.body.until as string | null | undefined)),
  unbanUser: async (c, ctx) => forUser(c, await unbanUser(ctx, c.actor, c.id)),
  muteUser: async (c, ctx) =>
    forUser(c, await muteUser(ctx, c.actor, c.id, c.body.reason, c.body.until as string | null | undefined)),
  unmuteUser: async (c, ctx) => forUser(c, await unmuteUser(ctx, c.actor, c.id, c.body.reason)),
  setRole: async (c, ctx) => forUser(c, await setRole(ctx, c.actor, c.id, c.body.role as Role)),
  deleteChat: async (c, ctx) => {
    const r = await deleteChat(ctx, c.id);
    if (!r.ok) return r;
    return { ok: true, params: r.params, worldId: r.worldId, targetUserId: r.authorId };
  },
  resolveReport: async (c, ctx) => {
    const r = await resolveReport(ctx.db, c.actor.id, c.id, c.body.status as 'resolved' | 'dismissed');
    if (!r.ok) return r;
    return { ok: true, params: r.params, worldId: r.report.worldId, targetUserId: r.report.targetUserId };
  },
};

function withWorld(
  c: Call,
  r: ModResult<{ params: Record<string, unknown> }>,
  tell: string,
): ModResult<Done> {
  return r.ok ? { ok: true, params: r.params, worldId: c.id, tell } : r;
}
function forUser(c: Call, r: ModResult<{ params: Record<string, unknown> }>): ModResult<Done> {
  return r.ok ? { ok: true, params: r.params, targetUserId: c.id } : r;
}

const READS: Partial<Record<ModerationRouteKey, ReadHandler>> = {
  listTurns: async (c, ctx) => {
    const r = await listTurnStarts(ctx, c.id);
    if (!r.ok) fail(r);
    return { turns: r.turns };
  },
  listSeats: async (c, ctx) => {
    const rt = await ctx.hub.get(c.id);
    if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
    // A bot's seat has no account: it goes by the name it joined the world under ("Strong bot 2").
    const nameInWorld = new Map(rt.state.players.map((p) => [p.id as string, p.name]));
    const seats = await ctx.db.prisma.worldSeat.findMany({
      where: { worldId: c.id },
      orderBy: { joinedAt: 'asc' },
      include: { user: { select: { username: true } } },
    });
    return {
      seats: seats.map((s) => ({
        playerId: s.playerId,
        userId: s.userId,
        username: s.user?.username ?? nameInWorld.get(s.playerId) ?? s.playerId,
        bot: s.bot,
        standIn: s.standIn,
        colour: s.colour,
        absent: s.absent,
        missedTurns: s.missedTurns,
        left: s.leftAt !== null,
      })),
    };
  },
  worldChat: async (c, ctx) => {
    if (!(await ctx.hub.get(c.id))) throw new HttpError(404, 'world/not_found', 'No such world.');
    return { messages: await worldChat(ctx.db, c.id) };
  },
  listUsers: async (c, ctx) => {
    const q = parseQuery(userSearchQuerySchema, c.query);
    return { users: await listUsers(ctx, q.q ?? '') };
  },
  listReports: async (c, ctx) => {
    const q = parseQuery(reportListQuerySchema, c.query);
    return { reports: await listReports(ctx.db, q.status ?? 'open') };
  },
  auditLog: async (c, ctx) => {
    const q = parseQuery(auditQuerySchema, c.query);
    return { entries: await readAudit(ctx.db, q) };
  },
  createReport: async (c, ctx) => {
    const r = await createReport(ctx.db, c.actor.id, c.body);
    if (!r.ok) fail(r);
    return { report: r.report };
  },
};

/** A refused action: thrown out of its transaction so that nothing it wrote stays. */
class Refused extends Error {
  constructor(readonly result: ModFail) {
    super(result.error.code);
  }
}

const WORLD_ROUTES = '/api/moderation/worlds/:id/';

function fail(r: ModFail): never {
  const { code, ...params } = r.error;
  const status = MODERATION_STATUS[code] ?? 409;
  throw new HttpError(status, code, `The request was refused (${code}).`, params);
}

export interface ModerationLimits {
  burst: number;
  perSecond: number;
}

/**
 * Registers every moderation route. Call after `attachSockets` (players are told through the
 * sockets) and before the server listens. `notifier` replaces the socket one in tests.
 */
export function registerModeration(
  app: FastifyInstance,
  db: Database,
  hub: WorldHub,
  io: Io,
  options: { limits?: ModerationLimits; reportLimits?: ModerationLimits; notifier?: Notifier } = {},
): ModContext {
  const ctx: ModContext = {
    db,
    hub,
    notify: options.notifier ?? socketNotifier(db, io),
  };
  watchAbsentSeats(ctx);
  const l = options.limits ?? { burst: 30, perSecond: 1 };
  const rl = options.reportLimits ?? { burst: 5, perSecond: 1 / 60 };
  const log = (msg: string, data: object) => app.log.warn(data, msg);
  const limiter = Limit.shared(db, windowOf('moderation', l.burst, l.perSecond), log);
  const reportLimiter = Limit.shared(db, windowOf('report', rl.burst, rl.perSecond), log);

  for (const [key, route] of Object.entries(MODERATION_ROUTES) as [
    ModerationRouteKey,
    (typeof MODERATION_ROUTES)[ModerationRouteKey],
  ][]) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await requireUser(db, request);
      if (RANK[user.role] < NEEDS[route.level])
        throw new HttpError(403, 'auth/forbidden', 'Moderators only.', { needs: route.level });
      const bucket = route.level === 'user' ? reportLimiter : limiter;
      await guard(reply, [bucket, `account:${user.id}`]);
      const call = parseCall(request, { id: user.id, username: user.username, role: user.role }, route);
      const read = READS[key];
      if (read) return read(call, ctx);
      const act = ACTIONS[key];
      if (!act || !('action' in route)) throw new HttpError(500, 'http/internal', 'Unwired route.');
      const audited = (world?: WorldRuntime) =>
        inTransaction(
          db,
          async (tx) => {
            const r = await act(call, { ...ctx, db: tx, ...(world ? { world } : {}) });
            if (!r.ok) throw new Refused(r);
            const entry = await recordAction(tx, {
              actorId: user.id,
              action: route.action,
              worldId: r.worldId ?? null,
              targetUserId: r.targetUserId ?? null,
              reason: call.body.reason,
              params: r.params,
            });
            return { r, entry };
          },
          (msg, data) => request.log.warn(data ?? {}, msg),
        );
      let done: Awaited<ReturnType<typeof audited>>;
      try {
        if (route.path.startsWith(WORLD_ROUTES)) {
          const rt = await hub.get(call.id);
          if (!rt) throw new Refused({ ok: false, error: { code: 'world/not_found' } });
          done = await rt.run(async () => {
            await rt.catchUp();
            // The projections of the orders so far are written first: a rollback rewrites them.
            await rt.persisted();
            return audited(rt);
          });
        } else done = await audited();
      } catch (e) {
        if (e instanceof Refused) fail(e.result);
        throw e;
      }
      const { r, entry } = done;
      if (r.tell && r.worldId)
        await ctx.notify
          .notice(r.worldId, user.id, route.action, r.tell, call.body.reason, {
            ...(r.turn !== undefined ? { turn: r.turn } : {}),
          })
          .catch((e) => request.log.warn({ err: e }, 'moderation notice failed'));
      return { ok: true, action: entry };
    };
    if (route.method === 'GET') app.get(route.path, handler);
    else app.post(route.path, handler);
  }
  return ctx;
}

function parseCall(
  request: FastifyRequest,
  actor: Actor,
  route: (typeof MODERATION_ROUTES)[ModerationRouteKey],
): Call {
  const p = paramsSchema.safeParse(request.params);
  if (!p.success) throw new HttpError(404, 'moderation/not_found', 'No such thing.');
  const id = p.data.id ?? '';
  if (route.path.includes('/worlds/:id') || route.path.includes('/users/:id')) {
    if (!uuid.safeParse(id).success) throw new HttpError(404, 'moderation/not_found', 'No such thing.');
  } else if (route.path.includes(':id') && !serial.safeParse(id).success)
    throw new HttpError(404, 'moderation/not_found', 'No such thing.');
  const body = 'body' in route ? parseBody(route.body, request.body) : {};
  return {
    actor,
    id,
    playerId: p.data.playerId ?? '',
    body: body as Call['body'],
    query: (request.query ?? {}) as Record<string, string | undefined>,
  };
}
