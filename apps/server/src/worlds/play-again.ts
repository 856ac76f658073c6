/**
 * Playing an ended world again (docs/world-access.md): the settings of a new world made from an
 * ended one, for one of its players. Everything the creator chose is kept — options and victory
 * conditions, deadline, early resolution, seats, how it ends and whether it is rated, who may join
 * and watch, the same bot levels in the same seat order — and the world's other players are
 * invited by name, so a world that is not public is open to them at once — all but those a
 * moderator removed from it (and did not let back): a removal is not undone by a new invitation.
 * The seed is drawn anew
 * (the same dice would replay the same game). A world that ended at a date cannot keep a date that
 * has passed: the new one runs as long as the old one was given, counted from now.
 */
import { createWorldSchema, type ErrorCode, type WireError } from '@bke/protocol';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { removedAccounts } from './removals.ts';

type Fail = { ok: false; error: WireError };
const fail = (code: ErrorCode): Fail => ({ ok: false, error: { code } });

/** The part of a world's stored setup a new world takes over (hub.ts `createWorld` writes it). */
const storedSetupSchema = z.object({ options: z.unknown(), deadline: z.unknown() });

export async function playAgainSettings(
  db: Database,
  worldId: string,
  userId: string,
  name?: string,
): Promise<{ ok: true; body: z.output<typeof createWorldSchema> } | Fail> {
  const world = await db.prisma.world.findUnique({
    where: { id: worldId },
    include: { seats: { orderBy: { seat: 'asc' }, include: { user: { select: { username: true } } } } },
  });
  if (!world) return fail('world/not_found');
  // Only its players: checked before anything else is told, so a stranger learns nothing of the world.
  if (!world.seats.some((s) => s.userId === userId)) return fail('world/not_a_player');
  if (world.status !== 'closed') return fail('world/not_ended');
  const setup = storedSetupSchema.parse(world.setup);
  const removed = await removedAccounts(db, worldId);
  const others = [
    ...new Set(
      world.seats.flatMap((s) =>
        s.user && s.userId && s.userId !== userId && !removed.has(s.userId) ? [s.user.username] : [],
      ),
    ),
  ].slice(
    0,
    20, // the creation form's bound on invitations; a world seats at most six at a time
  );
  const bots = world.seats.flatMap((s) => (s.bot && !s.leftAt ? [s.bot] : []));
  const ending =
    world.endUntil === 'date' && world.endAt
      ? {
          until: 'date',
          at: new Date(Date.now() + (world.endAt.getTime() - world.createdAt.getTime())).toISOString(),
          rated: world.rated,
        }
      : { until: world.endUntil, turn: world.endTurn ?? undefined, rated: world.rated };
  // What was stored is read back through the creation form's own schema, as any creation is.
  return {
    ok: true,
    body: createWorldSchema.parse({
      name: name ?? world.name,
      options: setup.options,
      deadline: setup.deadline,
      earlyResolution: world.earlyResolution,
      maxPlayers: world.maxPlayers,
      join: true,
      bots,
      ending,
      access: {
        who: world.access,
        reservedSeats: world.reservedSeats,
        spectators: world.spectators,
        invite: others,
      },
    }),
  };
}
