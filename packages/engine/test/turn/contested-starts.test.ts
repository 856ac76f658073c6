/**
 * 4.2, 7.1: start positions say, through the engine's legal orders, when an offered area lies next
 * to another player's units (contested: they could attack the new tribe in their turn).
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, type PlayerId } from '../../src/index.ts';
import { gridMap } from '../helpers/fixture-map.ts';

const map = gridMap({
  rows: 7,
  cols: 7,
  starts: { r3c3: 'GERMAN 1', r3c4: 'GERMAN 2', r0c0: 'SLAV 1' },
  outside: [],
});

describe('contested start positions (4.2, 7.1)', () => {
  it('an area next to a tribe already placed is contested by its owner; a far one is not', () => {
    const engine = createEngine(map);
    const created = engine.createGame({
      seed: 'contested',
      players: [
        { id: 'g', name: 'G', seat: 0, colour: 'red' },
        { id: 'h', name: 'H', seat: 1, colour: 'blue' },
      ],
    });
    if (!created.ok) throw new Error(created.error.code);
    let s: GameState = created.value;
    const first = engine.waitingFor(s)[0] as PlayerId;
    const before = engine.legalOrders(s, first).filter((o) => o.type === 'chooseStart');
    // Nobody stands on the board yet: nothing is contested.
    expect(before.some((o) => o.type === 'chooseStart' && o.contested)).toBe(false);
    const placed = engine.applyOrder(s, first, {
      type: 'chooseStart',
      position: 'GERMAN 1',
      area: 'r3c3' as never,
    });
    if (!placed.ok) throw new Error(placed.error.code);
    s = placed.value.state;
    const second = engine.waitingFor(s)[0] as PlayerId;
    expect(second).not.toBe(first);
    const starts = engine.legalOrders(s, second).filter((o) => o.type === 'chooseStart');
    const german2 = starts.find((o) => o.type === 'chooseStart' && o.position === 'GERMAN 2');
    const slav1 = starts.find((o) => o.type === 'chooseStart' && o.position === 'SLAV 1');
    expect(german2).toMatchObject({ areas: ['r3c4'], contested: [{ area: 'r3c4', by: [first] }] });
    expect(slav1).toMatchObject({ areas: ['r0c0'] });
    expect(slav1 && 'contested' in slav1).toBe(false);
  });
});
