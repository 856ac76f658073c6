/**
 * Leaders kept with units (10.2): a leader standing with no friendly unit is eliminated by the
 * first unfriendly unit that passes (and by the rules at once where lone leaders fall, AMBIG-2),
 * and a kingdom without its leader loses the leader's shift and its succession. So a lone leader
 * that has not moved joins the strongest friendly stack it can reach, and the last unit standing
 * with an unmoved leader only goes where the leader can follow.
 */
import type { AreaId, UnitId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import type { Board } from './board-facts.ts';

type MoveOrder = Extract<LegalOrder, { type: 'move' }>;

/** Strength of my non-leader units per area. */
function stacks(state: GameState, board: Board): Map<AreaId, number> {
  const out = new Map<AreaId, number>();
  for (const u of board.mine) out.set(u.area, (out.get(u.area) ?? 0) + strengthOf(u.kind, state.options));
  return out;
}

/** The move that takes a lone, unmoved leader to the strongest friendly stack it can reach, or null. */
export function leaderToUnits(
  state: GameState,
  board: Board,
  moves: readonly MoveOrder[],
  moved: readonly string[],
): Order | null {
  const strength = stacks(state, board);
  for (const m of moves) {
    const leader = state.units[m.unit];
    if (leader?.kind !== 'leader' || leader.owner !== board.me || moved.includes(leader.id)) continue;
    if ((strength.get(leader.area) ?? 0) > 0) continue;
    const to = [...m.destinations]
      .filter((d) => (strength.get(d.to) ?? 0) > 0)
      .sort(
        (a, b) => (strength.get(b.to) ?? 0) - (strength.get(a.to) ?? 0) || a.path.length - b.path.length,
      )[0];
    if (to) return { type: 'move', unit: leader.id, path: to.path };
  }
  return null;
}

/**
 * For a unit about to move: where it may go without leaving a leader behind. Null when it leaves
 * no leader alone (every legal destination will do); otherwise the areas the unmoved leaders
 * standing with it can reach (a moved leader cannot follow, so the unit stays).
 */
export function leaderFollows(
  state: GameState,
  board: Board,
  unit: UnitId,
  moves: readonly MoveOrder[],
  moved: readonly string[],
): Set<AreaId> | null {
  const u = state.units[unit];
  if (!u) return null;
  const leaders = Object.values(state.units).filter(
    (l) => l.kind === 'leader' && l.owner === board.me && l.area === u.area,
  );
  if (leaders.length === 0) return null;
  const others = board.mine.filter((x) => x.area === u.area && x.id !== unit && x.kind !== 'tribe');
  if (others.length > 0) return null;
  // Where every one of them can go (a moved leader can go nowhere more).
  const reaches = leaders.map((l) => {
    const m = moved.includes(l.id) ? undefined : moves.find((x) => x.unit === l.id);
    return new Set<AreaId>(m?.destinations.map((d) => d.to) ?? []);
  });
  const [first, ...rest] = reaches;
  return new Set([...(first ?? [])].filter((a) => rest.every((r) => r.has(a))));
}
