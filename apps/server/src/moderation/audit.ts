/**
 * The audit log: one append-only row per moderator action (who, what, when, why, which world or
 * account). The table refuses UPDATE and DELETE at the database level (trigger in the migration);
 * this module only ever inserts and reads.
 */
import { type AuditActionName, type AuditEntry, COMMAND_LINE_ACTOR_ID } from '@bke/protocol';
import type { Database } from '../db/database.ts';

export interface ActionRecord {
  actorId: string;
  action: AuditActionName;
  worldId?: string | null;
  targetUserId?: string | null;
  reason: string;
  params?: Record<string, unknown>;
}

type Row = {
  id: bigint;
  actorId: string;
  action: string;
  worldId: string | null;
  targetUserId: string | null;
  reason: string;
  params: unknown;
  createdAt: Date;
};

/** Appends one action to the log and returns it as the wire shape. */
export async function recordAction(db: Database, rec: ActionRecord): Promise<AuditEntry> {
  const row = await db.prisma.moderationAction.create({
    data: {
      actorId: rec.actorId,
      action: rec.action,
      worldId: rec.worldId ?? null,
      targetUserId: rec.targetUserId ?? null,
      reason: rec.reason,
      params: (rec.params ?? {}) as object,
    },
  });
  const names = await usernames(db, [row.actorId, ...(row.targetUserId ? [row.targetUserId] : [])]);
  return toAuditEntry(row, names, await worldNames(db, row.worldId ? [row.worldId] : []));
}

/** World id → name, so the log names worlds the way players know them. */
async function worldNames(db: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const worlds = await db.prisma.world.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, name: true },
  });
  return new Map(worlds.map((w) => [w.id, w.name]));
}

async function usernames(db: Database, ids: string[]): Promise<Map<string, string>> {
  const users = await db.prisma.user.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, username: true },
  });
  return new Map(users.map((u) => [u.id, u.username]));
}

function toAuditEntry(
  row: Row,
  names: Map<string, string>,
  worlds: Map<string, string> = new Map(),
): AuditEntry {
  return {
    id: row.id.toString(),
    actor: {
      id: row.actorId,
      username: row.actorId === COMMAND_LINE_ACTOR_ID ? 'the command line' : (names.get(row.actorId) ?? '?'),
    },
    action: row.action as AuditActionName,
    worldId: row.worldId,
    targetUserId: row.targetUserId,
    worldName: row.worldId ? (worlds.get(row.worldId) ?? null) : null,
    targetUsername: row.targetUserId ? (names.get(row.targetUserId) ?? null) : null,
    reason: row.reason,
    params: (row.params ?? {}) as Record<string, unknown>,
    at: row.createdAt.toISOString(),
  };
}

export interface AuditQuery {
  before?: string | undefined;
  worldId?: string | undefined;
  userId?: string | undefined;
  limit?: number;
}

/** Newest first, 100 at a time; `before` pages back by id. */
export async function readAudit(db: Database, q: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db.prisma.moderationAction.findMany({
    where: {
      ...(q.before ? { id: { lt: BigInt(q.before) } } : {}),
      ...(q.worldId ? { worldId: q.worldId } : {}),
      ...(q.userId ? { OR: [{ targetUserId: q.userId }, { actorId: q.userId }] } : {}),
    },
    orderBy: { id: 'desc' },
    take: q.limit ?? 100,
  });
  const names = await usernames(
    db,
    rows.flatMap((r) => (r.targetUserId ? [r.actorId, r.targetUserId] : [r.actorId])),
  );
  const worlds = await worldNames(
    db,
    rows.flatMap((r) => (r.worldId ? [r.worldId] : [])),
  );
  return rows.map((r) => toAuditEntry(r, names, worlds));
}
