/**
 * 13.6 Optional leaders (opt.optionalLeaders, C.5.b, AMBIG-23): the 1d6 leader-type table rolled
 * on entering kingdom stage instead of the ordinary +1 leader, and what each type does.
 */
export const LEADER_TYPES = ['naval', 'general', 'dynastic', 'mobile', 'administrator', 'diplomat'] as const;
export type LeaderType = (typeof LEADER_TYPES)[number] | 'ordinary';

export interface LeaderProfile {
  readonly land: number;
  readonly naval: number;
  /** +1 on the sinking roll of the ship it travels with. */
  readonly sinking: number;
  /** Kept when the player becomes an empire. */
  readonly keptInEmpire: boolean;
  /** +MA for units moving with it from the start of the movement phase (house rule). */
  readonly movementBonus: number;
  /** Administration columns while in the capital's area. */
  readonly adminColumns: number;
  /** Fixed ransom when captured (diplomat: released at once for 1). */
  readonly fixedRansom: number | null;
}

const P = (land: number, naval: number, extra: Partial<LeaderProfile> = {}): LeaderProfile => ({
  land,
  naval,
  sinking: 0,
  keptInEmpire: false,
  movementBonus: 0,
  adminColumns: 0,
  fixedRansom: null,
  ...extra,
});

export const LEADER_PROFILES: Readonly<Record<LeaderType, LeaderProfile>> = {
  ordinary: P(1, 1),
  naval: P(1, 2, { sinking: 1 }),
  general: P(2, 1),
  dynastic: P(1, 1, { keptInEmpire: true }),
  mobile: P(1, 1, { movementBonus: 1 }),
  administrator: P(0, 0, { adminColumns: 2 }),
  diplomat: P(1, 1, { fixedRansom: 1 }),
};

/** 13.6 / C.5.b: the leader type for a 1d6 roll. */
export function leaderTypeFor(die: number): LeaderType {
  const t = LEADER_TYPES[die - 1];
  if (!t) throw new Error(`no leader type for ${die}`);
  return t;
}
