/**
 * Every error code the engine can return, one vocabulary shared with packages/protocol
 * (the client turns codes into words). Namespaces: setup/, order/, system/.
 * The combat engineer's codes live in ./combat and are appended here.
 */
import { COMBAT_ERROR_CODES } from '../combat/errors.ts';

export const CORE_ERROR_CODES = [
  'setup/invalid',
  'setup/map_invalid',
  'order/invalid',
  'order/not_your_turn',
  'order/wrong_phase',
  'order/unknown_unit',
  'order/not_your_unit',
  'order/not_adjacent',
  'order/unreachable',
  'order/already_moved',
  'order/blocked',
  'order/desert',
  'order/not_a_tribe',
  'order/tribe_inverted',
  'order/area_occupied',
  'order/growth_banned',
  'order/tribe_limit',
  'order/already_split',
  'order/start_unavailable',
  'order/start_too_early',
  'order/start_area_invalid',
  'order/option_off',
  'order/not_allowed_for_people',
  'order/sea_crossing_invalid',
  'order/not_pillageable',
  'order/not_a_barbarian',
  'order/must_resolve_stacking',
  'order/still_overstacked',
  'order/not_overstacked',
  'order/wrong_count',
  'order/not_a_group',
  'order/invalid_placement',
  'order/nothing_to_undo',
  'order/abandon_not_allowed',
  'order/game_idle',
  'order/support_move_owed',
  'system/unknown_player',
  'system/player_exists',
  'system/seat_taken',
  'system/only_system',
] as const;

export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** The full list: core codes, then the combat phase's (src/combat/errors.ts). */
export const ERROR_CODES = [...CORE_ERROR_CODES, ...COMBAT_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
