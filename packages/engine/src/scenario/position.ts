/**
 * A game set up from a position: the board at the start of a game turn — players and their
 * cycles, units, city owners, neutral garrisons, pillage markers — for scripted scenarios and
 * golden cases that orders from the 14.3 set-up cannot reach. The raw position is parsed with zod,
 * then one validating constructor builds the state; the turn machine plays that turn from its
 * start (4.1), exactly as after any other turn.
 */
import { z } from 'zod';
import type { EngineContext } from '../model/context.ts';
import {
  type AreaId,
  areaIdSchema,
  type PlayerId,
  playerIdSchema,
  type UnitId,
  unitIdSchema,
} from '../model/ids.ts';
import { countersLimited } from '../model/options.ts';
import { peopleOf, STAGES, type Stage, startPositionSchema } from '../model/people.ts';
import { cityAt } from '../model/queries.ts';
import { initialRealmPlayer, initialRealmState, type RealmPlayer } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import { isLegalStack } from '../model/stacking.ts';
import type {
  CityState,
  GameStateCore,
  NeutralGarrison,
  PillageMarker,
  PlayerState,
} from '../model/state.ts';
import { exceedsCounterMix, type Unit, type UnitKind, unitKindSchema } from '../model/units.ts';
import { initialNeutrals } from './neutrals.ts';

const positionPlayerSchema = z
  .object({
    id: playerIdSchema,
    /** The start position of the running cycle; none: the player waits to start one (4.2). */
    position: startPositionSchema.optional(),
    stage: z.enum(STAGES).default('barbarian'),
    /** Turn the running cycle started (0: "turn zero", 14.2); sets move order (4.1). */
    startedTurn: z.number().int().min(0).default(0),
    /** Turn the current stage was entered (10.6.2); default: the cycle's start. */
    stageTurn: z.number().int().min(0).optional(),
    countdownStartTurn: z.number().int().min(0).nullable().default(null),
    money: z.number().int().min(0).max(9999).default(0),
    vp: z.number().int().min(0).max(99999).default(0),
    /** Turns a position was held (14.3.2); default: every turn since the cycle started. */
    turnsPlayed: z.number().int().min(0).optional(),
    capital: areaIdSchema.nullable().default(null),
    pastCycles: z
      .array(
        z.object({
          position: startPositionSchema,
          vp: z.number().int().min(0).max(99999),
          startedTurn: z.number().int().min(0),
          endedTurn: z.number().int().min(0),
        }),
      )
      .max(50)
      .default([]),
    /** 10.6.2: Good Ruler or Corruption rolled in the last administration phase. */
    incomeEffect: z.enum(['goodRuler', 'corruption']).nullable().default(null),
    /** 10.6.2: the latest Revival of the current stage. */
    revivalTurn: z.number().int().min(0).nullable().default(null),
    /** 14.3.2: the unmodified income of the last economic phase. */
    lastIncome: z.number().int().min(0).max(999).default(0),
  })
  .strict();

const positionUnitSchema = z
  .object({
    /** Default: u1, u2, … in list order. */
    id: unitIdSchema.optional(),
    owner: playerIdSchema,
    kind: unitKindSchema,
    area: areaIdSchema,
  })
  .strict();

export const positionSchema = z
  .object({
    /** The game turn about to start. */
    turn: z.number().int().min(1).max(9999),
    players: z.array(positionPlayerSchema).max(6).default([]),
    units: z.array(positionUnitSchema).max(600).default([]),
    /** City owners (3); every other city is unowned. */
    cities: z.record(areaIdSchema, playerIdSchema).default({}),
    /** Neutral garrisons by area and strength; default: the 14.3 set-up where no unit stands and no city is owned. */
    neutrals: z.record(areaIdSchema, z.number().int().min(1).max(9)).optional(),
    /** 9.5 / 11.7.2 result 4: numbered markers still on the board (their digit follows from `turn`). */
    markers: z
      .array(
        z
          .object({
            area: areaIdSchema,
            pillager: playerIdSchema,
            turn: z.number().int().min(0),
            pirates: z.boolean().optional(),
          })
          .strict(),
      )
      .max(60)
      .default([]),
    /** Scripted dice, used before the seeded dice by every roll in order (scenarios and tests only). */
    dice: z.array(z.number().int().min(1).max(6)).max(500).default([]),
  })
  .strict();

export type Position = z.infer<typeof positionSchema>;

/** 9.1, 10.1, 11.1, 13.3: the unit kinds each stage can hold on the board at a turn start. */
const KINDS_BY_STAGE: Readonly<Record<Stage, readonly UnitKind[]>> = {
  barbarian: ['tribe', 'barbarianInfantry', 'barbarianHorse', 'horseBow', 'bow', 'infantry', 'ship'],
  kingdom: ['infantry', 'cavalry', 'bow', 'ship', 'leader'],
  empire: ['elite', 'infantry', 'garrison', 'ship', 'leader'],
};

