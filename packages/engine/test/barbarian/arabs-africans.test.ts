/** 13.2.2 Arabs and Africans: turn-3 start, entry on "A" areas in the movement phase, deserts, continuity. */
import { describe, expect, it } from 'vitest';
import { tribeGroups } from '../../src/barbarian/continuity.ts';
import { destinations } from '../../src/barbarian/land-movement.ts';
import { unitsByArea } from '../../src/model/queries.ts';
import { startAreasFor } from '../../src/scenario/cycles.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { P, phase, scenario } from '../helpers/scenario.ts';

const map = gridMap({
  rows: 3,
  cols: 4,
  starts: { r2c0: 'ARAB' },
  aMarked: ['r2c0', 'r2c1', 'r0c3'],
  provinces: { r2c0: 'arabia', r2c1: 'arabia', r0c3: 'arabia' },
  deserts: ['r1c1'],
});
const on = { opt: { arabsAfricans: true } };

describe('13.2.2 Arabs and Africans', () => {
  it('ARAB may not be chosen on turns 1–2, nor at all with the option off', () => {
    for (const [turn, open] of [
      [2, false],
      [3, true],
    ] as const) {
      const s = scenario({ map, turn, players: [{ id: 'b' }], options: on, neutrals: {} });
      expect(startAreasFor(s.ctx, s.state, P('b'), 'ARAB').length > 0).toBe(open);
    }
    const off = scenario({ map, turn: 3, players: [{ id: 'b' }], neutrals: {} });
    expect(startAreasFor(off.ctx, off.state, P('b'), 'ARAB')).toEqual([]);
  });

  it('the entering player places two tribes on "A" areas of its province in its first movement phase', () => {
    const s = scenario({
      map,
      turn: 3,
      players: [{ id: 'a', position: 'ARAB', startedTurn: 3 }],
      options: on,
      neutrals: {},
      step: phase('a', 'movement'),
    });
    const legal = s.engine.legalOrders(s.state, P('a')).find((o) => o.type === 'placeEntryTribes');
    expect(legal).toEqual({ type: 'placeEntryTribes', areas: ['r0c3', 'r2c0', 'r2c1'] });
    const same = s.engine.applyOrder(s.state, P('a'), { type: 'placeEntryTribes', areas: ['r2c0', 'r2c0'] });
    expect(same.ok).toBe(false);
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'placeEntryTribes', areas: ['r2c0', 'r0c3'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const g = r.value.state;
    expect(
      Object.values(g.units)
        .map((u) => u.area)
        .sort(),
    ).toEqual(['r0c3', 'r2c0']);
    // Placed tribes count as moved this phase; "A" areas link them for continuity only.
    expect(s.engine.legalOrders(g, P('a')).some((o) => o.type === 'move')).toBe(false);
    expect(tribeGroups(s.ctx, g, P('a'))).toHaveLength(1);
  });

  it('Arab tribes enter deserts; other tribes do not (9.3.1)', () => {
    const s = scenario({
      map,
      players: [
        { id: 'a', position: 'ARAB' },
        { id: 'g', position: 'GERMAN 1' },
      ],
      units: [
        ['a', 'tribe', 'r1c0'],
        ['g', 'tribe', 'r0c1'],
      ],
      options: on,
      neutrals: {},
    });
    const to = (id: string) =>
      destinations(s.ctx, s.state, s.state.units[id]!, unitsByArea(s.state)).map((d) => d.to);
    expect(to('u1')).toContain('r1c1');
    expect(to('u2')).not.toContain('r1c1');
  });
});
