/**
 * The shapes the client receives, as far as it reads them. They mirror the engine's GameView,
 * LegalOrder and GameEvent (packages/engine) without importing rules code; once packages/protocol
 * re-exports those types these become aliases of them. Fields the client does not read are left out.
 */

export type Colour = 'red' | 'blue' | 'green' | 'yellow' | 'black' | 'orange';
export type Stage = 'barbarian' | 'kingdom' | 'empire';
export type PlayerPhase = 'combination' | 'growth' | 'movement' | 'stacking' | 'combat';

export interface ViewUnit {
  readonly id: string;
  readonly owner: string;
  readonly kind: string;
  readonly area: string;
  readonly inverted?: boolean;
}

export interface ViewCycle {
  readonly number: number;
  readonly position: string;
  readonly people?: string;
  readonly stage: Stage;
  readonly startedTurn: number;
  readonly countdownStartTurn?: number | null;
  readonly stageTurn?: number;
  readonly vp: number;
}

/** A player's finished cycles as running totals (the cycles themselves are the chronicle). */
export interface ViewFinishedCycles {
  readonly count: number;
  readonly bestVp: number;
  readonly totalVp: number;
}

export interface ViewPlayer {
  readonly id: string;
  readonly name: string;
  readonly seat: number;
  readonly colour: Colour;
  readonly joinedTurn: number;
  readonly status: 'waiting' | 'active' | 'left';
  readonly cycle: ViewCycle | null;
  readonly finished: ViewFinishedCycles;
  readonly money: number;
  readonly turnsPlayed: number;
  readonly capital: string | null;
  readonly abandoning: boolean;
}

export type Step =
  | { readonly kind: 'idle' }
  | { readonly kind: 'entry'; readonly queue: readonly string[] }
  | {
      readonly kind: 'playerTurn';
      readonly player: string;
      readonly phase: PlayerPhase;
      readonly moved: readonly string[];
    }
  | { readonly kind: 'economic'; readonly pending: readonly string[] }
  | {
      readonly kind: 'administration';
      readonly queue: readonly string[];
      readonly player: string | null;
      readonly choice: { readonly type: string } | null;
    };

export interface PillageMarker {
  readonly area: string;
  readonly digit: number;
  readonly pillager: string;
  readonly turn: number;
}

export interface GameView {
  readonly turn: number;
  readonly step: Step;
  readonly players: readonly ViewPlayer[];
  readonly order: readonly string[];
  readonly units: Readonly<Record<string, ViewUnit>>;
  readonly neutrals: Readonly<Record<string, { readonly strength: number }>>;
  readonly cities: Readonly<Record<string, { readonly owner: string | null; readonly everOwned: boolean }>>;
  readonly markers: readonly PillageMarker[];
  readonly version: number;
  readonly viewer: string | null;
  readonly waitingFor: readonly string[];
  readonly canUndo: readonly string[];
  readonly options?: {
    readonly cfg?: { readonly tribeStrength?: number; readonly tribeMA?: number };
    readonly victory?: string;
  };
  /** Kingdoms' and empires' affairs (only what this viewer may see). */
  readonly realm?: ViewRealm;
}

/** The parts of the engine's realm state the client reads. */
export interface ViewRealm {
  /** 13.4 mercenary leases: offers only in the two parties' views, running ones in everyone's. */
  readonly leases?: readonly {
    readonly owner: string;
    readonly hirer: string;
    readonly units: readonly string[];
    readonly price: number;
    readonly status: string;
  }[];
  /** 13.6 captured leaders, off the board; `ransom` is the captor's demand. */
  readonly prisoners?: readonly {
    readonly leader: string;
    readonly owner: string;
    readonly captor: string;
    readonly holder: string;
    readonly ransom?: number;
  }[];
}

/** Legal orders as the engine lists them (grouped per unit, like chessground's dests). */
export type LegalOrder =
  | { type: 'chooseStart'; position: string; areas: string[] }
  /** 13.2.3: an army for the Persian start, placed as suggested; `areas` are where its units may go. */
  | {
      type: 'persianArmy';
      units: { kind: string; area: string }[];
      leader: string;
      areas: string[];
    }
  | { type: 'combine'; tribes: [string, string]; areas: string[] }
  | { type: 'split'; tribe: string }
  | {
      type: 'move';
      unit: string;
      from: string;
      destinations: ({ to: string; path: string[] } & Foreseen)[];
    }
  | ({ type: 'seaCrossing'; tribe: string; sea: string; to: string[] } & Foreseen)
  | { type: 'placeEntryTribes'; areas: string[] }
  | { type: 'disband'; unit: string }
  | { type: 'pillage'; area: string }
  | { type: 'keepGroup'; area: string; group: string[] }
  | { type: 'removeUnits'; count: number; candidates: string[] }
  | { type: 'foundKingdom'; leaderWith: string[]; capital: (string | null)[] }
  | { type: 'declareAbandon'; abandon: boolean }
  | ({ type: 'endPhase' } & Foreseen)
  | { type: 'undo' }
  /** 5.2: a ship sails a path (start excluded) carrying units from its start area. */
  | {
      type: 'shipMove';
      ship: string;
      path: string[];
      cargo: string[];
      /** 8.2: the path ends in an enemy-held coastal area: the cargo lands there in the combat phase. */
      landing?: boolean;
      /** AMBIG-15: units waiting on this path that a stop could take aboard. */
      pickups?: { at: string; units: string[] }[];
      /** 8.1: the player's other unmoved ships in the same area that may sail with this one (`with`). */
      companions?: string[];
    }
  | CombatLegalOrder
  | RealmLegalOrder;

