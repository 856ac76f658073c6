/** The lobby's data: worlds as listed by the server, and the options a new world is created with. */
import { api } from './api.ts';
import type { Colour } from './wire.ts';

export interface WorldPlayerSummary {
  readonly name: string;
  readonly colour: Colour;
  readonly stage?: string | null;
}

export interface WorldSummary {
  readonly id: string;
  readonly name: string;
  readonly turn: number;
  readonly phase: string;
  readonly deadline: string | null;
  readonly players: readonly WorldPlayerSummary[];
  readonly maxPlayers: number;
  readonly status?: string;
  /** How the current account takes part: as a player, or not at all. */
  readonly joined?: boolean;
}

export const OPTIONAL_RULES = [
  ['tribalSeaCrossings', 'Tribal sea crossings (13.1.1)'],
  ['tribalAttacksOnNeutralGarrisons', 'Tribes may attack neutral garrisons (13.1.2)'],
  ['vikingModifications', 'Viking modifications (13.2.1)'],
  ['arabsAfricans', 'Arab and African start positions (13.2.2)'],
  ['persianKingdom', 'Persian kingdom (13.2.3)'],
  ['optionalCities', 'Optional cities (14.3)'],
  ['hunModifications', 'Hun modifications (13.2.4)'],
  ['auction', 'Auctioning units (13.3)'],
  ['mercenaries', 'Mercenary agreements (13.4)'],
  ['byzantium', 'Byzantium (13.5)'],
  ['optionalLeaders', 'Optional leaders (13.6)'],
  ['tribute', 'Tribute (13.7)'],
] as const;
export type OptionalRule = (typeof OPTIONAL_RULES)[number][0];

export interface NewWorld {
  name: string;
  victory: 'basic' | 'advanced';
  deadline: { mode: 'live' | 'minutes' | 'hours'; perPhase: number };
  earlyResolution: boolean;
  maxPlayers: number;
  opt: Partial<Record<OptionalRule, boolean>>;
}

export const listWorlds = () => api<{ worlds: WorldSummary[] }>('GET', '/api/worlds').then((r) => r.worlds);
export const createWorld = (w: NewWorld) =>
  api<{ world: WorldSummary }>('POST', '/api/worlds', w).then((r) => r.world);
export const joinWorld = (id: string) =>
  api<unknown>('POST', `/api/worlds/${encodeURIComponent(id)}/join`, {});
