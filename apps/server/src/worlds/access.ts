/**
 * Who may see a world and who may join it (the protocol's access.ts). A world that is not public is
 * hidden by construction: every query that reads worlds for someone takes its `where` from
 * `visibleTo`, so a world an outsider may not see is never read for them at all — not filtered out
 * of an answer afterwards. Moderators and admins see every world (they must, to moderate); a
 * world's members are its creator, the accounts invited into it (by name or by its link) and
 * those who ever held a seat in it.
 *
 * The invitation link carries 32 random bytes; only their SHA-256 is stored, so a copy of the
 * database opens no world. Making a new link replaces the old one; revoking it leaves none.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ErrorCode, WireError, WorldAccess } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { Prisma } from '../generated/prisma/client.ts';

type Fail = { ok: false; error: WireError };
const fail = (code: ErrorCode, params: Record<string, unknown> = {}): Fail => ({
  ok: false,
  error: { code, ...params },
});

/** Whoever asks: an account with its role, or nobody signed in. */
export type Viewer = { id: string; role: string } | null;

const seesEverything = (v: Viewer): boolean => v?.role === 'moderator' || v?.role === 'admin';

/** The worlds `viewer` may see, as a `where` for every query that reads worlds on someone's behalf. */
export function visibleTo(viewer: Viewer): Prisma.WorldWhereInput {
  if (seesEverything(viewer)) return {};
  if (!viewer) return { access: 'public' };
  return {
    OR: [
      { access: 'public' },
      { createdById: viewer.id },
      { invites: { some: { userId: viewer.id } } },
      { seats: { some: { userId: viewer.id } } },
    ],
  };
}

/**
 * `visibleTo` as a SQL condition on `worlds w`, for the statements written by hand: `$user` the
 * viewer's account id (null when nobody is signed in), `$all` whether the viewer sees every world.
 * Both say the same; the access tests run through both.
 */
export const visibleToSql = (user: string, all: string): string =>
  `(${all}::boolean OR w.access = 'public' OR (${user}::uuid IS NOT NULL AND (
      w.created_by_id = ${user}::uuid
      OR EXISTS (SELECT 1 FROM world_invites i WHERE i.world_id = w.id AND i.user_id = ${user}::uuid)
      OR EXISTS (SELECT 1 FROM world_seats vs WHERE vs.world_id = w.id AND vs.user_id = ${user}::uuid))))`;

/** Whether the viewer sees every world (moderators and admins), for `visibleToSql`'s `$all`. */
export const seesEveryWorld = seesEverything;

/** The world `worldId` if `viewer` may see it, else null (then it is, for them, no world). */
export async function visibleWorld(db: Database, worldId: string, viewer: Viewer) {
  return db.prisma.world.findFirst({
    where: { AND: [{ id: worldId }, visibleTo(viewer)] },
    select: { id: true, access: true, spectators: true, createdById: true },
  });
}

const hashInviteToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new invitation link for the world: its token, returned this once; the previous link stops working. */
export async function newInviteLink(db: Database, worldId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.world.update({ where: { id: worldId }, data: { inviteTokenHash: hashInviteToken(token) } });
  return token;
}

export async function revokeInviteLink(db: Database, worldId: string): Promise<void> {
  await db.prisma.world.update({ where: { id: worldId }, data: { inviteTokenHash: null } });
}

/**
 * Opening an invitation link: the account becomes a member of the world whose link it is (a
 * private world has no link: its members are invited by name). Unknown, revoked or replaced
 * tokens all read `world/invite_invalid`.
 */
export async function acceptInvite(
  db: Database,
  token: string,
  userId: string,
): Promise<{ ok: true; worldId: string; name: string } | Fail> {
  const w = await db.prisma.world.findUnique({
    where: { inviteTokenHash: hashInviteToken(token) },
    select: { id: true, name: true, access: true, status: true },
  });
  if (!w || w.access === 'private') return fail('world/invite_invalid');
  if (w.status === 'closed') return fail('world/closed');
  await db.prisma.worldInvite.upsert({
    where: { worldId_userId: { worldId: w.id, userId } },
    create: { worldId: w.id, userId, via: 'link' },
    update: {},
  });
  return { ok: true, worldId: w.id, name: w.name };
}

/** The accounts named `usernames` (any case), or the first name no account has. */
export async function accountsNamed(
  db: Database,
  usernames: readonly string[],
): Promise<{ ok: true; ids: string[] } | Fail> {
  const keys = [...new Set(usernames.map((u) => u.toLowerCase()))];
  if (keys.length === 0) return { ok: true, ids: [] };
  const users = await db.prisma.user.findMany({
    where: { usernameKey: { in: keys } },
    select: { id: true, usernameKey: true },
  });
  const missing = keys.find((k) => !users.some((u) => u.usernameKey === k));
  if (missing) return fail('world/no_such_player', { username: missing });
  return { ok: true, ids: users.map((u) => u.id) };
}

/** Invites the accounts `userIds` by name (those invited already stay as they were). */
export async function inviteByName(db: Database, worldId: string, userIds: readonly string[]): Promise<void> {
  await db.prisma.worldInvite.createMany({
    data: userIds.map((userId) => ({ worldId, userId, via: 'name' })),
    skipDuplicates: true,
  });
}

/**
 * Whether `userId` may take a seat, before the seat limits (seating.ts): an outsider of a world that
 * is not public finds no world there; in a public world the seats held for the accounts invited by
 * name are theirs until they take them.
 */
export async function joinRefusal(
  db: Database,
  world: { id: string; access: string; reservedSeats: number; maxPlayers: number; createdById: string },
  userId: string,
  seats: readonly { userId: string | null; leftAt: Date | null }[],
): Promise<Fail | null> {
  const invites = await db.prisma.worldInvite.findMany({
    where: { worldId: world.id },
    select: { userId: true, via: true },
  });
  const member =
    world.createdById === userId ||
    invites.some((i) => i.userId === userId) ||
    seats.some((s) => s.userId === userId);
  const active = seats.filter((s) => !s.leftAt);
  if ((world.access as WorldAccess) !== 'public') return member ? null : fail('world/not_found');
  if (world.reservedSeats === 0 || invites.some((i) => i.userId === userId && i.via === 'name')) return null;
  const byName = new Set(invites.filter((i) => i.via === 'name').map((i) => i.userId));
  const heldByInvited = active.filter((s) => s.userId !== null && byName.has(s.userId)).length;
  const stillHeld = Math.max(0, world.reservedSeats - heldByInvited);
  return active.length >= Math.min(6, world.maxPlayers) - stillHeld ? fail('world/seats_reserved') : null;
}
