/**
 * Accounts: ban and unban (a banned account cannot log in, its sessions are deleted and its sockets
 * ended; a bot account's tokens are kept and refused with the ban's code while it lasts, so the
 * program is told why, and they work again once it is lifted), mute and unmute in chat, and roles (admins only). A moderator cannot act on a moderator
 * or an admin, nobody acts on their own account (no locking oneself out by mistake), and the last
 * admin who can log in is never demoted or banned: the site would be left without anyone able to
 * make admins again.
 */
import type { ModeratedUser, Role } from '@bke/protocol';
import { afterCommit } from '../db/transaction.ts';
import type { Actor, ModContext } from './context.ts';
import { type ModFail, type ModResult, refuse } from './errors.ts';

/** "Until lifted": the columns are nullable timestamps where null means not banned / not muted. */
const FOREVER = new Date('9999-12-31T00:00:00.000Z');

const RANK: Record<Role, number> = { player: 0, moderator: 1, admin: 2 };
type Params = { params: Record<string, unknown> };

async function target(ctx: ModContext, actor: Actor, userId: string) {
  const user = await ctx.db.prisma.user.findUnique({ where: { id: userId } });
  if (!user) return refuse('moderation/not_found', { userId });
  if (user.id === actor.id) return refuse('auth/forbidden', { reason: 'self' });
  if (actor.role !== 'admin' && RANK[user.role] >= RANK[actor.role])
    return refuse('moderation/outranked', { role: user.role });
  return { ok: true as const, user };
}

/**
 * Refuses to take the admin role from `user` (a demotion or a ban) when no other admin who can log
 * in would remain, or when the acting admin is no longer one. The admins' rows are locked first, so
 * two admins demoting each other at once are serialized: whichever comes second acts after the
 * first committed, is no longer an admin, and is refused as such. The route checked the role
 * before the transaction; this check under the lock is the one that holds, and it gives the same
 * answer whether the database serializes the two requests (embedded) or runs them side by side.
 */
async function keepsAnAdmin(
  ctx: ModContext,
  actor: Actor,
  user: { id: string; role: Role; username: string },
): Promise<ModFail | null> {
  if (user.role !== 'admin') return null;
  const admins = await ctx.db.sql<{ id: string }>(
    `SELECT id::text AS id FROM users
      WHERE role = 'admin' AND (banned_until IS NULL OR banned_until <= now())
      ORDER BY id FOR UPDATE`,
  );
  if (!admins.some((a) => a.id === actor.id)) return refuse('auth/forbidden', { needs: 'admin' });
  if (admins.some((a) => a.id !== user.id)) return null;
  return refuse('moderation/last_admin', { username: user.username });
}

export async function banUser(
  ctx: ModContext,
  actor: Actor,
  userId: string,
  reason: string,
  until: string | null | undefined,
): Promise<ModResult<Params>> {
  const t = await target(ctx, actor, userId);
  if (!t.ok) return t;
  const kept = await keepsAnAdmin(ctx, actor, t.user);
  if (kept) return kept;
  const bannedUntil = until ? new Date(until) : FOREVER;
  await ctx.db.prisma.user.update({ where: { id: userId }, data: { bannedUntil, banReason: reason } });
  // A bot's tokens stay: every request with one meets the ban (http/guard.ts) and learns it is
  // suspended, where a deleted token would only say "sign in first".
  const sessions = await ctx.db.prisma.session.deleteMany({ where: { userId, bot: false } });
  // Told first, then signed out: the pages they have open say why before their sockets end.
  afterCommit(ctx.db, () => {
    void ctx.notify
      .personal(userId, { worldId: null, action: 'user.ban', reason, until: until ?? null })
      .then(() => ctx.notify.endUserSockets(userId))
      .catch(() => {});
  });
  return {
    ok: true,
    params: {
      username: t.user.username,
      until: until ?? null,
      sessionsEnded: sessions.count,
      previousUntil: t.user.bannedUntil?.toISOString() ?? null,
    },
  };
}

export async function unbanUser(ctx: ModContext, actor: Actor, userId: string): Promise<ModResult<Params>> {
  const t = await target(ctx, actor, userId);
  if (!t.ok) return t;
  await ctx.db.prisma.user.update({ where: { id: userId }, data: { bannedUntil: null, banReason: null } });
  return {
    ok: true,
    params: { username: t.user.username, previousUntil: t.user.bannedUntil?.toISOString() ?? null },
  };
}

export async function muteUser(
  ctx: ModContext,
  actor: Actor,
  userId: string,
  reason: string,
  until: string | null | undefined,
): Promise<ModResult<Params>> {
  const t = await target(ctx, actor, userId);
  if (!t.ok) return t;
  await ctx.db.prisma.user.update({
    where: { id: userId },
    data: { mutedUntil: until ? new Date(until) : FOREVER },
  });
  afterCommit(ctx.db, () => {
    void ctx.notify.personal(userId, { worldId: null, action: 'user.mute', reason, until: until ?? null });
  });
  return { ok: true, params: { username: t.user.username, until: until ?? null } };
}

export async function unmuteUser(
  ctx: ModContext,
  actor: Actor,
  userId: string,
  reason: string,
): Promise<ModResult<Params>> {
  const t = await target(ctx, actor, userId);
  if (!t.ok) return t;
  await ctx.db.prisma.user.update({ where: { id: userId }, data: { mutedUntil: null } });
  afterCommit(ctx.db, () => {
    void ctx.notify.personal(userId, { worldId: null, action: 'user.unmute', reason });
  });
  return { ok: true, params: { username: t.user.username } };
}

export async function setRole(
  ctx: ModContext,
  actor: Actor,
  userId: string,
  role: Role,
): Promise<ModResult<Params>> {
  const t = await target(ctx, actor, userId);
  if (!t.ok) return t;
  const kept = role === 'admin' ? null : await keepsAnAdmin(ctx, actor, t.user);
  if (kept) return kept;
  await ctx.db.prisma.user.update({ where: { id: userId }, data: { role } });
  return { ok: true, params: { username: t.user.username, from: t.user.role, to: role } };
}

/** Accounts whose name starts with `prefix`, taken literally (`_` and `%` are no wildcards). */
export async function listUsers(ctx: ModContext, prefix: string): Promise<ModeratedUser[]> {
  const like = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await ctx.db.prisma.user.findMany({
    where: prefix ? { usernameKey: { startsWith: like } } : {},
    orderBy: { usernameKey: 'asc' },
    take: 50,
  });
  return rows.map((u) => ({
    id: u.id,
    username: u.username,
    role: u.role,
    bannedUntil: u.bannedUntil?.toISOString() ?? null,
    banReason: u.banReason,
    mutedUntil: u.mutedUntil?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  }));
}
