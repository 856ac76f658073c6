/**
 * Chat moderation and reports: whether an account is muted (the socket layer asks before posting),
 * deleting a message (hidden from every history; the audit entry keeps its text), players' reports
 * of a message or a player, and the moderators' queue.
 */
import type { Report, ReportReceipt, ReportStatus } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { afterCommit } from '../db/transaction.ts';
import type { ModContext } from './context.ts';
import { type ModResult, refuse } from './errors.ts';

type Params = { params: Record<string, unknown> };

export async function deleteChat(
  ctx: ModContext,
  id: string,
): Promise<ModResult<Params & { worldId: string; authorId: string }>> {
  const row = await ctx.db.prisma.chatMessage.findUnique({ where: { id: BigInt(id) } });
  if (!row || row.deletedAt) return refuse('moderation/not_found', { chatMessageId: id });
  await ctx.db.prisma.chatMessage.update({ where: { id: row.id }, data: { deletedAt: new Date() } });
  afterCommit(ctx.db, () => ctx.notify.chatDeleted(row.worldId, id));
  return {
    ok: true,
    worldId: row.worldId,
    authorId: row.fromUserId,
    params: { chatMessageId: id, body: row.body, to: row.toPlayerId, sentAt: row.createdAt.toISOString() },
  };
}

export async function worldChat(db: Database, worldId: string) {
  const rows = await db.prisma.chatMessage.findMany({
    where: { worldId },
    orderBy: { id: 'desc' },
    take: 200,
    include: { fromUser: { select: { username: true } } },
  });
  return rows.reverse().map((m) => ({
    id: m.id.toString(),
    from: { userId: m.fromUserId, username: m.fromUser.username, playerId: m.fromPlayerId },
    to: m.toPlayerId,
    body: m.body,
    at: m.createdAt.toISOString(),
    deleted: m.deletedAt !== null,
  }));
}

type ReportRow = {
  id: bigint;
  reporterId: string;
  worldId: string | null;
  chatMessageId: bigint | null;
  targetUserId: string | null;
  reason: string;
  status: string;
  createdAt: Date;
};

async function toReports(db: Database, rows: ReportRow[]): Promise<Report[]> {
  const users = await db.prisma.user.findMany({
    where: {
      id: {
        in: [
          ...new Set(rows.flatMap((r) => (r.targetUserId ? [r.reporterId, r.targetUserId] : [r.reporterId]))),
        ],
      },
    },
    select: { id: true, username: true },
  });
  const names = new Map(users.map((u) => [u.id, u.username]));
  const ids = rows.flatMap((r) => (r.chatMessageId === null ? [] : [r.chatMessageId]));
  const msgs = await db.prisma.chatMessage.findMany({ where: { id: { in: ids } } });
  const byId = new Map(msgs.map((m) => [m.id.toString(), m]));
  return rows.map((r) => {
    const m = r.chatMessageId === null ? undefined : byId.get(r.chatMessageId.toString());
    return {
      id: r.id.toString(),
      reporter: { id: r.reporterId, username: names.get(r.reporterId) ?? '?' },
      worldId: r.worldId,
      chatMessage: m
        ? { id: m.id.toString(), body: m.body, fromUserId: m.fromUserId, deleted: m.deletedAt !== null }
        : null,
      targetUserId: r.targetUserId,
      targetUsername: r.targetUserId ? (names.get(r.targetUserId) ?? null) : null,
      reason: r.reason,
      status: r.status as ReportStatus,
      at: r.createdAt.toISOString(),
    };
  });
}

export async function createReport(
  db: Database,
  reporterId: string,
  body: {
    reason: string;
    worldId?: string | undefined;
    chatMessageId?: string | undefined;
    targetUserId?: string | undefined;
  },
): Promise<ModResult<{ report: ReportReceipt }>> {
  let worldId = body.worldId ?? null;
  let targetUserId = body.targetUserId ?? null;
  if (body.chatMessageId !== undefined) {
    const m = await db.prisma.chatMessage.findUnique({ where: { id: BigInt(body.chatMessageId) } });
    // A message the reporter could not read is refused exactly as one that does not exist, so ids
    // cannot be probed for private or deleted messages.
    if (!m || (worldId !== null && m.worldId !== worldId) || !(await canRead(db, reporterId, m)))
      return refuse('moderation/not_found', { chatMessageId: body.chatMessageId });
    // The moderators' own notices are not a player's words: there is nobody to report.
    if (m.system) return refuse('moderation/not_reportable', { chatMessageId: body.chatMessageId });
    worldId = m.worldId;
    targetUserId ??= m.fromUserId;
  }
  if (targetUserId !== null) {
    const u = await db.prisma.user.findUnique({ where: { id: targetUserId }, select: { id: true } });
    if (!u) return refuse('moderation/not_found', { targetUserId });
    if (u.id === reporterId) return refuse('auth/forbidden', { reason: 'self' });
  }
  const row = await db.prisma.report.create({
    data: {
      reporterId,
      worldId,
      chatMessageId: body.chatMessageId === undefined ? null : BigInt(body.chatMessageId),
      targetUserId,
      reason: body.reason,
    },
  });
  const [report] = await toReports(db, [row]);
  if (!report) throw new Error('report vanished');
  const { chatMessage, ...rest } = report;
  return { ok: true, report: { ...rest, chatMessageId: chatMessage?.id ?? null } };
}

/**
 * Whether an account could read a chat message in its world: a message not deleted, to everyone,
 * or its own, or to or from the seat the account holds there now (as the chat history shows it).
 */
async function canRead(
  db: Database,
  userId: string,
  m: {
    worldId: string;
    fromUserId: string;
    fromPlayerId: string | null;
    toPlayerId: string | null;
    deletedAt: Date | null;
  },
): Promise<boolean> {
  if (m.deletedAt) return false;
  if (m.toPlayerId === null || m.fromUserId === userId) return true;
  const seat = await db.prisma.worldSeat.findFirst({
    where: { worldId: m.worldId, userId, leftAt: null },
    select: { playerId: true },
  });
  return !!seat && (seat.playerId === m.toPlayerId || seat.playerId === m.fromPlayerId);
}

export async function listReports(db: Database, status: ReportStatus): Promise<Report[]> {
  const rows = await db.prisma.report.findMany({
    where: { status },
    orderBy: { id: status === 'open' ? 'asc' : 'desc' },
    take: 200,
  });
  return toReports(db, rows);
}

export async function resolveReport(
  db: Database,
  actorId: string,
  id: string,
  status: 'resolved' | 'dismissed',
): Promise<ModResult<Params & { report: Report }>> {
  const r = await db.prisma.report.updateMany({
    where: { id: BigInt(id), status: 'open' },
    data: { status, resolvedById: actorId, resolvedAt: new Date() },
  });
  if (r.count === 0) {
    const exists = await db.prisma.report.findUnique({ where: { id: BigInt(id) } });
    return refuse(exists ? 'moderation/report_closed' : 'moderation/not_found', { reportId: id });
  }
  const row = await db.prisma.report.findUniqueOrThrow({ where: { id: BigInt(id) } });
  const [report] = await toReports(db, [row]);
  if (!report) throw new Error('report vanished');
  return {
    ok: true,
    report,
    params: { reportId: id, status, chatMessageId: report.chatMessage?.id ?? null, worldId: report.worldId },
  };
}
