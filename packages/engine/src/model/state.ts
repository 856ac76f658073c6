/**
 * The game state: plain JSON, never mutated. What can be derived (city
 * occupancy, groups, stacks, move order) is computed in queries.ts, not stored twice.
 */

import type { Colour } from './colours.ts';
import type { CombatPhaseState } from './combat.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { Options } from './options.ts';
import type { People, Stage, StartPosition } from './people.ts';
import type { RealmState } from './realm.ts';
import type { RngState } from './rng.ts';
import type { Unit } from './units.ts';

/** One pass barbarian → kingdom → empire (3, 14.3). */
export interface Cycle {
  readonly number: number;
  readonly position: StartPosition;
  readonly people: People;
  readonly stage: Stage;
  /** Game turn the cycle started (its tribe was placed): drives move order (4.1). */
  readonly startedTurn: number;
  /** 2d6 rolled when the cycle started; unique among players starting the same turn (AMBIG-44). */
  readonly orderRoll: number;
  /** First administration phase with ten or more units (9.3.x); never undone. */
  readonly countdownStartTurn: number | null;
  /** Turn the current stage was entered (10.6.2 counts turns since; AMBIG-41). */
  readonly stageTurn: number;
  /** Victory points of this cycle, never decreasing (14.3.1). */
  readonly vp: number;
}

/**
 * What the victory conditions need of a player's finished cycles (14.3.1 best cycle, 14.3.2 all VP
 * over all turns played), kept as running totals so the state does not grow with a world's age.
 * The cycles themselves are history: the `cycleStarted` / `cycleEnded` events tell them, and the
 * server keeps them as the world's chronicle.
 */
export interface FinishedCycles {
  /** Cycles ended so far; the next one is numbered `count + 1`. */
  readonly count: number;
  /** 14.3.1: the best finished cycle's VP. */
  readonly bestVp: number;
  /** 14.3.2: the VP of every finished cycle together. */
  readonly totalVp: number;
}

export const NO_FINISHED_CYCLES: FinishedCycles = { count: 0, bestVp: 0, totalVp: 0 };

/** waiting: joined or between cycles, picks a start position at the next turn start (4.2). */
export type PlayerStatus = 'waiting' | 'active' | 'left';

export interface PlayerState {
  readonly id: PlayerId;
  readonly name: string;
  readonly seat: number;
  readonly colour: Colour;
  readonly joinedTurn: number;
  readonly status: PlayerStatus;
  readonly cycle: Cycle | null;
  readonly finished: FinishedCycles;
  /** Hoard (barbarian, 9.4) or treasury (kingdom/empire, 10.7). */
  readonly money: number;
  /** Turns in which the player held a position (14.3.2, AMBIG-43). */
  readonly turnsPlayed: number;
  /** Capital marker: an area, or null when off board / not a kingdom (10.3). */
  readonly capital: AreaId | null;
  /** Declared in the turn, carried out in the player's administration phase (14.3). */
  readonly abandoning: boolean;
}

export interface CityState {
  /** Last owner at the start of an economic phase (3). */
  readonly owner: PlayerId | null;
  /** Owned by a player in some economic phase (a fact for the record; 14.1 regeneration reads `owner`). */
  readonly everOwned: boolean;
  /**
   * 13.2.3: its neutral garrison was taken away when PERSIAN was chosen (Ecbatana, Susa); none comes
   * back while the city stays unowned.
   */
  readonly garrisonRemoved?: true;
}

/** A numbered pillage marker (9.5). */
export interface PillageMarker {
  readonly area: AreaId;
  readonly digit: number;
  readonly pillager: PlayerId;
  readonly turn: number;
  /** Placed by a Pirate Attack (11.7.2 result 4): a neutral only under cfg.pirateMarkerIsNeutral (AMBIG-9). */
  readonly pirates?: boolean;
}

export const PLAYER_PHASES = ['combination', 'growth', 'movement', 'stacking', 'combat'] as const;
export type PlayerPhase = (typeof PLAYER_PHASES)[number];

export type AdminChoice =
  | { readonly type: 'continuity'; readonly groups: readonly (readonly AreaId[])[] }
  | { readonly type: 'unrestLoss'; readonly count: number }
  | { readonly type: 'foundKingdom' }
  /** A kingdom's or empire's administration choice (details in `realm.pending`). */
  | { readonly type: 'realm' };