type Problem = { readonly problem: { reason: string; [k: string]: unknown } };
const problem = (reason: string, params: Record<string, unknown> = {}): Problem => ({
  problem: { reason, ...params },
});
const isProblem = (v: object): v is Problem => 'problem' in v;
type PositionPlayer = Position['players'][number];

/** The stage of every player holding a position, checked against its cycle's dates (13.2.3). */
function stagesOf(position: Position): Map<string, Stage> | Problem {
  const active = new Map<string, Stage>();
  for (const p of position.players) {
    if (!p.position) continue;
    if (p.startedTurn >= position.turn) return problem('cycle starts after the position', { player: p.id });
    const persian = peopleOf(p.position) === 'PERSIAN';
    // 13.2.3: the Persian's kingdom is dated to the turn before its cycle started.
    const earliest = persian ? p.startedTurn - 1 : p.startedTurn;
    if ((p.stageTurn ?? p.startedTurn) < earliest || (p.stageTurn ?? 0) >= position.turn)
      return problem('stage turn', { player: p.id });
    if (persian && p.stage === 'barbarian')
      return problem('the Persian starts as a kingdom (13.2.3)', { player: p.id });
    active.set(p.id, p.stage);
  }
  return active;
}

/**
 * The units: owners holding a position, kinds their stage may hold (9.1, 10.1, 11.1), land areas
 * (ships on a coast, 5.2), legal stacks (6), one leader a player (10.2), the counter mix (C.6).
 */
function unitsOfPosition(
  ctx: EngineContext,
  position: Position,
  active: ReadonlyMap<string, Stage>,
): { units: Record<string, Unit>; byArea: Map<string, Unit[]>; nextUnit: number } | Problem {
  const units: Record<string, Unit> = {};
  let highest = position.units.length;
  for (const [i, u] of position.units.entries()) {
    const id = u.id ?? `u${i + 1}`;
    if (units[id]) return problem('duplicate unit id', { unit: id });
    const n = /^u(\d+)$/.exec(id);
    if (n) highest = Math.max(highest, Number(n[1]));
    const stage = active.get(u.owner);
    if (!stage) return problem('unit of a player without a position', { unit: id });
    if (!KINDS_BY_STAGE[stage].includes(u.kind)) return problem('kind not of this stage', { unit: id });
    const area = ctx.map.area(u.area as AreaId);
    if (area?.kind !== 'land') return problem('not a land area', { unit: id, area: u.area });
    if (u.kind === 'ship' && !area.coastal) return problem('ship inland', { unit: id });
    units[id] = { id: id as UnitId, owner: u.owner as PlayerId, kind: u.kind, area: u.area as AreaId };
  }
  const byArea = new Map<string, Unit[]>();
  for (const u of Object.values(units)) byArea.set(u.area, [...(byArea.get(u.area) ?? []), u]);
  for (const [area, here] of byArea)
    if (!isLegalStack(here.map((u) => ({ kind: u.kind, owner: u.owner }))))
      return problem('illegal stack (6)', { area });
  for (const owner of active.keys()) {
    const mine = Object.values(units).filter((u) => u.owner === owner);
    if (mine.filter((u) => u.kind === 'leader').length > 1) return problem('two leaders', { player: owner });
    if (countersLimited(ctx.options) && exceedsCounterMix(mine.map((u) => u.kind)))
      return problem('more counters than the mix holds (C.6)', { player: owner });
  }
  return { units, byArea, nextUnit: highest + 1 };
}

/** Numbered markers: on cities, placed within the last five turns (9.5: gone in the administration of t+5). */
function markersOfPosition(
  ctx: EngineContext,
  position: Position,
  known: ReadonlySet<string>,
): PillageMarker[] | Problem {
  const markers: PillageMarker[] = [];
  for (const m of position.markers) {
    if (!cityAt(ctx, m.area as AreaId)) return problem('marker not on a city', { area: m.area });
    if (!known.has(m.pillager)) return problem('unknown pillager', { area: m.area });
    if (m.turn >= position.turn || m.turn < position.turn - 5)
      return problem('marker turn (9.5)', { area: m.area });
    if (markers.some((x) => x.area === m.area)) return problem('two markers', { area: m.area });
    markers.push({
      area: m.area as AreaId,
      digit: ((m.turn % 10) + 5) % 10,
      pillager: m.pillager as PlayerId,
      turn: m.turn,
      ...(m.pirates ? { pirates: true } : {}),
    });
  }
  return markers;
}

/** Neutral garrisons (14.1): as given, or the 14.3 set-up where nothing else stands; never beside a unit. */
function neutralsOfPosition(
  ctx: EngineContext,
  position: Position,
  byArea: ReadonlyMap<string, Unit[]>,
  markers: readonly PillageMarker[],
): Record<string, NeutralGarrison> | Problem {
  const marked = new Set(markers.map((m) => m.area as string));
  const neutrals: Record<string, NeutralGarrison> = position.neutrals
    ? Object.fromEntries(Object.entries(position.neutrals).map(([area, strength]) => [area, { strength }]))
    : Object.fromEntries(
        Object.entries(initialNeutrals(ctx)).filter(
          ([area]) => !byArea.has(area) && !position.cities[area as AreaId] && !marked.has(area),
        ),
      );
  for (const area of Object.keys(neutrals)) {
    if (ctx.map.area(area as AreaId)?.kind !== 'land') return problem('neutral not on land', { area });
    if (byArea.has(area)) return problem('unit beside a neutral garrison', { area });
    if (position.cities[area as AreaId]) return problem('owned city with a neutral garrison', { area });
  }
  return neutrals;
}

