/**
 * The strong bot plays through the engine's public contract only: every order it gives in a
 * seeded game against the simulator's policy is accepted, it reaches the kingdom stage (10.1),
 * gives economic plans that buy the Administration Table (10.6.1), attacks (7.1), and picks
 * the start position with the better prospects (4.2).
 */
import { describe, expect, it } from 'vitest';
import { createBot } from '../../src/bot/levels.ts';
import { createEngine, type GameState, type Order, type PlayerId, simSetup } from '../../src/index.ts';
import { simplePolicy } from '../../src/sim/policy.ts';
import { gridMap } from '../helpers/fixture-map.ts';

describe('strong bot', () => {
  it('plays 30 turns against the sim policy with every order accepted, founding kingdoms and attacking', () => {
    const engine = createEngine();
    const setup = simSetup('bot-test', 4);
    const created = engine.createGame(setup);
    if (!created.ok) throw new Error(created.error.code);
    let state: GameState = created.value;
    const strong = new Set(['p1', 'p3']);
    const bots = new Map(
      ['p1', 'p2', 'p3', 'p4'].map((p) => [
        p,
        strong.has(p) ? createBot('strong', `t:${p}`) : simplePolicy(`t:${p}`),
      ]),
    );
    const given: Order[] = [];
    const kingdoms = new Set<string>();
    for (let n = 0; state.turn <= 30 && n < 60_000; n++) {
      const player = engine.waitingFor(state)[0] as PlayerId | undefined;
      if (!player) break;
      const order =
        bots.get(player)!.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0]!;
      const r = engine.applyOrder(state, player, order);
      if (strong.has(player)) {
        expect(r.ok ? 'accepted' : `${r.error.code} for ${JSON.stringify(order)}`).toBe('accepted');
        given.push(order);
      }
      if (!r.ok) throw new Error(r.error.code);
      for (const e of r.value.events) if (e.type === 'becameKingdom') kingdoms.add(e.player);
      state = r.value.state;
    }
    expect(state.turn).toBeGreaterThan(30);
    expect([...kingdoms].filter((p) => strong.has(p)).length).toBeGreaterThan(0);
    expect(given.some((o) => o.type === 'combatAttack')).toBe(true);
    expect(given.some((o) => o.type === 'realmPlan' && o.plan.adminPercent >= 20)).toBe(true);
  }, 120_000);

  it('plays with every optional rule on and the advanced victory conditions, every order accepted', () => {
    const engine = createEngine();
    const opt = Object.fromEntries(
      [
        'tribalSeaCrossings',
        'tribalAttacksOnNeutralGarrisons',
        'vikingModifications',
        'arabsAfricans',
        'persianKingdom',
        'optionalCities',
        'hunModifications',
        'auction',
        'mercenaries',
        'byzantium',
        'optionalLeaders',
        'tribute',
      ].map((k) => [k, true]),
    );
    const created = engine.createGame({
      ...simSetup('bot-options', 6),
      options: { opt, victory: 'advanced' },
    });
    if (!created.ok) throw new Error(created.error.code);
    let state: GameState = created.value;
    const bots = new Map(
      state.players.map((p, i) => [
        p.id,
        i % 2 === 0 ? createBot('strong', `o:${p.id}`) : simplePolicy(`o:${p.id}`),
      ]),
    );
    const refused: string[] = [];
    for (let n = 0; state.turn <= 40 && n < 80_000; n++) {
      const player = engine.waitingFor(state)[0] as PlayerId | undefined;
      if (!player) break;
      const order =
        bots.get(player)!.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0]!;
      let r = engine.applyOrder(state, player, order);
      if (!r.ok) {
        refused.push(`${player} ${r.error.code} ${JSON.stringify(order)}`);
        r = engine.applyOrder(state, player, engine.timeoutOrders(state, player)[0]);
        if (!r.ok) throw new Error(r.error.code);
      }
      state = r.value.state;
      // Orders given while others act (13.7 tribute), asked of every seat not waited for.
      for (const [id, bot] of bots) {
        const aside = engine.waitingFor(state).includes(id) ? null : bot.aside?.(engine, state, id);
        if (!aside) continue;
        const ra = engine.applyOrder(state, id, aside);
        if (!ra.ok) refused.push(`${id} ${ra.error.code} ${JSON.stringify(aside)}`);
        else state = ra.value.state;
      }
    }
    expect(state.turn).toBeGreaterThan(40);
    expect(refused).toEqual([]);
  }, 180_000);

  it('is deterministic: the same seed gives the same game', () => {
    const engine = createEngine();
    const play = () => {
      const created = engine.createGame(simSetup('det', 2));
      if (!created.ok) throw new Error(created.error.code);
      let state = created.value;
      const bots = new Map(['p1', 'p2'].map((p) => [p, createBot('strong', `d:${p}`)]));
      while (state.turn <= 8) {
        const player = engine.waitingFor(state)[0]!;
        const r = engine.applyOrder(state, player, bots.get(player)!.choose(engine, state, player));
        if (!r.ok) throw new Error(r.error.code);
        state = r.value.state;
      }
      return engine.hash(state);
    };
    expect(play()).toBe(play());
  }, 60_000);

  it('chooses the start position with cities within reach (4.2)', () => {
    // Two start positions at opposite corners; the cities are all near the second.
    const map = gridMap({
      rows: 5,
      cols: 5,
      starts: { r0c0: 'GERMAN 1', r4c4: 'SLAV 1' },
      cities: { r3c3: { tax: 3 }, r4c2: { tax: 2 }, r2c4: { tax: 2 } },
    });
    const engine = createEngine(map);
    const created = engine.createGame({
      seed: 's',
      options: {},
      players: [{ id: 'p1', name: 'A', seat: 0, colour: 'red' }],
    });
    if (!created.ok) throw new Error(created.error.code);
    const legal = engine.legalOrders(created.value, 'p1' as PlayerId);
    expect(legal.filter((o) => o.type === 'chooseStart')).toHaveLength(2);
    const order = createBot('strong', 's').choose(engine, created.value, 'p1' as PlayerId);
    expect(order).toEqual({ type: 'chooseStart', position: 'SLAV 1', area: 'r4c4' });
  });
});
