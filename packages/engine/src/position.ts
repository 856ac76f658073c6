/**
 * A game set up from a position (STYLE habit 4: a raw setup is parsed, then one validating
 * constructor builds the state): the board at the start of a game turn — players and their
 * cycles, units, city owners, neutral garrisons, pillage markers — for scripted scenarios and
 * golden cases that orders from the 14.3 set-up cannot reach. The turn machine then plays that
 * turn from its start (4.1), exactly as after any other turn.
 */
import { z } from 'zod';
import type { EngineContext } from './engine-context.ts';
import {
  type AreaId,
  areaIdSchema,
  type PlayerId,
  playerIdSchema,
  type UnitId,
  unitIdSchema,
} from './ids.ts';
import { initialRealmPlayer, initialRealmState, type RealmPlayer } from './ledger/state.ts';
import { initialNeutrals } from './neutrals.ts';
import { countersLimited } from './options.ts';
import { peopleOf, STAGES, type Stage, startPositionSchema } from './people.ts';
import { cityAt } from './queries.ts';
import { err, ok, type Result } from './result.ts';
import { isLegalStack } from './stacking.ts';
import type { CityState, GameStateCore, NeutralGarrison, PillageMarker, PlayerState } from './state.ts';
import { exceedsCounterMix, type Unit, type UnitKind, unitKindSchema } from './units.ts';

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

type Problem = { reason: string; [k: string]: unknown };

/**
 * The state at the end of the turn before `position.turn`: `players` are the setup's players (the
 * position says which of them hold a position). Returns why the position is not a legal board.
 */
