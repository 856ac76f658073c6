/** Lobby routes: list, create, show, join, leave. */

import { botLevelFrom, type GameEvent, type PlayerId } from '@bke/engine';
import {
  type AdminResultRow,
  adminResultRowSchema,
  type ErrorCode,
  HTTP_ROUTES,
  type WireError,
} from '@bke/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { rateLimitHeaders } from '../rate-limit/http.ts';
import { Limit } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { turnAt, turnMarks } from '../worlds/live-turns.ts';
import { playAgainSettings } from '../worlds/play-again.ts';
import { sheetLines } from '../worlds/record-sheet.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { HttpError } from './errors.ts';
import { currentUser, parseBody, requireUser } from './guard.ts';
import { listFinishedWorlds, listWorlds, summarize } from './world-summaries.ts';

const idParam = z.object({ id: z.uuid() });

function worldId(params: unknown): string {
  const r = idParam.safeParse(params);
  if (!r.success) throw new HttpError(404, 'world/not_found', 'No such world.');
  return r.data.id;
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  'world/not_found': 404,
  'world/full': 409,
  'world/closed': 409,
  'world/already_seated': 409,
  'world/not_seated': 409,
  'world/colour_taken': 409,
  'sync/stale': 409,
  'world/join_limit': 429,
  'world/not_a_bot': 409,
  'world/not_creator': 403,
  'world/removed': 403,
  'world/seats_reserved': 409,
  'world/no_such_player': 404,
  'world/not_ended': 409,
  'world/not_a_player': 403,
};

function failure(error: WireError): never {
  const { code, ...params } = error;
  throw new HttpError(STATUS[code] ?? 400, code, `The request was refused (${code}).`, params);
}

/** The ledger's column-11 rows (store.ts `projectLedgerRow`): the roll as value, the rest as detail. */
const ADMIN_RESULT = 'adminResult';
const adminDetailSchema = adminResultRowSchema.pick({ result: true, rebellions: true, becameEmpire: true });

function adminResultOf(l: {
  playerId: string;
  cycle: number;
  turn: number;
  value: number;
  detail: unknown;
}): AdminResultRow {
  const d = adminDetailSchema.parse(l.detail);
  return { playerId: l.playerId, cycle: l.cycle, turn: l.turn, roll: l.value, ...d };
}

async function runtimeOr404(hub: WorldHub, id: string): Promise<WorldRuntime> {
  const rt = await hub.get(id);
  if (!rt) throw new HttpError(404, 'world/not_found', 'No such world.');
  return rt;
}

/**
 * The daily counts a world's creator must be under: the account's worlds, then the address's
 * (the shared count; its headers go on the reply either way).
 */
async function mayCreateWorld(
  db: Database,
  limits: Limits,
  createdFromAddress: Limit,
  userId: string,
  ip: string,
  reply: FastifyReply,
): Promise<void> {
  const made = await db.prisma.world.count({
    where: { createdById: userId, createdAt: { gt: new Date(Date.now() - 86_400_000) } },
  });
  if (made >= limits.worldsPerDay)
    throw new HttpError(429, 'world/create_limit', 'You created as many worlds as a day allows.', {
      per: 'account',
      limit: limits.worldsPerDay,
    });
  // The address's count has a code of its own: `http/rate_limited` would read as "too many
  // attempts" to someone who made one world while others on their network made the rest.
  const taken = await createdFromAddress.take(`addr:${ip}`);
  if (!taken.ok) {
    void reply.headers(rateLimitHeaders(createdFromAddress, 0, taken.retryAfterSeconds));
    throw new HttpError(
      429,
      'world/create_limit',
      'As many worlds were created from this address as a day allows.',
      {
        per: 'address',
        limit: limits.worldsPerAddressPerDay,
        retryAfterSeconds: taken.retryAfterSeconds,
      },
    );
  }
  void reply.headers(rateLimitHeaders(createdFromAddress, taken.remaining, taken.resetSeconds));
}

/** A world's page: its summary, options, cycles and every player's record sheet. */
async function worldDetail(db: Database, rt: WorldRuntime) {
  const [cycles, ledger] = await Promise.all([
    db.prisma.worldCycle.findMany({ where: { worldId: rt.id }, orderBy: [{ startTurn: 'asc' }] }),
    db.prisma.vpLedgerRow.findMany({ where: { worldId: rt.id }, orderBy: [{ turn: 'asc' }] }),
  ]);
  const columns = ledger.filter((l) => l.column !== ADMIN_RESULT);
  return {
    world: await summarize(db, rt),
    options: rt.state.options,
    cycles: cycles.map(({ worldId: _w, updatedSeq: _u, ...c }) => c),
    sheet: sheetLines(columns, ledger.filter((l) => l.column === ADMIN_RESULT).map(adminResultOf)),
  };
}

