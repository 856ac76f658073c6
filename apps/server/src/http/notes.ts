/**
 * A person's own notes on a world (docs/notes-and-blocks.md). Private by construction: both routes
 * key the row by the session's own account, so no request — a moderator's or an admin's included —
 * can name another person's notes, and nothing else in the server reads the table but the
 * account's own data export (http/account-export.ts). The world must be one the caller may see, so
 * the routes tell a stranger nothing a world's page would not.
 */
import { HTTP_ROUTES, type NoteResponse } from '@bke/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Limits } from '../limits.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit, windowOf } from '../rate-limit/limit.ts';
import { visibleWorld } from '../worlds/access.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

const params = z.object({ id: z.uuid() });

/** The shared per-account limit on writes of one's own private things (notes, chat blocks). */
export function privateWritesLimit(app: FastifyInstance, db: Database, limits: Limits): Limit {
  const { burst, perMinute } = limits.privateWrites;
  return Limit.shared(db, windowOf('private-writes', burst, perMinute / 60), (msg, data) =>
    app.log.warn(data, msg),
  );
}

export function registerNotes(app: FastifyInstance, db: Database, writes: Limit): void {
  /** The caller and the world of the URL, which they may see; a world they may not is "no such world". */
  const callerAndWorld = async (request: FastifyRequest) => {
    const p = params.safeParse(request.params);
    if (!p.success) throw new HttpError(404, 'world/not_found', 'No such world.');
    const user = await requireUser(db, request);
    if (!(await visibleWorld(db, p.data.id, user)))
      throw new HttpError(404, 'world/not_found', 'No such world.');
    return { userId: user.id, worldId: p.data.id };
  };

  app.get(HTTP_ROUTES.getNote.path, async (request): Promise<NoteResponse> => {
    const key = await callerAndWorld(request);
    const row = await db.prisma.worldNote.findUnique({ where: { userId_worldId: key } });
    return { body: row?.body ?? '', updatedAt: row?.updatedAt.toISOString() ?? null };
  });

  app.post(HTTP_ROUTES.saveNote.path, async (request, reply: FastifyReply): Promise<NoteResponse> => {
    const key = await callerAndWorld(request);
    await guard(reply, [writes, `account:${key.userId}`]);
    const { body } = parseBody(HTTP_ROUTES.saveNote.body, request.body);
    if (body.trim() === '') {
      // Emptied notes are not kept: nothing of them stays to export.
      await db.prisma.worldNote.deleteMany({ where: key });
      return { body: '', updatedAt: null };
    }
    const now = new Date();
    const row = await db.prisma.worldNote.upsert({
      where: { userId_worldId: key },
      create: { ...key, body, updatedAt: now },
      update: { body, updatedAt: now },
    });
    return { body: row.body, updatedAt: row.updatedAt.toISOString() };
  });
}