/** Where the turn stands (A.4-X). */
/** The kinds of step a game moves through (4: the turn sequence). */
export const STEP_KINDS = ['idle', 'entry', 'playerTurn', 'economic', 'administration'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export type Step =
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'entry';
      /** Players still to choose, in order of their 2d6 (4.2, 14.3 step 4). */
      readonly queue: readonly PlayerId[];
      /** Each starter's roll key (2d6, ties re-rolled), kept as the cycle's move-order roll. */
      readonly rolls: Readonly<Record<string, number>>;
      /** 13.2.3: the Persian at the head of the queue still picks its army (around this area). */
      readonly army?: { readonly player: PlayerId; readonly area: AreaId };
    }
  | {
      readonly kind: 'playerTurn';
      readonly player: PlayerId;
      readonly phase: PlayerPhase;
      /** Units that have moved (or crossed, or were placed) this movement phase. */
      readonly moved: readonly UnitId[];
      /** Tribes created by a split this growth phase (not to split again). */
      readonly split: readonly UnitId[];
    }
  | {
      readonly kind: 'economic';
      /** Players who still have to confirm their decisions (acting at once, 4.5). */
      readonly pending: readonly PlayerId[];
      readonly pillage: Readonly<Record<string, readonly AreaId[]>>;
    }
  | {
      readonly kind: 'administration';
      readonly queue: readonly PlayerId[];
      readonly player: PlayerId | null;
      readonly choice: AdminChoice | null;
      /** Barbarian steps still to run for the current player. */
      readonly todo: readonly AdminTask[];
    };

export const ADMIN_TASKS = ['abandon', 'continuity', 'unrest', 'countdown', 'conversion', 'realm'] as const;
export type AdminTask = (typeof ADMIN_TASKS)[number];

/** Per-game-turn facts needed later in the same turn. */
export interface TurnFlags {
  /** Players who began the turn owning a non-tribe unit: no growth (9.2). */
  readonly growthBanned: readonly PlayerId[];
  /** Players who made at least one attack this turn (9.3.5); combat appends. */
  readonly attacked: readonly PlayerId[];
}

/** The undo log (BGA / Rally the Troops policy): orders since the last die or reveal. */
export interface UndoLog {
  readonly base: GameStateCore;
  readonly orders: readonly { readonly actor: PlayerId; readonly order: unknown }[];
}

/** A neutral garrison (14.1): one per area at most, strength fixed when placed. */
export interface NeutralGarrison {
  readonly strength: number;
}

/**
 * The state's shape. 2: the record sheet keeps only the latest turn's rows (`realm.sheet`) and
 * finished cycles are running totals (`PlayerState.finished`); 1 kept both whole.
 */
export const STATE_SCHEMA = 2;

export interface GameStateCore {
  /** The shape of this state; `upgradeState` (model/upgrade.ts) brings older stored states to it. */
  readonly schema: typeof STATE_SCHEMA;
  readonly rulesVersion: string;
  readonly mapVersion: string;
  readonly options: Options;
  readonly rng: RngState;
  /** Test and scripted-scenario dice, used before the PRNG (never set by players). */
  readonly riggedDice: readonly number[];
  readonly turn: number;
  readonly step: Step;
  readonly players: readonly PlayerState[];
  /** This turn's move order, fixed after entry (4.1); later phases follow it. */
  readonly order: readonly PlayerId[];
  readonly units: Readonly<Record<string, Unit>>;
  readonly nextUnit: number;
  /** Neutral garrisons by area (14.1). Pillage markers acting as garrisons are derived (9.5). */
  readonly neutrals: Readonly<Record<string, NeutralGarrison>>;
  readonly cities: Readonly<Record<string, CityState>>;
  readonly markers: readonly PillageMarker[];
  readonly flags: TurnFlags;
  /** The combat phase's bookkeeping (7.1, 8.2; model/combat.ts); reset each player turn. */
  readonly combat: CombatPhaseState | null;
  /**
   * Kingdoms, empires, this turn's record-sheet rows and the optional diplomacy (model/realm.ts). Set by createGame;
   * optional so hand-built test states may omit it (`realmOf` reads a missing one as initial).
   */
  readonly realm?: RealmState;
  /** Bumped by every applied order; the server rejects stale orders with it. */
  readonly version: number;
}

export interface GameState extends GameStateCore {
  readonly undo: UndoLog | null;
}
