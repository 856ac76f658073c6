/** The lobby's data: worlds as the server lists them, and the options a new world is created with. */

import type {
  BotLevel,
  Colour,
  CreateWorld,
  FinalStanding,
  FinishedWorld,
  WorldSummary,
} from '@bke/protocol';
import { BOT_LEVEL_TEXT, BOT_LEVELS, GENTLEST_BOT_LEVEL } from '@bke/protocol';
import { type AccessForm, accessBody, keepLink } from './access.ts';
import { call } from './api.ts';

export type { FinalStanding, FinishedWorld, WorldSummary };

export const OPTIONAL_RULES = [
  [
    'tribalSeaCrossings',
    'Tribal sea crossings (13.1.1)',
    'Viking, Pict and Arab tribes may gamble on crossing marked seas: half of them drown.',
  ],
  [
    'tribalAttacksOnNeutralGarrisons',
    'Tribes may attack neutral garrisons (13.1.2)',
    'Pict tribes may attack the neutral garrisons of Britannia, African tribes those of Mauretania.',
  ],
  ['vikingModifications', 'Viking modifications (13.2.1)', 'The Viking position opens only from turn 3.'],
  [
    'arabsAfricans',
    'Arab and African start positions (13.2.2)',
    'From turn 3, Arab and African hordes may enter from off the map with two tribes that cross deserts.',
  ],
  [
    'persianKingdom',
    'Persian kingdom (13.2.3)',
    'From turn 7, a player may start as a ready-made Persian kingdom instead of a horde.',
  ],
  [
    'optionalCities',
    'Optional cities (14.3)',
    'The hollow-circle cities of the east come into play, each worth 1.',
  ],
  [
    'hunModifications',
    'Hun modifications (13.2.4)',
    'Hun kingdoms and empires roll on the administration table one column worse.',
  ],
  [
    'auction',
    'Auctioning units (13.3)',
    'An empire short of upkeep auctions its unpaid units to the other players instead of disbanding them.',
  ],
  [
    'mercenaries',
    'Mercenary agreements (13.4)',
    'Barbarians may lease fighting units to kingdoms and empires for an agreed price.',
  ],
  ['byzantium', 'Byzantium (13.5)', 'Units defending in Byzantium fight one column better.'],
  [
    'optionalLeaders',
    'Optional leaders (13.6)',
    'New kingdoms roll for a kind of leader with its own gift; leaders are captured and ransomed instead of killed.',
  ],
  [
    'tribute',
    'Tribute (13.7)',
    'Kingdoms and empires may pay up to 5 a turn to a threatening neighbour (the promise binds nobody).',
  ],
] as const;
type OptionalRule = (typeof OPTIONAL_RULES)[number][0];

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
  /** Take the first seat at once. */
  join: boolean;
  /** Bots seated after the creator, and their level. */
  bots: number;
  botLevel: BotLevel;
  /** How the world ends (14.3.1 game length) and whether it is rated. */
  ending?: { until: 'open' | 'turn' | 'date'; turn: number; date: string; rated: boolean };
  /** Who may join (access.ts); public when omitted. */
  access?: AccessForm;
}

/** Each bot level's name and how it plays, gentlest first (the engine's sentences). */
export const BOT_LEVEL_WORDS: Record<BotLevel, string> = Object.fromEntries(
  BOT_LEVELS.map((l) => [l, `${BOT_LEVEL_TEXT[l].name} — ${BOT_LEVEL_TEXT[l].sentence}`]),
) as Record<BotLevel, string>;

/** The bots' level a new world's form starts at: the gentlest for a player with no world yet. */
export const defaultBotLevel = (hasWorlds: boolean): BotLevel => (hasWorlds ? 'normal' : GENTLEST_BOT_LEVEL);

/** The form's ending as the server takes it; a form without one makes an open-ended, rated world. */
function endingBody(e: NewWorldForm['ending']): CreateWorld['ending'] {
  if (!e) return { until: 'open', rated: true };
  if (e.until === 'turn') return { until: 'turn', turn: e.turn, rated: e.rated };
  // The form's date and time are the player's local ones; the server keeps the moment.
  if (e.until === 'date') return { until: 'date', at: new Date(e.date).toISOString(), rated: e.rated };
  return { until: 'open', rated: e.rated };
}

function createWorldBody(f: NewWorldForm): CreateWorld {
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
    join: f.join,
    ending: endingBody(f.ending),
    bots: Array.from(
      { length: Math.max(0, Math.min(f.bots, f.maxPlayers - (f.join ? 1 : 0))) },
      () => f.botLevel,
    ),
    ...(f.access ? { access: accessBody(f.access) } : {}),
  };
}

export const seatsTaken = (w: WorldSummary) => w.seats.filter((s) => !s.left);

export const listWorlds = () => call('listWorlds').then((r) => r.worlds);
/** Closed worlds with their final standings, most recently closed first. */
export const listFinishedWorlds = () => call('listFinishedWorlds').then((r) => r.worlds);
/** Final standings best first under the world's victory conditions (14.3.1 best cycle, 14.3.2 average). */
export function finalRanking(w: FinishedWorld): FinalStanding[] {
  const key = (s: FinalStanding) => (w.victory === 'basic' ? s.bestCycle : (s.average ?? -1));
  return [...w.standings].sort((a, b) => key(b) - key(a) || a.name.localeCompare(b.name));
}
/** A new world; one by invitation keeps its link in this browser (shown this once by the server). */
export const createWorld = (f: NewWorldForm) =>
  call('createWorld', { body: createWorldBody(f) }).then((r) => {
    if (r.inviteToken) keepLink(r.world.id, r.inviteToken);
    return r.world;
  });
export const joinWorld = (id: string, colour?: Colour) =>
  call('joinWorld', { params: { id }, body: colour ? { colour } : {} });
/** Away (with a bot of `standIn`'s level playing meanwhile, or the default orders), or back. */
export const setAway = (id: string, away: boolean, standIn: BotLevel | null = null) =>
  call('setAway', { params: { id }, body: away ? { away, standIn } : { away } }).then((r) => r.away);
/** The orders a bot gave for the caller's seat while standing in. */
export const botOrders = (id: string) => call('botOrders', { params: { id } }).then((r) => r.orders);
export const leaveWorld = (id: string) => call('leaveWorld', { params: { id }, body: {} });
