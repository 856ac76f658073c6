/**
 * The realm sub-state (kingdoms, empires, and the optional diplomacy of 13): plain JSON kept in
 * `GameStateCore.realm`, beside the combat phase's `combat`. Per player it holds what lasts from
 * one phase to a later one (Good Ruler / Corruption pending, the latest Revival, this turn's
 * capital capture, the economic plan, an Attempted Coup); `sheet` holds the rows of the turn record
 * sheet (14.3.3) written in the latest game turn that wrote any, which the administration phase
 * still fills in (column 11). Older rows are history: each leaves the engine as a `ledgerRow`
 * event and the server keeps it (the VP ledger), so the state does not grow with the world's age.
 * Read it only through `realmOf`, which tolerates a state made before the field existed.
 */

import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { EconomicPlan } from './orders.ts';
import type { Stage, StartPosition } from './people.ts';
import type { UnitKind } from './units.ts';

/** 10.6.2: an income effect noted on the record sheet, applied at the next tax collection. */
export type IncomeEffect = 'goodRuler' | 'corruption';

export interface RealmPlayer {
  /** 10.6.2 Good Ruler / Corruption rolled last administration phase. */
  readonly incomeEffect: IncomeEffect | null;
  /** 10.6.2 Revival: number results count from this turn (AMBIG-35: reset by a stage change). */
  readonly revivalTurn: number | null;
  /** 10.3: the capital was captured at this turn's tax collection by this player. */
  readonly capitalCapture: { readonly turn: number; readonly by: PlayerId; readonly plunder: number } | null;
  /** Unmodified income (record-sheet column 2) of the latest economic phase, and its turn. */
  readonly lastIncome: number;
  readonly lastIncomeTurn: number;
  /** This turn's plan, if the player gave one (else the default plan is used). */
  readonly plan: EconomicPlan | null;
  /** The column actually used this turn (record-sheet column 10), before penalties. */
  readonly adminPercent: number;
  /** 11.7.2 result 11: the game turn whose player turn the coup restricts (AMBIG-38). */
  readonly coupTurn: number | null;
  /** 13.6: the optional leader's type, rolled on reaching kingdom stage (C.5.b). */
  readonly leaderType?: LeaderType | null;
  /** Income received outside the economic phase since the last ledger row (tribute, ransom; col. 3). */
  readonly offPhaseIncome?: number;
  /** 8.1: does this player intercept when it can (a standing choice; yes when unset)? */
  readonly intercept?: boolean;
  /** 13.3: standing bids for this turn's auctions (opt.auction). */
  readonly bids?: { readonly turn: number; readonly list: readonly StandingBid[] };
  /** 13.4 / AMBIG-21: cities the hirer has its mercenaries pillage at this turn's economic phase. */
  readonly mercenaryPillage?: { readonly turn: number; readonly areas: readonly AreaId[] };
  /** 13.7 / AMBIG-20: tribute paid this game turn, per receiver. */
  readonly tributePaid?: { readonly turn: number; readonly to: Readonly<Record<string, number>> };
}

/** A decision owed in the administration phase (a rebellion's or a Revival's choice). */
export type RealmChoice =
  | {
      readonly kind: 'units';
      /** Who chooses: the rebel, or a barbarian taking a defector (result 2). */
      readonly chooser: PlayerId;
      readonly rebel: PlayerId;
      readonly reason:
        | 'mercenariesGoHome'
        | 'armyMutiny'
        | 'defection'
        | 'garrisonsRemoval'
        | 'financialDisaster';
      readonly count: number;
      /** At most `count` of these; exactly `count` unless `upTo`. */
      readonly candidates: readonly UnitId[];
      readonly upTo: boolean;
    }
  | {
      readonly kind: 'province';
      readonly chooser: PlayerId;
      readonly candidates: readonly string[];
    }
  | {
      readonly kind: 'cities';
      readonly chooser: PlayerId;
      readonly reason: 'civilDisorder' | 'pirates';
      /** Tax value that must revolt (civil disorder) — the player picks cities reaching it. */
      readonly target: number;
      readonly candidates: readonly AreaId[];
    }
  | {
      readonly kind: 'capital';
      readonly chooser: PlayerId;
      readonly candidates: readonly (AreaId | null)[];
      readonly reason: 'revival' | 'captured';
    }
  | {
      readonly kind: 'garrisons';
      readonly chooser: PlayerId;
      /** 11.1: the 4-2s that may become (4)-0 garrisons. */
      readonly candidates: readonly UnitId[];
    };

