/**
 * The moderation area's calls to the server, built from MODERATION_ROUTES so a path can never
 * drift from the one the server registers. Holds no moderation rules: the server checks roles and
 * refuses with error codes that `wordsOf` turns into sentences.
 */
import {
  type ActionResponse,
  type AuditEntry,
  MODERATION_ROUTES,
  type ModeratedUser,
  type ModerationRouteKey,
  type Report,
  type Role,
} from '@bke/protocol';
import { api } from '../lib/api.ts';

/** A route's path with its `:id` and `:playerId` filled in (URL-encoded). */
export function routePath(key: ModerationRouteKey, params: { id?: string; playerId?: string } = {}): string {
  let path: string = MODERATION_ROUTES[key].path;
  if (params.id !== undefined) path = path.replace(':id', encodeURIComponent(params.id));
  if (params.playerId !== undefined) path = path.replace(':playerId', encodeURIComponent(params.playerId));
  if (path.includes(':')) throw new Error(`missing parameter for ${key}: ${path}`);
  return path;
}

/** Whether an account may open the moderation area (the server checks again on every call). */
export const canModerate = (role: Role | undefined | null) => role === 'moderator' || role === 'admin';

export function act(
  key: ModerationRouteKey,
  params: { id?: string; playerId?: string },
  body: Record<string, unknown> & { reason: string },
): Promise<ActionResponse> {
  return api<ActionResponse>('POST', routePath(key, params), body);
}

export interface ModSeat {
  playerId: string;
  userId: string;
  username: string;
  /** A bot's seat: its level; null for a person's. */
  bot: string | null;
  /** The bot level playing an absent person's seat, if any. */
  standIn: string | null;
  colour: string;
  absent: boolean;
  missedTurns: number;
  left: boolean;
}
export interface ModChat {
  id: string;
  from: { userId: string; username: string; playerId: string | null };
  to: string | null;
  body: string;
  at: string;
  deleted: boolean;
}

export const listSeats = (worldId: string) =>
  api<{ seats: ModSeat[] }>('GET', routePath('listSeats', { id: worldId })).then((r) => r.seats);
export const listTurns = (worldId: string) =>
  api<{ turns: { turn: number; seq: number }[] }>('GET', routePath('listTurns', { id: worldId })).then(
    (r) => r.turns,
  );
export const worldChat = (worldId: string) =>
  api<{ messages: ModChat[] }>('GET', routePath('worldChat', { id: worldId })).then((r) => r.messages);
export const listUsers = (q: string) =>
  api<{ users: ModeratedUser[] }>('GET', `${routePath('listUsers')}?q=${encodeURIComponent(q)}`).then(
    (r) => r.users,
  );
export const listReports = (status: 'open' | 'resolved' | 'dismissed' = 'open') =>
  api<{ reports: Report[] }>('GET', `${routePath('listReports')}?status=${status}`).then((r) => r.reports);
export const readAudit = (before?: string) =>
  api<{ entries: AuditEntry[] }>('GET', `${routePath('auditLog')}${before ? `?before=${before}` : ''}`).then(
    (r) => r.entries,
  );
export const report = (body: {
  reason: string;
  worldId?: string;
  chatMessageId?: string;
  targetUserId?: string;
}) => api<{ report: Report }>('POST', routePath('createReport'), body).then((r) => r.report);