export function positionState(
  ctx: EngineContext,
  base: GameStateCore,
  position: Position,
): Result<GameStateCore> {
  const problem = (p: Problem): Result<GameStateCore> => err('setup/invalid', p);
  const T = position.turn;
  const known = new Set(base.players.map((p) => p.id as string));
  const entries = new Map(position.players.map((p) => [p.id, p]));
  if (entries.size !== position.players.length) return problem({ reason: 'duplicate player' });
  for (const id of entries.keys())
    if (!known.has(id)) return problem({ reason: 'unknown player', player: id });
  const active = new Map<string, Stage>();
  for (const p of position.players) {
    if (!p.position) continue;
    if (p.startedTurn >= T) return problem({ reason: 'cycle starts after the position', player: p.id });
    const persian = peopleOf(p.position) === 'PERSIAN';
    // 13.2.3: the Persian's kingdom is dated to the turn before its cycle started.
    const earliest = persian ? p.startedTurn - 1 : p.startedTurn;
    if ((p.stageTurn ?? p.startedTurn) < earliest || (p.stageTurn ?? 0) >= T)
      return problem({ reason: 'stage turn', player: p.id });
    if (persian && p.stage === 'barbarian')
      return problem({ reason: 'the Persian starts as a kingdom (13.2.3)', player: p.id });
    active.set(p.id, p.stage);
  }
  // Units: known owners holding a position, kinds their stage may hold, land areas (ships coastal).
  const units: Record<string, Unit> = {};
  const used = new Set<string>();
  let highest = position.units.length;
  for (const [i, u] of position.units.entries()) {
    const id = u.id ?? `u${i + 1}`;
    if (used.has(id)) return problem({ reason: 'duplicate unit id', unit: id });
    used.add(id);
    const n = /^u(\d+)$/.exec(id);
    if (n) highest = Math.max(highest, Number(n[1]));
    const stage = active.get(u.owner);
    if (!stage) return problem({ reason: 'unit of a player without a position', unit: id });
    if (!KINDS_BY_STAGE[stage].includes(u.kind))
      return problem({ reason: 'kind not of this stage', unit: id });
    const area = ctx.map.area(u.area as AreaId);
    if (area?.kind !== 'land') return problem({ reason: 'not a land area', unit: id, area: u.area });
    if (u.kind === 'ship' && !area.coastal) return problem({ reason: 'ship inland', unit: id });
    units[id] = { id: id as UnitId, owner: u.owner as PlayerId, kind: u.kind, area: u.area as AreaId };
  }
  const byArea = new Map<string, Unit[]>();
  for (const u of Object.values(units)) byArea.set(u.area, [...(byArea.get(u.area) ?? []), u]);
  for (const [area, here] of byArea)
    if (!isLegalStack(here.map((u) => ({ kind: u.kind, owner: u.owner }))))
      return problem({ reason: 'illegal stack (6)', area });
  for (const owner of active.keys()) {
    const mine = Object.values(units).filter((u) => u.owner === owner);
    if (mine.filter((u) => u.kind === 'leader').length > 1)
      return problem({ reason: 'two leaders', player: owner });
    if (countersLimited(ctx.options) && exceedsCounterMix(mine.map((u) => u.kind)))
      return problem({ reason: 'more counters than the mix holds (C.6)', player: owner });
  }
  // Cities: owned by players holding a position.
  const cities: Record<string, CityState> = { ...base.cities };
  for (const [area, owner] of Object.entries(position.cities)) {
    if (!cityAt(ctx, area as AreaId)) return problem({ reason: 'not a city in play', area });
    if (!active.has(owner)) return problem({ reason: 'city owner without a position', area });
    cities[area] = { owner: owner as PlayerId, everOwned: true };
  }
  // Markers: on cities, placed within the last five turns (9.5: gone in the administration of t+5).
  const markers: PillageMarker[] = [];
  for (const m of position.markers) {
    if (!cityAt(ctx, m.area as AreaId)) return problem({ reason: 'marker not on a city', area: m.area });
    if (!known.has(m.pillager)) return problem({ reason: 'unknown pillager', area: m.area });
    if (m.turn >= T || m.turn < T - 5) return problem({ reason: 'marker turn (9.5)', area: m.area });
    if (markers.some((x) => x.area === m.area)) return problem({ reason: 'two markers', area: m.area });
    markers.push({
      area: m.area as AreaId,
      digit: ((m.turn % 10) + 5) % 10,
      pillager: m.pillager as PlayerId,
      turn: m.turn,
      ...(m.pirates ? { pirates: true } : {}),
    });
  }
  // Neutral garrisons: given, or the 14.3 set-up where nothing else stands; never beside a unit.
  let neutrals: Record<string, NeutralGarrison> = {};
  if (position.neutrals) {
    for (const [area, strength] of Object.entries(position.neutrals)) {
      if (ctx.map.area(area as AreaId)?.kind !== 'land')
        return problem({ reason: 'neutral not on land', area });
      neutrals[area] = { strength };
    }
  } else {
    const marked = new Set(markers.map((m) => m.area as string));
    neutrals = Object.fromEntries(
      Object.entries(initialNeutrals(ctx)).filter(
        ([area]) => !byArea.has(area) && !position.cities[area] && !marked.has(area),
      ),
    );
  }
  for (const area of Object.keys(neutrals)) {
    if (byArea.has(area)) return problem({ reason: 'unit beside a neutral garrison', area });
    if (position.cities[area]) return problem({ reason: 'owned city with a neutral garrison', area });
  }
  const players: PlayerState[] = [];
  const realmPlayers: Record<string, RealmPlayer> = {};
  for (const p of base.players) {
    const e = entries.get(p.id);
    if (!e) {
      players.push(p);
      continue;
    }
    const pastCycles = e.pastCycles.map((c, i) => ({ number: i + 1, ...c }));
    const past = pastCycles.reduce((s, c) => s + c.endedTurn - Math.max(1, c.startedTurn) + 1, 0);
    const order = position.players.indexOf(e);
    if (e.capital !== null) {
      if (e.stage === 'barbarian' || !e.position)
        return problem({ reason: 'capital of no kingdom', player: e.id });
      if (position.cities[e.capital] !== e.id || markers.some((m) => m.area === e.capital))
        return problem({ reason: 'capital not on an owned unpillaged city (10.3)', player: e.id });
    }
    players.push({
      ...p,
      status: e.position ? 'active' : 'waiting',
      cycle: e.position
        ? {
            number: pastCycles.length + 1,
            position: e.position,
            people: peopleOf(e.position),
            stage: e.stage,
            startedTurn: e.startedTurn,
            // Listed order breaks ties of cycles started on the same turn (4.1, AMBIG-44).
            orderRoll: 12 - order,
            countdownStartTurn: e.countdownStartTurn,
            stageTurn: e.stageTurn ?? e.startedTurn,
            vp: e.vp,
          }
        : null,
      pastCycles,
      money: e.money,
      turnsPlayed: e.turnsPlayed ?? past + (e.position ? T - Math.max(1, e.startedTurn) : 0),
      capital: e.capital as AreaId | null,
    });
    if (e.position) {
      const realm = e.stage !== 'barbarian';
      realmPlayers[e.id] = {
        ...initialRealmPlayer(),
        incomeEffect: realm ? e.incomeEffect : null,
        revivalTurn: realm ? e.revivalTurn : null,
        lastIncome: e.lastIncome,
        lastIncomeTurn: T - 1,
      };
    }
  }
  return ok({
    ...base,
    turn: T - 1,
    riggedDice: position.dice,
    players,
    units,
    nextUnit: highest + 1,
    neutrals,
    cities,
    markers,
    realm: { ...initialRealmState(), players: realmPlayers },
  });
}
