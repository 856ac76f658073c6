/**
 * 4.5 for kingdoms and empires: who decides in the economic phase, the plans offered to them
 * (upkeep disbanding, purchases, the administration column), a plan given, and the phase resolved
 * with capitals captured first (10.3) and every player's collection in move order.
 */
import { mercenaryPillageable, mercenaryPillageChosen } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { RealmLegalOrder } from '../model/legal-orders.ts';
import type { EconomicPlan, RealmOrder } from '../model/orders.ts';
import { moveOrder, playerById } from '../model/queries.ts';
import { patchRealmPlayer } from '../model/realm.ts';
import { err, ok, type Result } from '../model/result.ts';
import type { Game, RealmStep, Transition } from '../model/state-ops.ts';
import { priceOf } from '../model/upkeep.ts';
import { adminColumns } from './administration-columns.ts';
import { bidLegal } from './diplomacy-orders.ts';
import {
  auctioneers,
  collectRealm,
  defaultPlan,
  economyPreview,
  moneyAfterUpkeep,
  planProblem,
  recordBarbarianLedger,
  resolveCaptures,
} from './economy.ts';
import { singlePurchases } from './purchase.ts';

const isRealmStage = (g: Game, id: PlayerId): boolean => {
  const st = playerById(g, id)?.cycle?.stage;
  return st === 'kingdom' || st === 'empire';
};

/** 4.5: every kingdom and empire has economic decisions (upkeep, purchases, administration). */
export function realmEconomicDeciders(ctx: EngineContext, g: Game): PlayerId[] {
  const selling = auctioneers(ctx, g);
  // 13.3: with an auction coming, every other player with money may bid (acting at once, 4.5).
  return moveOrder(g).filter(
    (id) => isRealmStage(g, id) || (selling.some((a) => a !== id) && (playerById(g, id)?.money ?? 0) > 0),
  );
}

/**
 * 4.5.2–4.5.3: a handful of concrete plans: the thrifty default, each affordable administration
 * column, and one purchase of each kind (at its first legal place) — enough for a client to show
 * the costs and for random play to explore; any other legal plan is accepted too.
 */
export function realmEconomicLegal(ctx: EngineContext, g: Game, player: PlayerId): RealmLegalOrder[] {
  const chosen = mercenaryPillageChosen(g, player);
  const sack: RealmLegalOrder[] = mercenaryPillageable(ctx, g, player)
    .filter((area) => !chosen.includes(area))
    .map((area) => ({ type: 'realmMercenaryPillage', area }));
  const bids = [...sack, ...bidLegal(ctx, g, player)];
  const pv = economyPreview(ctx, g, player);
  if (!pv) return bids;
  const base = defaultPlan(pv);
  const left = moneyAfterUpkeep(pv, base);
  const out: RealmLegalOrder[] = [{ type: 'realmPlan', plan: base }];
  for (const c of adminColumns(ctx.options, pv.tax))
    if (c.percent > 0 && c.cost <= left)
      out.push({ type: 'realmPlan', plan: { ...base, adminPercent: c.percent } });
  const seen = new Set<string>();
  for (const p of singlePurchases(ctx, g, player, pv.stage)) {
    if (seen.has(p.kind) || priceOf(p.kind, pv.stage) > left) continue;
    const plan = { ...base, purchases: [p] };
    if (planProblem(ctx, g, pv, plan) === null) {
      seen.add(p.kind);
      out.push({ type: 'realmPlan', plan });
    }
  }
  if (pv.isolatedGarrisons.length) {
    const plan = { ...defaultPlanWithout(pv, pv.isolatedGarrisons), garrisonDisband: pv.isolatedGarrisons };
    if (planProblem(ctx, g, pv, plan) === null) out.push({ type: 'realmPlan', plan });
  }
  return [...out, ...bids];
}

/** The default plan once some garrisons are disbanded at will (disbanding recomputed). */
function defaultPlanWithout(
  pv: NonNullable<ReturnType<typeof economyPreview>>,
  gone: readonly UnitId[],
): EconomicPlan {
  return defaultPlan({ ...pv, upkeepUnits: pv.upkeepUnits.filter((u) => !gone.includes(u.id)) });
}

/** 4.5.2–4.5.3: a kingdom's or empire's economic plan, checked and kept until the phase resolves. */
export function applyEconomicPlan(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  order: RealmOrder,
): Result<RealmStep> | null {
  if (order.type === 'realmPlan') {
    if (g.step.kind !== 'economic' || !g.step.pending.includes(player)) return err('order/wrong_phase');
    const pv = economyPreview(ctx, g, player);
    if (!pv) return err('order/wrong_phase', { reason: 'notARealm' });
    const problem = planProblem(ctx, g, pv, order.plan);
    if (problem) return err('order/invalid', { reason: problem });
    return ok({ state: patchRealmPlayer(g, player, { plan: order.plan }), events: [], choice: null });
  }
  return null;
}

/**
 * 4.5 resolved in move order: capitals captured first (10.3), then each player's collection —
 * the barbarian collection passed in (followed by its ledger row), `collectRealm` for
 * kingdoms and empires.
 */
export function resolveEconomicWithRealms(
  ctx: EngineContext,
  g: Game,
  barbarianCollect: (g: Game, player: PlayerId) => { state: Game; events: GameEvent[] },
): Transition {
  const c = resolveCaptures(g);
  let s = c.state;
  const events: GameEvent[] = [...c.events];
  for (const id of moveOrder(g)) {
    const stage = playerById(s, id)?.cycle?.stage;
    if (stage === 'kingdom' || stage === 'empire') {
      const t = collectRealm(ctx, s, id);
      s = t.state;
      events.push(...t.events);
    } else {
      const before = s;
      const t = barbarianCollect(s, id);
      const l = recordBarbarianLedger(t.state, id, before, t.events);
      s = l.state;
      events.push(...t.events, ...l.events);
    }
  }
  return { state: s, events };
}
