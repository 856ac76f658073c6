/**
 * Who may join a world, later: its settings, invitations by name and the invitation link (made,
 * replaced, revoked) for the world's creator or a moderator; and opening a link (worlds/access.ts).
 */
import {
  type AccessResponse,
  HTTP_ROUTES,
  inviteTokenSchema,
  type WireError,
  type WorldAccess,
} from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SessionUser } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import {
  acceptInvite,
  accountsNamed,
  inviteByName,
  newInviteLink,
  revokeInviteLink,
  visibleWorld,
} from '../worlds/access.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

const idParam = z.object({ id: z.uuid() });
const tokenParam = z.object({ token: inviteTokenSchema });

const STATUS: Record<string, number> = {
  'world/not_found': 404,
  'world/no_such_player': 404,
  'world/invite_invalid': 404,
  'world/closed': 409,
};

function failure(error: WireError): never {
  const { code, ...params } = error;
  throw new HttpError(STATUS[code] ?? 400, code, `The request was refused (${code}).`, params);
}

/**
 * The world of the route, for its creator or a moderator; an outsider of a world hidden from them
 * finds none (`world/not_found`), a member who may not manage it is told so.
 */
async function managed(db: Database, params: unknown, user: SessionUser): Promise<string> {
  const p = idParam.safeParse(params);
  const w = p.success ? await visibleWorld(db, p.data.id, user) : null;
  if (!w) throw new HttpError(404, 'world/not_found', 'No such world.');
  if (w.createdById !== user.id && user.role !== 'moderator' && user.role !== 'admin')
    throw new HttpError(
      403,
      'world/not_creator',
      "Only the world's creator or a moderator changes who may join.",
    );
  return w.id;
}

async function accessOf(db: Database, worldId: string): Promise<AccessResponse> {
  const w = await db.prisma.world.findUniqueOrThrow({
    where: { id: worldId },
    select: {
      access: true,
      reservedSeats: true,
      spectators: true,
      inviteTokenHash: true,
      invites: { orderBy: { createdAt: 'asc' }, select: { via: true, user: { select: { username: true } } } },
    },
  });
  return {
    who: w.access as WorldAccess,
    reservedSeats: w.reservedSeats,
    spectators: w.spectators,
    link: w.inviteTokenHash !== null,
    invited: w.invites.map((i) => ({ username: i.user.username, via: i.via === 'link' ? 'link' : 'name' })),
  };
}

export function registerWorldAccess(app: FastifyInstance, db: Database, hub: WorldHub): void {
  app.get(HTTP_ROUTES.worldAccess.path, async (request) => {
    const user = await requireUser(db, request);
    return accessOf(db, await managed(db, request.params, user));
  });

  app.post(HTTP_ROUTES.changeWorldAccess.path, async (request) => {
    const user = await requireUser(db, request);
    const id = await managed(db, request.params, user);
    const body = parseBody(HTTP_ROUTES.changeWorldAccess.body, request.body);
    await db.prisma.world.update({
      where: { id },
      data: {
        ...(body.who ? { access: body.who } : {}),
        ...(body.reservedSeats !== undefined ? { reservedSeats: body.reservedSeats } : {}),
        ...(body.spectators !== undefined ? { spectators: body.spectators } : {}),
        // A private world has no link: its members are invited by name.
        ...(body.who === 'private' ? { inviteTokenHash: null } : {}),
      },
    });
    // Lobbies hear of the change as of any other (their lists are read again, filtered anew).
    hub.publish(id);
    return accessOf(db, id);
  });

  app.post(HTTP_ROUTES.inviteByName.path, async (request) => {
    const user = await requireUser(db, request);
    const id = await managed(db, request.params, user);
    const body = parseBody(HTTP_ROUTES.inviteByName.body, request.body);
    const found = await accountsNamed(db, [body.username]);
    if (!found.ok) failure(found.error);
    await inviteByName(db, id, found.ids);
    return accessOf(db, id);
  });

  app.post(HTTP_ROUTES.newInviteLink.path, async (request) => {
    const user = await requireUser(db, request);
    const id = await managed(db, request.params, user);
    parseBody(HTTP_ROUTES.newInviteLink.body, request.body);
    const w = await db.prisma.world.findUniqueOrThrow({ where: { id }, select: { access: true } });
    if (w.access === 'private')
      throw new HttpError(409, 'world/invite_invalid', 'A private world has no link: invite people by name.');
    return { token: await newInviteLink(db, id) };
  });

  app.post(HTTP_ROUTES.revokeInviteLink.path, async (request) => {
    const user = await requireUser(db, request);
    const id = await managed(db, request.params, user);
    parseBody(HTTP_ROUTES.revokeInviteLink.body, request.body);
    await revokeInviteLink(db, id);
    return { ok: true as const };
  });

  app.post(HTTP_ROUTES.acceptInvite.path, async (request) => {
    const user = await requireUser(db, request);
    parseBody(HTTP_ROUTES.acceptInvite.body, request.body);
    const p = tokenParam.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/invite_invalid', 'That invitation link does not work.');
    const r = await acceptInvite(db, p.data.token, user.id);
    if (!r.ok) failure(r.error);
    return { worldId: r.worldId, name: r.name };
  });
}
