/**
 * The moderation area's calls to the server, built from MODERATION_ROUTES so a path can never
 * drift from the one the server registers. Holds no moderation rules: the server checks roles and
 * refuses with error codes that `wordsOf` turns into sentences.
 */
import type { ActionResponse, ModerationRouteKey, Role, RouteInput, RouteResponse } from '@bke/protocol';
import { call } from '../lib/api.ts';

/** Whether an account may open the moderation area (the server checks again on every call). */
export const canModerate = (role: Role | undefined | null) => role === 'moderator' || role === 'admin';

/**
 * A moderator's action by its route's name. The panels pick the route at run time from a list
 * of actions, which TypeScript cannot correlate with each route's own body type, so the body is
 * checked here only for its reason; the server parses it with the route's schema and answers
 * with a typed error in words when it does not fit.
 */
export function act(
  key: ModerationRouteKey,
  params: { id?: string; playerId?: string },
  body: Record<string, unknown> & { reason: string },
): Promise<ActionResponse> {
  return call(key, { params, body } as never) as Promise<ActionResponse>;
}

export type ModSeat = RouteResponse<'listSeats'>['seats'][number];
export type ModChat = RouteResponse<'worldChat'>['messages'][number];

export const listSeats = (worldId: string) =>
  call('listSeats', { params: { id: worldId } }).then((r) => r.seats);
export const listTurns = (worldId: string) =>
  call('listTurns', { params: { id: worldId } }).then((r) => r.turns);
export const worldChat = (worldId: string) =>
  call('worldChat', { params: { id: worldId } }).then((r) => r.messages);
export const listUsers = (q: string) => call('listUsers', { query: { q } }).then((r) => r.users);
export const listReports = (status: 'open' | 'resolved' | 'dismissed' = 'open') =>
  call('listReports', { query: { status } }).then((r) => r.reports);
export const readAudit = (before?: string) => call('auditLog', { query: { before } }).then((r) => r.entries);
export const report = (body: RouteInput<'createReport'>['body']) =>
  call('createReport', { body }).then((r) => r.report);
