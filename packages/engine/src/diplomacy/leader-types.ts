/**
 * 13.6 Optional leaders (opt.optionalLeaders, C.5.b, AMBIG-23): the 1d6 leader-type table rolled
 * on entering kingdom stage instead of the ordinary +1 leader, and what each type does.
 */
import { rollDie } from '../model/dice.ts';
import type { RealmEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { Options } from '../model/options.ts';
import { LEADER_TYPES, type LeaderType, patchRealmPlayer, realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';

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

/**
 * 13.6: on reaching kingdom stage with opt.optionalLeaders, roll the leader's type (no roll and
 * an ordinary leader without the option). Called when the kingdom is founded (10.1).
 */
export function assignLeaderType<S extends GameStateCore>(
  o: Options,
  g: S,
  player: PlayerId,
): { state: S; events: RealmEvent[] } {
  if (!o.opt.optionalLeaders) return { state: g, events: [] };
  const d = rollDie(g);
  const leaderType = leaderTypeFor(d.value);
  return {
    state: patchRealmPlayer(d.state, player, { leaderType }),
    events: [{ type: 'leaderTypeRolled', player, die: d.value, leaderType }],
  };
}

/** 13.6: the type of this player's leader ('ordinary' without the option or before a roll). */
export function leaderTypeOf(g: GameStateCore, player: PlayerId): LeaderType {
  return realmPlayer(g, player).leaderType ?? 'ordinary';
}

/** 13.6 administrator: +2 columns while the leader stands in the capital's area. */
export function administratorAtCapital(g: GameStateCore, player: PlayerId, capital: string | null): boolean {
  if (!capital || leaderTypeOf(g, player) !== 'administrator') return false;
  return Object.values(g.units).some((u) => u.owner === player && u.kind === 'leader' && u.area === capital);
}
