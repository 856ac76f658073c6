/**
 * The strong bot's movement phase (5.1): tribes spread into free areas towards the cities (the
 * horde stays one group, 9.3.4, because every step is to an area next to the tribe it split
 * from); combat units close in on the best city within reach, several on the same one so that
 * the attack is made at good odds, walk into cities nobody holds, and stay on guard in the
 * capital while enemies are near. Destinations are the engine's legal ones; one move per call.
 */
import type { AreaId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import { type Board, pull, threat } from './board-facts.ts';
import type { Clock } from './clock.ts';
import { leaderFollows, leaderToUnits } from './leaders-with-units.ts';

type MoveOrder = Extract<LegalOrder, { type: 'move' }>;

/** How good it is for a combat unit to end its move in `area`. */
function placeScore(board: Board, area: AreaId, helpers: ReadonlyMap<AreaId, number>): number {
  let best = 0;
  for (const t of board.targets) {
    const d = board.distances.between(area, t.area);
    if (d > 6) continue;
    let s: number;
    if (t.defence === 0) s = d === 0 ? 3 * t.value + 2 : (t.value + 1) * 0.6 ** d;
    else {
      // Next to a defended city: the attack comes from here, helped by the units already next to it.
      const help = helpers.get(t.area) ?? 0;
      const odds = (help + 3) / t.defence;
      s =
        d === 1
          ? (t.value + 1) * Math.min(2, odds)
          : d === 0
            ? 0
            : ((t.value + 1) * 0.6 ** d) / (1 + t.defence / 6);
    }
    if (s > best) best = s;
  }
  return best + 0.05 * pull(board, area, 6);
}

/** Attack strength of my combat units already next to each target city. */
function helpersOf(board: Board, state: GameState): Map<AreaId, number> {
  const out = new Map<AreaId, number>();
  for (const t of board.targets) {
    if (t.defence === 0) continue;
    let sum = 0;
    for (const u of board.mine)
      if (u.kind !== 'tribe' && board.distances.between(u.area, t.area) === 1)
        sum += strengthOf(u.kind, state.options);
    out.set(t.area, sum);
  }
  return out;
}

export function strongMove(
  state: GameState,
  board: Board,
  moves: readonly MoveOrder[],
  moved: readonly string[],
  clock: Clock,
  /** A factor around 1 on each move's gain, for a search that wants other plausible plans (expert.ts). */
  noise: () => number = () => 1,
): Order {
  const mineByArea = new Map<AreaId, number>();
  for (const u of board.mine) if (!u.inverted) mineByArea.set(u.area, (mineByArea.get(u.area) ?? 0) + 1);
  const helpers = helpersOf(board, state);
  const capital = state.players.find((p) => p.id === board.me)?.capital ?? null;
  // 10.2: a leader left alone goes back to its units before anything else moves.
  const rejoin = leaderToUnits(state, board, moves, moved);
  if (rejoin) return rejoin;
  let best: { order: Order; gain: number } | null = null;
  for (const m of moves) {
    if (clock.spent()) break;
    const unit = state.units[m.unit];
    if (!unit || moved.includes(unit.id)) continue;
    if (unit.kind === 'tribe') {
      // A tribe sharing its area (a split's second half) moves to a free area or is removed (9.2).
      if ((mineByArea.get(unit.area) ?? 0) < 2) continue;
      const free = m.destinations.filter((d) => !board.myAreas.has(d.to));
      const pick = [...free].sort((a, b) => pull(board, b.to, 6) - pull(board, a.to, 6))[0];
      if (pick) return { type: 'move', unit: unit.id, path: pick.path };
      continue;
    }
    if (unit.kind === 'leader') continue;
    // Guard: the last unit in a threatened capital stays.
    if (
      unit.area === capital &&
      (mineByArea.get(unit.area) ?? 0) < 2 &&
      threat(board, state, unit.area, 2) > 0
    )
      continue;
    const stay = placeScore(board, unit.area, helpers);
    const follow = leaderFollows(state, board, unit.id, moves, moved);
    for (const d of m.destinations) {
      if (board.myAreas.has(d.to)) continue; // stacking (6): one of mine per area keeps every move legal
      if (follow && !follow.has(d.to)) continue; // 10.2: not without the leader (leaders.ts)
      const gain = (placeScore(board, d.to, helpers) - stay) * noise() - 0.01 * d.path.length;
      if (gain > 0.05 && (!best || gain > best.gain))
        best = { order: { type: 'move', unit: unit.id, path: d.path }, gain };
    }
  }
  return best?.order ?? { type: 'endPhase' };
}
