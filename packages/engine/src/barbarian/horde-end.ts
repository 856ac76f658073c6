/**
 * 14.3, 4.6: a barbarian with no units at its administration phase has finished its cycle (engine
 * decision `cfg.emptyBarbarianEndsCycle`, applied in turn/administration-phase.ts); units leased
 * to a hirer are still the barbarian's and keep the horde alive (13.4, AMBIG-21). Asked before an
 * order that may lose units — an attack (combat-phase/fatal-risk.ts), a tribal sea crossing
 * (turn/foreseen-consequences.ts) — to tell whether losing them would end the horde.
 */
import { leasedOut } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import { emptyBarbarianEndsCycle } from '../model/options.ts';
import { playerById, unitsOf } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';

/** 14.3: whether losing every unit in `losing` would leave this barbarian with none, ending its cycle. */
export function losingEndsHorde(
  ctx: EngineContext,
  state: GameStateCore,
  player: PlayerId,
  losing: ReadonlySet<UnitId>,
): boolean {
  if (playerById(state, player)?.cycle?.stage !== 'barbarian' || !emptyBarbarianEndsCycle(ctx.options))
    return false;
  if (leasedOut(state, player).length > 0) return false;
  return unitsOf(state, player).every((u) => losing.has(u.id));
}
