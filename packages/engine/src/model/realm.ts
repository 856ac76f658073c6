/**
 * The part-2 sub-state (kingdoms, empires, cycles): plain JSON kept in `GameStateCore.realm`, the
 * way the combat side keeps `combat`. Per player it holds what lasts from one phase to a later
 * one (Good Ruler / Corruption pending, the latest Revival, this turn's capital capture, the
 * economic plan, an Attempted Coup); `ledger` is the turn record sheet of 14.3.3.
 * Read it only through `realmOf`, which tolerates a state made before the field existed.
 */

import type { StandingBid } from '../diplomacy/auction.ts';
import type { Prisoner } from '../diplomacy/capture.ts';
import type { LeaderType } from '../diplomacy/leaders.ts';
import type { Lease } from '../diplomacy/mercenaries.ts';
import type { LedgerRow } from '../realm/record.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import type { GameStateCore } from './state.ts';
import type { UnitKind } from './units.ts';

/** 10.6.2: an income effect noted on the record sheet, applied at the next tax collection. */
export type IncomeEffect = 'goodRuler' | 'corruption';

/** What a kingdom or empire decided for its economic phase (4.5.2, 4.5.3). */
export interface EconomicPlan {
  /** Units disbanded because upkeep cannot be paid (10.4; minimal set, AMBIG-32). */
  readonly disband: readonly UnitId[];
  /** Isolated empire garrisons disbanded at will (11.3). */
  readonly garrisonDisband: readonly UnitId[];
  /** Units bought at twice upkeep (10.5, 11.2). */
  readonly purchases: readonly { readonly kind: UnitKind; readonly area: AreaId }[];
  /** The Administration Table column bought, in percent of unmodified income (10.6.1). */
  readonly adminPercent: number;
  /** 10.3: where the capital marker goes if it must be placed (captured or off board). */
  readonly capital?: AreaId | null;
}

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
  readonly ledger: readonly LedgerRow[];
  /** The player whose administration is running, the choice it waits for and the work left. */
  readonly active: PlayerId | null;
  readonly pending: RealmChoice | null;
  readonly tasks: readonly RealmTask[];
  /** 13.6: captured leaders, off the board (opt.optionalLeaders). */
  readonly prisoners?: readonly Prisoner[];
  /** 13.4: mercenary leases, offered, running or ending (opt.mercenaries). */
  readonly leases?: readonly Lease[];
}

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

export const initialRealmState = (): RealmState => ({
  players: {},
  ledger: [],
  active: null,
  pending: null,
  tasks: [],
});

type WithRealm = { readonly realm?: unknown };

const isRealmState = (v: unknown): v is RealmState =>
  typeof v === 'object' && v !== null && 'players' in v && 'ledger' in v && 'tasks' in v;

/** The part-2 sub-state of a game (empty if the game predates it). */
export const realmOf = (g: GameStateCore): RealmState => {
  const r = (g as WithRealm).realm;
  return isRealmState(r) ? r : initialRealmState();
};

/** A copy of the game with a new part-2 sub-state. */
export const withRealm = <S extends GameStateCore>(g: S, realm: RealmState): S => ({ ...g, realm }) as S;

export const realmPlayer = (g: GameStateCore, id: PlayerId): RealmPlayer =>
  realmOf(g).players[id] ?? initialRealmPlayer();

export const patchRealmPlayer = <S extends GameStateCore>(
  g: S,
  id: PlayerId,
  patch: Partial<RealmPlayer>,
): S => {
  const r = realmOf(g);
  return withRealm(g, { ...r, players: { ...r.players, [id]: { ...realmPlayer(g, id), ...patch } } });
};

export const patchRealm = <S extends GameStateCore>(g: S, patch: Partial<RealmState>): S =>
  withRealm(g, { ...realmOf(g), ...patch });

/** AMBIG-42: a finished position loses its pending effects; the ledger stays. */
export const clearRealmPlayer = <S extends GameStateCore>(g: S, id: PlayerId): S => {
  const r = realmOf(g);
  const players = { ...r.players };
  delete players[id];
  return withRealm(g, { ...r, players });
};

/**
 * The part-2 sub-state as a viewer gets it: no `ledger`. The record sheet is open (2.4) but it grows
 * by a row per player per turn for the whole life of a world; it reaches clients once, as the
 * `ledgerRow` events of the order that wrote each row (the server keeps them as the VP ledger),
 * instead of inside every full view and again in the patch that appends it.
 */
export type RealmView = Omit<RealmState, 'ledger'>;

/** Other players' entries with their sealed parts taken out, kept per entry (see `realmViewFor`). */
const sealedEntries = new WeakMap<RealmPlayer, RealmPlayer>();
/** Views already made of a realm, per viewer ('' for the public one). */
const realmViews = new WeakMap<RealmState, Map<string, RealmView>>();

/**
 * What a viewer may see of the part-2 sub-state (STYLE habit 14): everything (2.4, bookkeeping is
 * open) except other players' standing bids (sealed, 13.3) and economic plans not yet carried out
 * (decisions made at once, 4.5); the ledger travels as events (`RealmView`).
 *
 * States are immutable, so the same realm always gives the same view, and an unchanged entry the
 * same sealed copy: a view shares what did not change with the previous one, as the state does,
 * and the server's patch walk (structural sharing) skips it.
 */
export function realmViewFor(realm: RealmState | undefined, viewer: PlayerId | null): RealmView | undefined {
  if (!realm) return realm;
  let byViewer = realmViews.get(realm);
  const cached = byViewer?.get(viewer ?? '');
  if (cached) return cached;
  // 13.4: running leases are public; offers not yet in force only the two parties see.
  const seen = (l: Lease) =>
    l.status === 'active' || l.status === 'ending' || l.owner === viewer || l.hirer === viewer;
  const leases = realm.leases?.every(seen) ? realm.leases : realm.leases?.filter(seen);
  const players: Record<string, RealmPlayer> = {};
  for (const [id, p] of Object.entries(realm.players)) players[id] = id === viewer ? p : sealed(p);
  const { ledger: _ledger, ...open } = realm;
  const view: RealmView = { ...open, players, ...(leases ? { leases } : {}) };
  if (!byViewer) {
    byViewer = new Map();
    realmViews.set(realm, byViewer);
  }
  byViewer.set(viewer ?? '', view);
  return view;
}

function sealed(p: RealmPlayer): RealmPlayer {
  let out = sealedEntries.get(p);
  if (!out) {
    const { bids: _bids, plan: _plan, ...open } = p;
    out = { ...open, plan: null };
    sealedEntries.set(p, out);
  }
  return out;
}
