/** The engine contract: determinism, undo, simultaneous decisions, views, errors, timeouts. */
import { describe, expect, it } from 'vitest';
import { createEngine, ERROR_CODES, type GameState, hashState, orderSchema } from '../src/index.ts';
import { simSetup, simulate } from '../src/sim/play.ts';
import { gridMap } from './helpers/fixture-map.ts';
import { deepFreeze } from './helpers/play.ts';
import { P, phase, scenario } from './helpers/scenario.ts';
import { WORLD } from './helpers/world-map.ts';

const engine = createEngine(WORLD);

describe('determinism (dice from the PRNG in the state)', () => {
  it('same seed and orders → the same state hash; another seed → another game', () => {
    const a = simulate(engine, simSetup('det', 4), 6);
    const b = simulate(engine, simSetup('det', 4), 6);
    const c = simulate(engine, simSetup('other', 4), 6);
    expect(a.summary.hash).toBe(b.summary.hash);
    expect(hashState(a.final)).toBe(hashState(b.final));
    expect(c.summary.hash).not.toBe(a.summary.hash);
    // Replaying the recorded orders on a fresh game gives the same state again.
    const created = engine.createGame(simSetup('det', 4));
    if (!created.ok) throw new Error(created.error.code);
    let s: GameState = created.value;
    for (const { actor, order } of a.log) {
      const r = engine.applyOrder(deepFreeze(s), actor, order);
      if (!r.ok) throw new Error(r.error.code);
      s = r.value.state;
    }
    expect(hashState(s)).toBe(a.summary.hash);
  });
});

describe('undo (BGA / Rally the Troops policy)', () => {
  const map = gridMap({ rows: 2, cols: 3 });
  it('takes back the last own order of the step; a die roll closes the window', () => {
    const s = scenario({
      map,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['a', 'tribe', 'r1c2'],
      ],
      neutrals: {},
      step: phase('a', 'movement'),
    });
    expect(s.engine.legalOrders(s.state, P('a')).some((o) => o.type === 'undo')).toBe(false);
    const m1 = s.engine.applyOrder(s.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c1'] });
    if (!m1.ok) throw new Error(m1.error.code);
    const m2 = s.engine.applyOrder(m1.value.state, P('a'), { type: 'move', unit: 'u2', path: ['r1c1'] });
    if (!m2.ok) throw new Error(m2.error.code);
    expect(s.engine.legalOrders(m2.value.state, P('a'))).toContainEqual({ type: 'undo' });
    const u = s.engine.applyOrder(m2.value.state, P('a'), { type: 'undo' });
    expect(u.ok).toBe(true);
    if (!u.ok) return;
    expect(u.value.state.units.u2?.area).toBe('r1c2');
    expect(u.value.state.units.u1?.area).toBe('r0c1');
    // Ending movement rolls creation dice / moves the step on: nothing left to undo.
    const end = s.engine.applyOrder(u.value.state, P('a'), { type: 'endPhase' });
    if (!end.ok) throw new Error(end.error.code);
    const none = s.engine.applyOrder(end.value.state, P('a'), { type: 'undo' });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.code).toBe('order/nothing_to_undo');
  });
});

describe('economic decisions are made at once (4.5)', () => {
  it('every barbarian able to pillage is waited for together, in any order', () => {
    const m = gridMap({ rows: 1, cols: 4, cities: { r0c0: { tax: 1 }, r0c3: { tax: 2 } } });
    const s = scenario({
      map: m,
      players: [
        { id: 'a', position: 'GERMAN 1' },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['b', 'tribe', 'r0c3'],
      ],
      neutrals: {},
      step: phase('b', 'combat'),
    });
    const state: GameState = {
      ...s.state,
      order: [P('a'), P('b')],
      cities: { r0c0: { owner: P('a'), everOwned: true }, r0c3: { owner: P('b'), everOwned: true } },
    };
    const start = s.engine.applyOrder(state, P('b'), { type: 'combatDone' });
    if (!start.ok) throw new Error(start.error.code);
    expect(s.engine.waitingFor(start.value.state).sort()).toEqual(['a', 'b']);
    const b = s.engine.applyOrder(start.value.state, P('b'), { type: 'pillage', area: 'r0c3' });
    if (!b.ok) throw new Error(b.error.code);
    const bDone = s.engine.applyOrder(b.value.state, P('b'), { type: 'endPhase' });
    if (!bDone.ok) throw new Error(bDone.error.code);
    expect(s.engine.waitingFor(bDone.value.state)).toEqual(['a']);
    const aDone = s.engine.applyOrder(bDone.value.state, P('a'), { type: 'endPhase' });
    if (!aDone.ok) throw new Error(aDone.error.code);
    const vp = Object.fromEntries(aDone.value.state.players.map((p) => [p.id, p.cycle?.vp]));
    expect(vp).toEqual({ a: 1, b: 6 });
  });
});

describe('boundary and views', () => {
  it('rejects malformed orders and setups with codes from the one list', () => {
    const g = engine.createGame(simSetup('v', 2));
    if (!g.ok) throw new Error(g.error.code);
    const bad = engine.applyOrder(g.value, P('p1'), { type: 'teleport' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('order/invalid');
    const setup = engine.createGame({ seed: '' });
    expect(setup.ok).toBe(false);
    if (!setup.ok) expect(ERROR_CODES).toContain(setup.error.code);
    expect(orderSchema.safeParse({ type: 'endPhase' }).success).toBe(true);
  });

  it('the view strips the dice; spectators see the public state and who is waited for', () => {
    const g = engine.createGame(simSetup('v', 2));
    if (!g.ok) throw new Error(g.error.code);
    const v = engine.view(g.value, null);
    expect('rng' in v).toBe(false);
    expect('riggedDice' in v).toBe(false);
    expect(v.waitingFor).toEqual(engine.waitingFor(g.value));
    expect(JSON.stringify(v)).not.toContain(JSON.stringify(g.value.rng));
  });

  it('timeout orders finish the waiting player’s step with documented defaults', () => {
    const g = engine.createGame(simSetup('t', 3));
    if (!g.ok) throw new Error(g.error.code);
    let s = g.value;
    for (let i = 0; i < 40; i++) {
      const p = engine.waitingFor(s)[0]!;
      const orders = engine.timeoutOrders(s, p);
      expect(orders.length).toBeGreaterThan(0);
      for (const o of orders) {
        const r = engine.applyOrder(s, p, o);
        if (!r.ok) throw new Error(r.error.code);
        s = r.value.state;
      }
    }
    expect(s.turn).toBeGreaterThan(2);
  });
});
