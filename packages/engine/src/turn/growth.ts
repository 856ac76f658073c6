/**
 * 4.3.2 / 9.2 Tribal growth: each tribe not inverted this turn may split in two, unless the
 * player began the turn with any non-tribe unit (the growth ban), and never beyond 36 tribes (9.3.3).
 */
import type { EngineContext } from '../model/context.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { CoreLegalOrder } from '../model/legal-orders.ts';
import { tribeCount, unitsOf } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import { addUnit, type Game, type Transition } from '../model/state-ops.ts';

/** 9.3.3: the tribe cap (the counter supply; tribes and garrisons share it, AMBIG-45). */
const MAX_TRIBES = 36;

const splitDone = (g: Game): readonly UnitId[] => (g.step.kind === 'playerTurn' ? g.step.split : []);

/** 4.3.2, 9.2: the tribes that may split. */
export function growthLegal(_ctx: EngineContext, g: Game, player: PlayerId): CoreLegalOrder[] {
  if (g.flags.growthBanned.includes(player)) return [];
  if (tribeCount(g, player) >= MAX_TRIBES) return [];
  const done = splitDone(g);
  return unitsOf(g, player)
    .filter((u) => u.kind === 'tribe' && !u.inverted && !done.includes(u.id))
    .map((u) => ({ type: 'split', tribe: u.id }));
}

/** 4.3.2, 9.2: a tribe splits in two. */
export function applySplit(
  _ctx: EngineContext,
  g: Game,
  player: PlayerId,
  tribe: UnitId,
): Result<Transition> {
  const t = g.units[tribe];
  if (!t) return err('order/unknown_unit', { unit: tribe });
  if (t.owner !== player) return err('order/not_your_unit', { unit: tribe });
  if (t.kind !== 'tribe') return err('order/not_a_tribe', { unit: tribe });
  if (t.inverted) return err('order/tribe_inverted', { unit: tribe });
  if (g.flags.growthBanned.includes(player)) return err('order/growth_banned', { player });
  if (tribeCount(g, player) >= MAX_TRIBES) return err('order/tribe_limit', { limit: MAX_TRIBES });
  if (splitDone(g).includes(tribe)) return err('order/already_split', { unit: tribe });
  const [s, id] = addUnit(g, player, 'tribe', t.area);
  const step = s.step.kind === 'playerTurn' ? { ...s.step, split: [...s.step.split, tribe, id] } : s.step;
  return ok({
    state: { ...s, step },
    events: [{ type: 'tribeSplit', player, tribe, newTribe: id, area: t.area }],
  });
}
