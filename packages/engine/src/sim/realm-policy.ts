/**
 * The sim's choices for kingdoms and empires: a plan that keeps the treasury
 * healthy, buys units while the realm is young and rich, spends on administration (more as an
 * empire), and abandons a decaying position when the rules allow it. Pure and seeded: the
 * chooser comes from the caller, never the game's dice.
 */
import type { PlayerId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { RealmOrder } from '../model/orders.ts';
import { playerById } from '../model/queries.ts';
import { realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';

type Chooser = (n: number) => number;

/** The economic plan to give now, or null when the plan is given (then `endPhase`). */
export function realmPlanChoice(
  g: GameStateCore,
  player: PlayerId,
  legal: readonly { type: string }[],
  choose: Chooser,
): RealmOrder | null {
  if (realmPlayer(g, player).plan !== null) return null;
  // 13.4: now and then the hirer's mercenaries pillage a city (before the plan, which it resets).
  const sack = legal.find(
    (o): o is Extract<RealmLegalOrder, { type: 'realmMercenaryPillage' }> =>
      o.type === 'realmMercenaryPillage',
  );
  if (sack && choose(3) === 0) return sack;
  const plans = legal.filter(
    (o): o is Extract<RealmLegalOrder, { type: 'realmPlan' }> => o.type === 'realmPlan',
  );
  if (plans.length === 0) return null;
  const stage = playerById(g, player)?.cycle?.stage;
  const buys = plans.filter((o) => o.plan.purchases.length > 0);
  const admin = plans
    .filter((o) => o.plan.purchases.length === 0 && o.plan.garrisonDisband.length === 0)
    .sort((a, b) => a.plan.adminPercent - b.plan.adminPercent);
  const shed = plans.find((o) => o.plan.garrisonDisband.length > 0);
  if (shed && choose(2) === 0) return shed;
  const buyChance = stage === 'kingdom' ? 2 : 4; // kingdoms expand, empires consolidate
  if (buys.length && choose(buyChance) === 0) return buys[choose(buys.length)]!;
  // Administration: a middle column most of the time, the top affordable one now and then.
  const pick = choose(3) === 0 ? admin.at(-1) : admin[Math.min(admin.length - 1, 1 + choose(2))];
  return pick ?? plans[0]!;
}

/**
 * 14.3: a position worth leaving: an empire at least 12 turns old whose last tax income fell
 * under 10, or a realm with no unit left. The rules' own gate (mayAbandon) still applies.
 */
export function wantsToAbandon(g: GameStateCore, player: PlayerId): boolean {
  const p = playerById(g, player);
  if (!p?.cycle || p.abandoning) return false;
  const units = Object.values(g.units).some((u) => u.owner === player && u.kind !== 'leader');
  if (p.cycle.stage !== 'barbarian' && !units) return true;
  return (
    p.cycle.stage === 'empire' && g.turn - p.cycle.stageTurn >= 12 && realmPlayer(g, player).lastIncome < 10
  );
}
