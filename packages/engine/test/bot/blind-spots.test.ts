/**
 * The planning levels' blind spots, checked on every order the strong bot gives in a seeded
 * 45-turn game with the agreements on, played through the engine's public contract against the
 * simulator's policy:
 * - 10.2: it never ends its movement with an unmoved leader standing alone while a friendly stack
 *   was within the leader's reach;
 * - 5.3, 8.2: no voyage with a third or more of sinking, no landing with less than twice the
 *   strength holding its target;
 * - 10.4, 10.5: every plan that buys units or an Administration column leaves, with next turn's tax,
 *   enough to pay next turn's upkeep (the units bought included);
 * - 13.7: no tribute above the tax its threatened cities were expected to lose.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { voyageRisk } from '../../src/bot/guard.ts';
import { createBot } from '../../src/bot/levels.ts';
import {
  createEngine,
  type Engine,
  type GameState,
  type Order,
  type PlayerId,
  realmPlanCost,
  simSetup,
} from '../../src/index.ts';
import { strengthOf } from '../../src/model/units.ts';
import { simplePolicy } from '../../src/sim/policy.ts';

interface Given {
  state: GameState;
  player: PlayerId;
  order: Order;
}

const given: Given[] = [];
let engine: Engine;

beforeAll(() => {
  engine = createEngine();
  const opt = Object.fromEntries(['optionalLeaders', 'tribute', 'mercenaries'].map((k) => [k, true]));
  const created = engine.createGame({ ...simSetup('blind-spots', 6), options: { opt, victory: 'basic' } });
  if (!created.ok) throw new Error(created.error.code);
  let state: GameState = created.value;
  const strong = new Set(state.players.filter((_, i) => i % 2 === 0).map((p) => p.id));
  const bots = new Map(
    state.players.map((p) => [
      p.id,
      strong.has(p.id) ? createBot('strong', `b:${p.id}`) : simplePolicy(`b:${p.id}`),
    ]),
  );
  for (let n = 0; state.turn <= 45 && n < 90_000; n++) {
    const player = engine.waitingFor(state)[0] as PlayerId | undefined;
    if (!player) break;
    const order = bots.get(player)!.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0]!;
    if (strong.has(player)) given.push({ state, player, order });
    const r = engine.applyOrder(state, player, order);
    if (!r.ok) throw new Error(`${r.error.code} ${JSON.stringify(order)}`);
    state = r.value.state;
    for (const [id, bot] of bots) {
      const aside = engine.waitingFor(state).includes(id) ? null : bot.aside?.(engine, state, id);
      if (!aside) continue;
      if (strong.has(id)) given.push({ state, player: id, order: aside });
      const ra = engine.applyOrder(state, id, aside);
      if (ra.ok) state = ra.value.state;
    }
  }
}, 240_000);

describe('strong bot blind spots', () => {
  it('10.2: keeps its leaders with its units', () => {
    let checked = 0;
    for (const { state, player, order } of given) {
      if (order.type !== 'endPhase' || state.step.kind !== 'playerTurn' || state.step.phase !== 'movement')
        continue;
      const moved = state.step.moved as readonly string[];
      const units = Object.values(state.units).filter((u) => u.owner === player && u.kind !== 'leader');
      for (const l of Object.values(state.units)) {
        if (l.owner !== player || l.kind !== 'leader' || moved.includes(l.id)) continue;
        checked++;
        if (units.some((u) => u.area === l.area)) continue;
        const m = engine.legalOrders(state, player).find((o) => o.type === 'move' && o.unit === l.id);
        const reachable =
          m?.type === 'move' ? m.destinations.filter((d) => units.some((u) => u.area === d.to)) : [];
        expect(reachable.map((d) => d.to)).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('5.3, 8.2: sails only with its risk weighed', () => {
    for (const { state, order } of given) {
      if (order.type !== 'shipMove') continue;
      expect(voyageRisk(engine, order.path)).toBeLessThan(1 / 3);
      const target = order.path.at(-1)!;
      const landing = Object.values(state.units).some(
        (u) => u.area === target && u.owner !== state.units[order.ship]?.owner && u.kind !== 'leader',
      );
      if (!landing && !state.neutrals[target]) continue;
      const force = order.cargo.reduce((s, id) => s + strengthOf(state.units[id]!.kind, state.options), 0);
      if (force > 0) expect(force).toBeGreaterThanOrEqual(2);
    }
  });

  it('10.4, 10.5: buys nothing next turn cannot keep', () => {
    let plans = 0;
    for (const { state, player, order } of given) {
      if (order.type !== 'realmPlan') continue;
      if (order.plan.purchases.length === 0 && order.plan.adminPercent === 0) continue;
      const c = realmPlanCost(engine, state, player, order.plan)!;
      plans++;
      expect(c.problem).toBeNull();
      expect(c.treasuryLeft + 0.9 * c.tax).toBeGreaterThanOrEqual(c.upkeep + c.purchases / 2);
    }
    expect(plans).toBeGreaterThan(0);
  });

  it('13.7: pays no tribute above what its threatened cities stand to lose', () => {
    for (const { state, player, order } of given) {
      if (order.type !== 'realmTribute') continue;
      const near = (area: string) =>
        Object.values(state.units).some(
          (u) =>
            u.owner === order.to &&
            u.kind !== 'leader' &&
            engine.map.landLinks(area as never).some((l) => l.to === u.area),
        );
      const atStake = Object.entries(state.cities)
        .filter(([a, c]) => c?.owner === player && near(a))
        .reduce((s, [a]) => s + (engine.map.area(a as never)?.city?.tax ?? 0), 0);
      expect(order.amount).toBeLessThanOrEqual(atStake);
    }
  });
});