/** What a legal order would foreseeably cost, as the engine tells it (each with its rule section). */
export type Consequence =
  | {
      kind: 'stackingLoss';
      section: '6' | '9.2';
      area: string;
      lose: number;
      automatic: boolean;
      avoidable: boolean;
    }
  | { kind: 'hordeCutApart'; section: '9.3.4'; groups: string[][]; tribesAtRisk: number; mendable: boolean }
  | { kind: 'supportLost'; section: '11.5'; units: string[] }
  | { kind: 'mayBeLost'; section: '13.1.1'; unit: string; chance: number }
  | { kind: 'upkeepShortfall'; section: '10.4'; upkeep: number; available: number; disband: string[] };

/** The consequences attached to one choice; `onlyLoses`: its only effect is a loss. */
export type Foreseen = {
  consequences?: Consequence[];
  onlyLoses?: true;
};

/** A kingdom's or empire's economic plan (4.5.2–4.5.3): upkeep disbanding, purchases, administration. */
export interface EconomicPlan {
  disband: string[];
  garrisonDisband: string[];
  purchases: { kind: string; area: string }[];
  adminPercent: number;
  capital?: string | null;
}

/** Kingdom and empire decisions: concrete plans and answers the engine lists (10, 11). */
export type RealmLegalOrder =
  | ({ type: 'realmPlan'; plan: EconomicPlan } & Foreseen)
  | { type: 'realmUnits'; units: string[] }
  | { type: 'realmProvince'; province: string }
  | { type: 'realmCities'; cities: string[] }
  | { type: 'realmCapital'; area: string | null }
  | { type: 'realmGarrisons'; units: string[] }
  /** 13.7 (opt.tribute): pay tribute to the phasing player before its combat phase; one per amount. */
  | { type: 'realmTribute'; to: string; amount: number }
  /** 8.1: the standing choice whether this player's ships intercept (the toggle to the other value). */
  | { type: 'realmInterception'; intercept: boolean }
  /** 13.3 (opt.auction): a sealed bid for a unit of this kind if that empire auctions one. */
  | { type: 'realmBid'; auctioneer: string; kind: string; amount: number };

/** One way to make an attack, with the odds column it would be fought on (shown before confirming). */
export interface AttackChoice {
  attackers: string[];
  /** Column id such as '3-2', or 'autoAE'. */
  odds: string;
  shift: number;
  /** 7.1: the chance of each result at these odds, computed by the engine from its table. */
  outcomes?: { result: string; chance: number }[];
}

/** Combat-phase choices (7, 8) as the combat engine lists them. */
export type CombatLegalOrder =
  | {
      type: 'combatAttack';
      target: string;
      defender: string | null;
      defenders: string[];
      neutral: number | null;
      eligible: { unit: string; from: string; halved: boolean }[];
      choices: AttackChoice[];
      /** 8.2: the owed attack of a landing force declared in the movement phase. */
      landing?: boolean;
    }
  | { type: 'combatRetreat'; unit: string; from: string; paths: string[][]; eliminated: boolean }
  | { type: 'combatExchangeLoss'; owed: number; sets: string[][] }
  | { type: 'combatAdvance'; unit: string; from: string; to: string[]; pursuit: boolean }
  | { type: 'combatStop' }
  /** 8.4: take the beaten enemy ship (true) or let it be (false); `ship` is the ship concerned. */
  | { type: 'combatCapture'; capture: boolean; ship?: string }
  | { type: 'combatEliteChoice'; refuse: boolean; elites: string[] }
  | { type: 'combatReroll'; abort: boolean }
  | { type: 'combatDone' };

/** An order as sent: the engine's Order (the client builds only what a legal order offered). */
export type Order = { type: string; [field: string]: unknown };

/** An event is a fact; `lib/words.ts` turns it into a sentence. */
export type GameEvent = { type: string; [field: string]: unknown };