/** The orders bots gave for a seat's player, oldest first, each with what the seat's view saw it do. */
async function botOrders(db: Database, hub: WorldHub, id: string, playerId: string) {
  // What a bot did for this seat: the order log's bot rows of the seat's player, newest 500.
  const rows = await db.prisma.worldOrder.findMany({
    where: { worldId: id, actor: playerId, kind: 'bot' },
    orderBy: { seq: 'desc' },
    take: 500,
    select: { seq: true, bot: true, order: true, createdAt: true, events: true },
  });
  // Each order in the turn it was given in, along the log as it now stands: those a rollback
  // undid are left out, as the History leaves them out (live-turns.ts).
  const marks = await turnMarks(db, id, rows[0]?.seq ?? 0);
  const orders = [];
  for (const r of rows.reverse()) {
    const turn = turnAt(marks, r.seq);
    if (turn === null) continue;
    orders.push({
      seq: r.seq,
      turn,
      bot: botLevelFrom(r.bot),
      order: r.order,
      // What the seat's own view says the order did, for the same sentences as the History.
      events: hub.engine.eventsFor(
        Array.isArray(r.events) ? (r.events as GameEvent[]) : [],
        playerId as PlayerId,
      ),
      at: r.createdAt.toISOString(),
    });
  }
  return orders;
}

/** A new world, the creator seated in it when asked, then the bots asked for, seats permitting. */
async function createWorld(
  db: Database,
  hub: WorldHub,
  limits: Limits,
  createdFromAddress: Limit,
  request: FastifyRequest,
  reply: FastifyReply,
  /** Playing an ended world again: the world it is made from (its settings and players). */
  from?: string,
) {
  const user = await requireUser(db, request);
  const body = from
    ? await playAgainBody(db, user, from, request.body)
    : parseBody(HTTP_ROUTES.createWorld.body, request.body);
  if (body.seed !== undefined && user.role !== 'admin')
    throw new HttpError(403, 'auth/forbidden', "Only an admin may choose a world's seed.", {
      reason: 'seed',
    });
  // Each world costs memory and a place in every lobby listing; admins set up as many as they need.
  if (user.role !== 'admin') await mayCreateWorld(db, limits, createdFromAddress, user.id, request.ip, reply);
  const r = await hub.createWorld(user.id, body);
  if (!r.ok && r.error.code === 'world/no_such_player') failure(r.error);
  if (!r.ok) {
    const { code: reason, ...params } = r.error;
    throw new HttpError(400, 'http/invalid', 'The world options are not valid.', { reason, ...params });
  }
  // The creator's seat first (its join starts the first turn), then the bots, seats permitting.
  if (body.join) {
    const j = await hub.join(r.worldId, user);
    if (!j.ok) failure(j.error);
  }
  for (const level of body.bots) {
    const b = await hub.addBot(r.worldId, level, user.id);
    if (!b.ok) break; // full: the world is made; the creator sees the seats it got
  }
  const world = await summarize(db, await runtimeOr404(hub, r.worldId));
  return { world, ...(r.inviteToken ? { inviteToken: r.inviteToken } : {}) };
}

/** The creation form of a world played again (worlds/play-again.ts), or why it is refused. */
async function playAgainBody(db: Database, user: { id: string; role: string }, id: string, raw: unknown) {
  const { name } = parseBody(HTTP_ROUTES.playAgain.body, raw);
  // A world hidden from the caller answers as one that does not exist (worlds/access.ts).
  if (!(await visibleWorld(db, id, user))) throw new HttpError(404, 'world/not_found', 'No such world.');
  const r = await playAgainSettings(db, id, user.id, name);
  if (!r.ok) failure(r.error);
  return r.body;
}

