/**
 * Every error code the engine can return: one closed vocabulary, exported to the protocol and
 * the client, which give each code its words. Namespaces: `setup/` (a game's set-up), `order/`
 * (an order refused outside combat), `system/` (the server's own orders), `combat/` (the combat
 * phase, 7 and 8.2).
 */

/** Codes of set-up, orders outside combat and the server's own orders. */
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

/** Codes of the combat phase (7, 8.2, 8.4, 11.4). */
export const COMBAT_ERROR_CODES = [
  'combat/not_combat_phase',
  'combat/not_your_choice',
  'combat/resolution_pending',
  'combat/nothing_pending',
  'combat/no_attackers',
  'combat/duplicate_unit',
  'combat/not_your_unit',
  'combat/cannot_attack',
  'combat/coup_restricted',
  'combat/already_attacked',
  'combat/not_adjacent',
  'combat/no_defenders',
  'combat/tribes_attack_tribes_only',
  'combat/tribes_alone',
  'combat/odds_off_table',
  'combat/illegal_retreat',
  'combat/illegal_losses',
  'combat/illegal_advance',
  'combat/wrong_step',
  'combat/landing_owed',
] as const;
export type CombatErrorCode = (typeof COMBAT_ERROR_CODES)[number];

/** The full list, closed: a code not in it does not compile. */
export const ERROR_CODES = [...CORE_ERROR_CODES, ...COMBAT_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