/** Work left in the current player's administration phase, done in order (AMBIG-13). */
export type RealmTask =
  | { readonly kind: 'becomeEmpire' }
  | { readonly kind: 'rebellion'; readonly cause: 'administration' | 'empireNumber' | 'capitalLoss' }
  | { readonly kind: 'defection'; readonly queue: readonly PlayerId[] }
  | { readonly kind: 'civilDisorder'; readonly percent: number | 'roll' }
  | { readonly kind: 'revival' }
  | { readonly kind: 'garrisonRemoval' };

export interface RealmState {
  readonly players: Readonly<Record<string, RealmPlayer>>;
  /** 14.3.3: the record-sheet rows of the latest game turn that wrote any (see above). */
  readonly sheet: readonly LedgerRow[];
  /** The player whose administration is running, the choice it waits for and the work left. */
  readonly active: PlayerId | null;
  readonly pending: RealmChoice | null;
  readonly tasks: readonly RealmTask[];
  /** 13.6: captured leaders, off the board (opt.optionalLeaders). */
  readonly prisoners?: readonly Prisoner[];
  /** 13.4: mercenary leases, offered, running or ending (opt.mercenaries). */
  readonly leases?: readonly Lease[];
}

/** A player's realm entry before anything happened to it. */
export const initialRealmPlayer = (): RealmPlayer => ({
  incomeEffect: null,
  revivalTurn: null,
  capitalCapture: null,
  lastIncome: 0,
  lastIncomeTurn: 0,
  plan: null,
  adminPercent: 0,
  coupTurn: null,
});

/** The realm sub-state of a new game. */
export const initialRealmState = (): RealmState => ({
  players: {},
  sheet: [],
  active: null,
  pending: null,
  tasks: [],
});

/** Any state that carries the realm sub-state (a game state, or a view of one). */
type WithRealm = { readonly realm?: RealmState };

const isRealmState = (v: unknown): v is RealmState =>
  typeof v === 'object' && v !== null && 'players' in v && 'sheet' in v && 'tasks' in v;

/** The realm sub-state of a game (empty if the game predates it). */
export const realmOf = (g: WithRealm): RealmState => {
  const r: unknown = g.realm;
  return isRealmState(r) ? r : initialRealmState();
};

/** A copy of the game with a new realm sub-state. */
export const withRealm = <S extends WithRealm>(g: S, realm: RealmState): S => ({ ...g, realm }) as S;

/** A player's realm entry (the initial one if it has none). */
export const realmPlayer = (g: WithRealm, id: PlayerId): RealmPlayer =>
  realmOf(g).players[id] ?? initialRealmPlayer();

/** 8.1: does this player intercept when it can (its standing choice; yes by default)? */
export const intercepts = (g: WithRealm, player: PlayerId): boolean =>
  realmPlayer(g, player).intercept ?? true;

/** A copy of the game with a player's realm entry changed. */
export const patchRealmPlayer = <S extends WithRealm>(g: S, id: PlayerId, patch: Partial<RealmPlayer>): S => {
  const r = realmOf(g);
  return withRealm(g, { ...r, players: { ...r.players, [id]: { ...realmPlayer(g, id), ...patch } } });
};

/** A copy of the game with the realm sub-state changed. */
export const patchRealm = <S extends WithRealm>(g: S, patch: Partial<RealmState>): S =>
  withRealm(g, { ...realmOf(g), ...patch });

/**
 * 14.3.3: a new record-sheet row. A row of a later turn than those on the sheet starts a new page:
 * the earlier turn's rows are final (they went out as events) and leave the state.
 */
export const withSheetRow = <S extends WithRealm>(g: S, row: LedgerRow): S => {
  const r = realmOf(g);
  const kept = r.sheet.length > 0 && r.sheet[0]!.turn < row.turn ? [] : r.sheet;
  return withRealm(g, { ...r, sheet: [...kept, row] });
};

/** AMBIG-42: a finished position loses its pending effects; its record-sheet rows stay. */
export const clearRealmPlayer = <S extends WithRealm>(g: S, id: PlayerId): S => {
  const r = realmOf(g);
  const players = { ...r.players };
  delete players[id];
  return withRealm(g, { ...r, players });
};

/**
 * The realm sub-state as a viewer gets it: no `sheet`. The record sheet is open (2.4); its rows
 * reach clients once, as the `ledgerRow` events of the order that wrote each row (the server keeps
 * them as the VP ledger), instead of inside every full view and again in the patch that adds them.
 */
export type RealmView = Omit<RealmState, 'sheet'>;

