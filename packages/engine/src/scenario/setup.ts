/**
 * Game set-up: a raw setup is zod-parsed at the boundary, then one validating
 * constructor builds the game state (14.3 set-up: neutral garrisons, players rolling for order).
 */
import { z } from 'zod';
import { COLOURS } from '../model/colours.ts';
import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import { playerIdSchema } from '../model/ids.ts';
import { optionsSchema } from '../model/options.ts';
import { initialRealmState } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import { seedRng } from '../model/rng.ts';
import { type GameStateCore, STATE_SCHEMA } from '../model/state.ts';
import { newPlayer } from './cycles.ts';
import { initialNeutrals } from './neutrals.ts';
import { positionSchema, positionState } from './position.ts';

export const RULES_VERSION = 'bke-open-1';

export const setupPlayerSchema = z.object({
  id: playerIdSchema,
  name: z.string().min(1).max(60),
  seat: z.number().int().min(0).max(5),
  colour: z.enum(COLOURS),
});

export const gameSetupSchema = z.object({
  /** Seeds the dice; the server draws it with crypto. */
  seed: z.string().min(1).max(200),
  options: optionsSchema.default(() => optionsSchema.parse({})),
  rulesVersion: z.string().default(RULES_VERSION),
  /** Players present at the start (14.3 step 4); others join later with a `join` system order. */
  players: z.array(setupPlayerSchema).max(6).default([]),
  /** Start from this position instead of the 14.3 set-up (scenarios, golden cases; `position.ts`). */
  position: positionSchema.optional(),
});
export type GameSetup = z.infer<typeof gameSetupSchema>;
export type GameSetupInput = z.input<typeof gameSetupSchema>;

/** 14.3: build the initial state (idle, before its first turn starts) from a parsed setup. */
export function initialState(ctx: EngineContext, setup: GameSetup): Result<GameStateCore> {
  const ids = new Set(setup.players.map((p) => p.id));
  const seats = new Set(setup.players.map((p) => p.seat));
  const colours = new Set(setup.players.map((p) => p.colour));
  const n = setup.players.length;
  if (ids.size !== n || seats.size !== n || colours.size !== n) {
    return err('setup/invalid', { reason: 'players must have distinct ids, seats and colours' });
  }
  if (ctx.map.areaIds.length === 0) return err('setup/map_invalid', { reason: 'empty map' });
  const base: GameStateCore = {
    schema: STATE_SCHEMA,
    rulesVersion: setup.rulesVersion,
    mapVersion: ctx.map.version,
    options: setup.options,
    rng: seedRng(setup.seed),
    riggedDice: [],
    turn: 0,
    step: { kind: 'idle' },
    players: setup.players.map((p) => newPlayer(p.id as PlayerId, p.name, p.seat, p.colour, 1)),
    order: [],
    units: {},
    nextUnit: 1,
    neutrals: initialNeutrals(ctx),
    cities: Object.fromEntries(ctx.map.cityAreas.map((a) => [a, { owner: null, everOwned: false }])),
    markers: [],
    flags: { growthBanned: [], attacked: [] },
    combat: null,
    realm: initialRealmState(),
    version: 0,
  };
  return setup.position ? positionState(ctx, base, setup.position) : ok(base);
}
