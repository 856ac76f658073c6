/** Moderation results: a value, or a typed refusal the route turns into an HTTP error. */
import type { ErrorCode, WireError } from '@bke/protocol';

export interface ModFail {
  ok: false;
  error: WireError;
}
export type ModResult<T extends object = object> = ({ ok: true } & T) | ModFail;

export const refuse = (code: ErrorCode, params: Record<string, unknown> = {}): ModFail => ({
  ok: false,
  error: { code, ...params },
});

/** HTTP status per code; anything else refused is a conflict with the world's state. */
export const MODERATION_STATUS: Partial<Record<ErrorCode, number>> = {
  'moderation/not_found': 404,
  'world/not_found': 404,
  'moderation/outranked': 403,
  'moderation/last_admin': 403,
  'moderation/not_reportable': 403,
  'auth/forbidden': 403,
  'http/invalid': 400,
  'moderation/position_refused': 400,
  'moderation/position_seats': 400,
  'world/no_such_player': 400,
};
