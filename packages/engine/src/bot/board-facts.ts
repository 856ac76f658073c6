/**
 * What a bot reads off the board, all of it public (every player sees the units, the neutral
 * garrisons and who owns which city): the cities worth taking and how hard each is held, and
 * where its own and others' units stand. Strengths are the printed ones from the unit profiles;
 * the odds actually offered are always read from the engine's legal attack orders.
 */
import type { Engine } from '../engine.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf, type Unit } from '../model/units.ts';
import { type Distances, distancesOf } from './distances.ts';

interface Target {
  readonly area: AreaId;
  /** The city's tax value (9.4, 10.3): what owning it earns each turn. */
  readonly value: number;
  /** The strength holding it: a neutral garrison's, or the unfriendly units standing there (0: walk in). */
  readonly defence: number;
}

export interface Board {
  readonly me: PlayerId;
  readonly distances: Distances;
  readonly mine: readonly Unit[];
  /** Areas holding units of other players (leaders and markers aside). */
  readonly others: ReadonlyMap<AreaId, readonly Unit[]>;
  readonly myAreas: ReadonlySet<AreaId>;
  readonly targets: readonly Target[];
  /** Cities this player owns (3: the last owner at an economic phase). */
  readonly owned: readonly AreaId[];
}

export function readBoard(engine: Engine, state: GameState, me: PlayerId): Board {
  const mine: Unit[] = [];
  const others = new Map<AreaId, Unit[]>();
  for (const u of Object.values(state.units)) {
    if (u.kind === 'leader') continue;
    if (u.owner === me) mine.push(u);
    else others.set(u.area, [...(others.get(u.area) ?? []), u]);
  }
  const myAreas = new Set(mine.map((u) => u.area));
  const targets: Target[] = [];
  const owned: AreaId[] = [];
  for (const area of engine.map.cityAreas) {
    const city = engine.map.area(area)?.city;
    if (!city) continue;
    if (state.cities[area]?.owner === me) {
      owned.push(area);
      continue;
    }
    if (myAreas.has(area)) continue; // held already; owned at the next economic phase
    const neutral = state.neutrals[area]?.strength ?? 0;
    const enemy = (others.get(area) ?? []).reduce((s, u) => s + strengthOf(u.kind, state.options), 0);
    targets.push({ area, value: city.tax, defence: neutral + enemy });
  }
  return { me, distances: distancesOf(engine.map), mine, others, myAreas, targets, owned };
}

/**
 * How much a unit standing in `from` is drawn to the cities around it: each city's value, less
 * for the strength holding it, fading with distance. The bot's sense of "prospects".
 */
export function pull(board: Board, from: AreaId, reach = 8): number {
  let sum = 0;
  for (const t of board.targets) {
    const d = board.distances.between(from, t.area);
    if (d > reach) continue;
    sum += (t.value / (1 + t.defence / 3)) * 0.7 ** d;
  }
  return sum;
}

/** Strength of other players' units within `radius` of an area: the danger of standing there. */
export function threat(board: Board, state: GameState, area: AreaId, radius = 2): number {
  let sum = 0;
  for (const [a, units] of board.others) {
    if (board.distances.between(area, a) > radius) continue;
    for (const u of units) sum += strengthOf(u.kind, state.options);
  }
  return sum;
}