/** A standing bid (engine decision for online play, see docs): one sealed round per economic phase. */
export interface StandingBid {
  readonly bidder: PlayerId;
  readonly auctioneer: PlayerId;
  readonly kind: UnitKind;
  readonly amount: number;
}

/** A captured leader, off the board, held under one unit of the captor (13.6). */
export interface Prisoner {
  readonly leader: UnitId;
  readonly owner: PlayerId;
  readonly captor: PlayerId;
  readonly holder: UnitId;
  /** Where the holder stands (kept up to date, so a lost holder still tells where it was). */
  readonly area: AreaId;
  readonly turn: number;
  /** The captor's standing ransom demand, if any. */
  readonly ransom?: number;
}

export const LEADER_TYPES = ['naval', 'general', 'dynastic', 'mobile', 'administrator', 'diplomat'] as const;

export type LeaderType = (typeof LEADER_TYPES)[number] | 'ordinary';

export const LEASE_STATUSES = ['offered', 'accepted', 'active', 'ending'] as const;

export type LeaseStatus = (typeof LEASE_STATUSES)[number];

/** One agreement between a barbarian owner and a hirer (at most one per pair). */
export interface Lease {
  readonly owner: PlayerId;
  readonly hirer: PlayerId;
  readonly units: readonly UnitId[];
  /** Paid once, at the turn start the lease takes effect. */
  readonly price: number;
  readonly status: LeaseStatus;
  /** The game turn of the latest change of status. */
  readonly turn: number;
}

/** What a column-11 entry may say: a table result, and what it led to. */
export interface AdminOutcome {
  readonly roll: number;
  readonly result: AdministrationResult;
  /** Rebellion Table rolls made this phase (11.7), in order, e.g. [7] or [3, 4]. */
  readonly rebellions: readonly number[];
  readonly becameEmpire: boolean;
}

export interface LedgerRow {
  readonly player: PlayerId;
  readonly cycle: number;
  readonly position: StartPosition;
  readonly stage: Stage;
  /** Column 1. */
  readonly turn: number;
  /** Column 2: tax income, the "unmodified income" (AMBIG-10: capital +2 included by default). */
  readonly tax: number;
  /** Column 3: Good Ruler/Corruption difference, loot, plunder, mercenary, tribute, ransom. */
  readonly other: number;
  /** Column 4: VP of the cycle so far = previous column 4 + column 2 + column 3. */
  readonly vp: number;
  /** Treasury carried in (previous column 9 after money moved outside the economic phase). */
  readonly carried: number;
  /** Column 5: money available = column 2 + column 3 + carried. */
  readonly available: number;
  /** Column 6: upkeep paid for units on the board. */
  readonly upkeep: number;
  /** Column 7: spent on new units. */
  readonly purchases: number;
  /** Column 8: spent on the Administration Table. */
  readonly administration: number;
  /** Column 9: treasury balance = 5 − (6 + 7 + 8), never negative. */
  readonly treasury: number;
  /** Column 10: the % column bought with column 8 (10.6.1). */
  readonly adminPercent: number;
  /** Column 11: the administration result (filled in the administration phase). */
  readonly adminResult: AdminOutcome | null;
}

export const ADMINISTRATION_EVENTS = ['rebellion', 'corruption', 'goodRuler', 'revival'] as const;

export type AdministrationEvent = (typeof ADMINISTRATION_EVENTS)[number];

/** A named event, or a number compared with the turns spent in the stage (10.6.2). */
export type AdministrationResult = AdministrationEvent | number;

export const REBELLION_RESULTS = {
  2: 'mercenaryDefection',
  3: 'financialDisaster',
  4: 'pirateAttack',
  5: 'provincialRebellion',
  6: 'civilDisorder',
  7: 'completeCollapse',
  8: 'mercenariesGoHome',
  9: 'armyMutiny',
  10: 'provincialRebellionNotSmallest',
  11: 'attemptedCoup',
  12: 'rebellionAndRevival',
} as const;

export type RebellionResult = (typeof REBELLION_RESULTS)[keyof typeof REBELLION_RESULTS];

/** 4.6: the realm's administration waits for this choice to be answered. */
export const askChoice = <S extends WithRealm>(g: S, choice: RealmChoice): S =>
  patchRealm(g, { pending: choice });

/** 4.6: these tasks run next, before the work already queued (AMBIG-13 order). */
export const pushTasks = <S extends WithRealm>(g: S, ...tasks: RealmTask[]): S =>
  patchRealm(g, { tasks: [...tasks, ...realmOf(g).tasks] });
