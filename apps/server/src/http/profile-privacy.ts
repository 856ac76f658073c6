/**
 * Whether an account keeps its profile to itself. A hidden profile is answered to its owner alone
 * (http/profile.ts) and its account is left off the leaderboards (http/ratings.ts); the worlds it
 * plays in still show its name at their tables, where the other players meet it anyway.
 */
import { HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { parseBody, requireUser } from './guard.ts';

export function registerProfilePrivacy(app: FastifyInstance, db: Database): void {
  app.get(HTTP_ROUTES.getProfilePrivacy.path, async (request) => {
    const user = await requireUser(db, request);
    const row = await db.prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { profileHidden: true },
    });
    return { hidden: row.profileHidden };
  });

  app.post(HTTP_ROUTES.setProfilePrivacy.path, async (request) => {
    const user = await requireUser(db, request);
    const body = parseBody(HTTP_ROUTES.setProfilePrivacy.body, request.body);
    const row = await db.prisma.user.update({
      where: { id: user.id },
      data: { profileHidden: body.hidden },
      select: { profileHidden: true },
    });
    return { hidden: row.profileHidden };
  });
}