/** A player of the position: its cycle (if it holds a position), past cycles, money, turns held. */
function playerOfPosition(
  base: PlayerState,
  e: PositionPlayer,
  position: Position,
  markers: readonly PillageMarker[],
): PlayerState | Problem {
  const T = position.turn;
  const past = e.pastCycles.reduce((s, c) => s + c.endedTurn - Math.max(1, c.startedTurn) + 1, 0);
  const finished = {
    count: e.pastCycles.length,
    bestVp: e.pastCycles.reduce((best, c) => Math.max(best, c.vp), 0),
    totalVp: e.pastCycles.reduce((sum, c) => sum + c.vp, 0),
  };
  if (e.capital !== null) {
    if (e.stage === 'barbarian' || !e.position) return problem('capital of no kingdom', { player: e.id });
    if (position.cities[e.capital] !== e.id || markers.some((m) => m.area === e.capital))
      return problem('capital not on an owned unpillaged city (10.3)', { player: e.id });
  }
  return {
    ...base,
    status: e.position ? 'active' : 'waiting',
    cycle: e.position
      ? {
          number: finished.count + 1,
          position: e.position,
          people: peopleOf(e.position),
          stage: e.stage,
          startedTurn: e.startedTurn,
          // Listed order breaks ties of cycles started on the same turn (4.1, AMBIG-44).
          orderRoll: 12 - position.players.indexOf(e),
          countdownStartTurn: e.countdownStartTurn,
          stageTurn: e.stageTurn ?? e.startedTurn,
          vp: e.vp,
        }
      : null,
    finished,
    money: e.money,
    turnsPlayed: e.turnsPlayed ?? past + (e.position ? T - Math.max(1, e.startedTurn) : 0),
    capital: e.capital as AreaId | null,
  };
}

/** What the realm sub-state keeps for a player between phases: last turn's effect, Revival, income (10.6.2, 14.3.2). */
const realmPlayerOf = (e: PositionPlayer, turn: number): RealmPlayer => {
  const realm = e.stage !== 'barbarian';
  return {
    ...initialRealmPlayer(),
    incomeEffect: realm ? e.incomeEffect : null,
    revivalTurn: realm ? e.revivalTurn : null,
    lastIncome: e.lastIncome,
    lastIncomeTurn: turn - 1,
  };
};

/**
 * 14.3: the state at the end of the turn before `position.turn`: `base.players` are the setup's players
 * (the position says which of them hold a position). An error says why the position is not a legal
 * board.
 */
export function positionState(
  ctx: EngineContext,
  base: GameStateCore,
  position: Position,
): Result<GameStateCore> {
  const refuse = (p: Problem): Result<GameStateCore> => err('setup/invalid', p.problem);
  const known = new Set(base.players.map((p) => p.id as string));
  const entries = new Map(position.players.map((p) => [p.id as string, p]));
  if (entries.size !== position.players.length) return refuse(problem('duplicate player'));
  for (const id of entries.keys())
    if (!known.has(id)) return refuse(problem('unknown player', { player: id }));
  const active = stagesOf(position);
  if (isProblem(active)) return refuse(active);
  const placed = unitsOfPosition(ctx, position, active);
  if (isProblem(placed)) return refuse(placed);
  const cities: Record<string, CityState> = { ...base.cities };
  for (const [area, owner] of Object.entries(position.cities)) {
    if (!cityAt(ctx, area as AreaId)) return refuse(problem('not a city in play', { area }));
    if (!active.has(owner)) return refuse(problem('city owner without a position', { area }));
    cities[area] = { owner: owner as PlayerId, everOwned: true };
  }
  const markers = markersOfPosition(ctx, position, known);
  if (isProblem(markers)) return refuse(markers);
  const neutrals = neutralsOfPosition(ctx, position, placed.byArea, markers);
  if (isProblem(neutrals)) return refuse(neutrals);
  const players: PlayerState[] = [];
  const realmPlayers: Record<string, RealmPlayer> = {};
  for (const p of base.players) {
    const e = entries.get(p.id);
    const player = e ? playerOfPosition(p, e, position, markers) : p;
    if (isProblem(player)) return refuse(player);
    players.push(player);
    if (e?.position) realmPlayers[e.id] = realmPlayerOf(e, position.turn);
  }
  return ok({
    ...base,
    turn: position.turn - 1,
    riggedDice: position.dice,
    players,
    units: placed.units,
    nextUnit: placed.nextUnit,
    neutrals,
    cities,
    markers,
    realm: { ...initialRealmState(), players: realmPlayers },
  });
}
