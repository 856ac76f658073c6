/** The lobby's data: worlds as the server lists them, and the options a new world is created with. */
import type { Colour, CreateWorld, WorldSummary } from '@bke/protocol';
import { api } from './api.ts';

export type { WorldSummary };

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

/** The create-world form as the player fills it in. */
export interface NewWorldForm {
  name: string;
  victory: 'basic' | 'advanced';
  deadlineMode: 'live' | 'correspondence';
  minutesPerPhase: number;
  hoursPerPhase: number;
  earlyResolution: boolean;
  maxPlayers: number;
  opt: Partial<Record<OptionalRule, boolean>>;
}

export function createWorldBody(f: NewWorldForm): CreateWorld {
  const opt = Object.fromEntries(Object.entries(f.opt).filter(([, on]) => on));
  return {
    name: f.name.trim(),
    options: { opt, victory: f.victory },
    deadline:
      f.deadlineMode === 'live'
        ? { mode: 'live', minutesPerPhase: f.minutesPerPhase }
        : { mode: 'correspondence', hoursPerPhase: f.hoursPerPhase },
    earlyResolution: f.earlyResolution,
    maxPlayers: f.maxPlayers,
  };
}

/** The step a world is in, in words ("playerTurn:movement" → "Movement"). */
export function stepLabel(step: string): string {
  const [kind, phase] = step.split(':');
  const PHASES: Record<string, string> = {
    combination: 'Tribal combination',
    growth: 'Tribal growth',
    movement: 'Movement',
    stacking: 'Stacking',
    combat: 'Combat',
  };
  if (kind === 'playerTurn' && phase) return PHASES[phase] ?? phase;
  const KINDS: Record<string, string> = {
    idle: 'Waiting for players',
    entry: 'Choosing start positions',
    economic: 'Economic phase',
    administration: 'Administration',
  };
  return KINDS[kind ?? ''] ?? step;
}

export const seatsTaken = (w: WorldSummary) => w.seats.filter((s) => !s.left);
export const freeColours = (w: WorldSummary, all: readonly Colour[]) =>
  all.filter((c) => !seatsTaken(w).some((s) => s.colour === c));

export const listWorlds = () => api<{ worlds: WorldSummary[] }>('GET', '/api/worlds').then((r) => r.worlds);
export const createWorld = (f: NewWorldForm) =>
  api<{ world: WorldSummary }>('POST', '/api/worlds', createWorldBody(f)).then((r) => r.world);
export const joinWorld = (id: string, colour?: Colour) =>
  api<unknown>('POST', `/api/worlds/${encodeURIComponent(id)}/join`, colour ? { colour } : {});
export const setAway = (id: string, away: boolean) =>
  api<{ away: boolean }>('POST', `/api/worlds/${encodeURIComponent(id)}/away`, { away }).then((r) => r.away);
export const leaveWorld = (id: string) =>
  api<unknown>('POST', `/api/worlds/${encodeURIComponent(id)}/leave`, {});