/** The routes that seat bots in a world and remove them. */
function registerBotSeats(app: FastifyInstance, db: Database, hub: WorldHub): void {
  /** The world's creator, or a moderator or admin, may seat and remove bots. */
  async function mayManageBots(id: string, user: { id: string; role: string }): Promise<void> {
    if (user.role === 'moderator' || user.role === 'admin') return;
    const w = await db.prisma.world.findUnique({ where: { id }, select: { createdById: true } });
    if (!w) throw new HttpError(404, 'world/not_found', 'No such world.');
    if (w.createdById !== user.id)
      throw new HttpError(403, 'world/not_creator', "Only the world's creator or a moderator manages bots.");
  }

  app.post(HTTP_ROUTES.addBot.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    const body = parseBody(HTTP_ROUTES.addBot.body, request.body);
    await mayManageBots(id, user);
    const r = await hub.addBot(id, body.level, user.id);
    if (!r.ok) failure(r.error);
    return { playerId: r.playerId };
  });

  app.post(HTTP_ROUTES.removeBot.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    parseBody(HTTP_ROUTES.removeBot.body, request.body);
    const playerId = z.object({ playerId: z.string().regex(/^p\d{1,4}$/) }).safeParse(request.params);
    if (!playerId.success) throw new HttpError(404, 'world/not_found', 'No such seat.');
    await mayManageBots(id, user);
    const r = await hub.removeBot(id, playerId.data.playerId, user.id);
    if (!r.ok) failure(r.error);
    return { ok: true as const };
  });
}

export function registerWorlds(app: FastifyInstance, db: Database, hub: WorldHub, limits: Limits): void {
  // Neither list loads a world this process let go of, nor reads the database once per world
  // (world-summaries.ts).
  // Each lists only the worlds the caller may see (worlds/access.ts), chosen in the query itself.
  app.get(HTTP_ROUTES.listWorlds.path, async (request) => ({
    worlds: await listWorlds(db, hub, await currentUser(db, request)),
  }));

  app.get(HTTP_ROUTES.listFinishedWorlds.path, async (request) => ({
    worlds: await listFinishedWorlds(db, hub, await currentUser(db, request)),
  }));

  // Several accounts on one address share one count: accounts cost nothing to make.
  const createdFromAddress = Limit.shared(
    db,
    { name: 'worlds', points: limits.worldsPerAddressPerDay, seconds: 86_400 },
    (msg, data) => app.log.warn(data, msg),
  );

  app.post(HTTP_ROUTES.createWorld.path, (request, reply) =>
    createWorld(db, hub, limits, createdFromAddress, request, reply),
  );

  // Counted against the same daily limits: playing again is creating a world.
  app.post(HTTP_ROUTES.playAgain.path, (request, reply) =>
    createWorld(db, hub, limits, createdFromAddress, request, reply, worldId(request.params)),
  );

  app.get(HTTP_ROUTES.getWorld.path, async (request) => {
    const id = worldId(request.params);
    if (!(await visibleWorld(db, id, await currentUser(db, request))))
      throw new HttpError(404, 'world/not_found', 'No such world.');
    return worldDetail(db, await runtimeOr404(hub, id));
  });

  app.post(HTTP_ROUTES.joinWorld.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    const body = parseBody(HTTP_ROUTES.joinWorld.body, request.body);
    const r = await hub.join(id, user, body.colour);
    if (!r.ok) failure(r.error);
    const world = await summarize(db, await runtimeOr404(hub, id));
    const seat = world.seats.find((s) => s.playerId === r.playerId);
    if (!seat) throw new HttpError(500, 'http/internal', 'The seat vanished.');
    return { world, seat };
  });

  app.post(HTTP_ROUTES.leaveWorld.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    parseBody(HTTP_ROUTES.leaveWorld.body, request.body);
    const r = await hub.leave(id, user.id);
    if (!r.ok) failure(r.error);
    return { world: await summarize(db, await runtimeOr404(hub, id)) };
  });

  app.post(HTTP_ROUTES.setAway.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    const body = parseBody(HTTP_ROUTES.setAway.body, request.body);
    const r = await hub.setAway(id, user.id, body.away, body.standIn ?? null);
    if (!r.ok) failure(r.error);
    return { away: body.away, standIn: body.away ? (body.standIn ?? null) : null };
  });

  registerBotSeats(app, db, hub);

  app.get(HTTP_ROUTES.botOrders.path, async (request) => {
    const user = await requireUser(db, request);
    const id = worldId(request.params);
    const seat = await hub.activeSeat(id, user.id);
    if (!seat) failure({ code: 'world/not_seated' });
    return { orders: await botOrders(db, hub, id, seat.playerId) };
  });
}
