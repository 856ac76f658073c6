import { describe, expect, it } from 'vitest';
import { createEngine, type PlayerId } from '../src/index.ts';
import { gridMap } from './helpers/fixture-map.ts';

const map = gridMap({
  rows: 5,
  cols: 6,
  starts: { r0c0: 'GERMAN 1', r4c5: 'SLAV 1' },
  cities: { r2c2: { tax: 2 }, r2c3: { tax: 1 } },
});

describe('smoke', () => {
  it('creates a game and plays defaults for a few turns', () => {
    const engine = createEngine(map);
    const g = engine.createGame({
      seed: 's1',
      players: [
        { id: 'a', name: 'A', seat: 0, colour: 'red' },
        { id: 'b', name: 'B', seat: 1, colour: 'blue' },
      ],
    });
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    let s = g.value;
    for (let i = 0; i < 60; i++) {
      const w = engine.waitingFor(s);
      expect(w.length).toBeGreaterThan(0);
      const p = w[0] as PlayerId;
      const orders = engine.timeoutOrders(s, p);
      expect(orders.length).toBeGreaterThan(0);
      for (const o of orders) {
        const r = engine.applyOrder(s, p, o);
        expect(r.ok).toBe(true);
        if (r.ok) s = r.value.state;
      }
    }
    expect(s.turn).toBeGreaterThan(3);
  });
});
