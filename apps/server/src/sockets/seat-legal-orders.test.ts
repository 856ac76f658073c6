import { createEngine, type GameState, type PlayerId, simSetup, simulate } from '@bke/engine';
import { describe, expect, it } from 'vitest';
import { SeatLegalOrders, sameJson } from './seat-legal-orders.ts';

const engine = createEngine();

/** The states of a simulated six-player game on the real map, long enough for kingdoms (4.5). */
function states(turns: number): GameState[] {
  const out: GameState[] = [];
  simulate(engine, simSetup('seat-legal', 6), turns, undefined, undefined, (s) => out.push(s));
  return out;
}

describe('sameJson', () => {
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: [1, 2] },
      { a: 1, b: [1, 2] },
    ],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1, f: () => 1 }, { a: 1 }],
    [
      [undefined, 1],
      [null, 1],
    ],
    [[() => 1], [null]],
    [{ n: Number.NaN }, { n: null }],
    [{ n: Number.POSITIVE_INFINITY }, { n: Number.NaN }],
    [{ z: -0 }, { z: 0 }],
    [{ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' }],
    [[], {}],
    [{ a: [] }, { a: {} }],
    [{ a: 'x' }, { a: 'y' }],
    [{ a: 1 }, { a: '1' }],
    [
      [1, 2],
      [1, 2, 3],
    ],
    [{ a: { b: { c: [1, { d: true }] } } }, { a: { b: { c: [1, { d: false }] } } }],
    [null, null],
    [undefined, null],
  ];
  it('agrees with comparing the JSON texts', () => {
    for (const [a, b] of cases) expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});

describe('SeatLegalOrders', () => {
  const all = states(30);
  const seats = all[all.length - 1]!.players.map((p) => p.id as PlayerId);

  it("gives every seat the engine's legal orders at every version, listing fewer", () => {
    let listed = 0;
    const counting = {
      legalOrders: (s: GameState, p: PlayerId) => {
        listed++;
        return engine.legalOrders(s, p);
      },
      sameLegalOrders: engine.sameLegalOrders,
    };
    const seat = new SeatLegalOrders(counting);
    const world = {};
    let asked = 0;
    for (const s of all)
      for (const p of seats) {
        asked++;
        expect(seat.at(world, s, p)).toEqual(engine.legalOrders(s, p));
        // At most once per version: asking again lists nothing.
        const before = listed;
        seat.at(world, s, p);
        expect(listed).toBe(before);
      }
    expect(listed).toBeLessThan(asked);
  }, 60_000);

  it('tells a room the orders changed exactly when their JSON differs from the last it was sent', () => {
    const seat = new SeatLegalOrders(engine);
    const world = {};
    const sent = new Map<PlayerId, string>();
    let changes = 0;
    let same = 0;
    for (const [i, s] of all.entries()) {
      // Now and then the room empties, and the next socket there gets the orders whatever they are.
      if (i % 97 === 0) {
        seat.forget('room-p1');
        sent.delete('p1' as PlayerId);
      }
      for (const p of seats) {
        const { orders, changed } = seat.forRoom(world, s, p, `room-${p}`);
        const json = JSON.stringify(engine.legalOrders(s, p));
        expect(JSON.stringify(orders)).toBe(json);
        expect(changed).toBe(sent.get(p) !== json);
        if (changed) changes++;
        else same++;
        sent.set(p, json);
      }
    }
    expect(changes).toBeGreaterThan(0);
    expect(same).toBeGreaterThan(0);
  }, 60_000);
});
