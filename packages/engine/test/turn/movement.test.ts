/** 5.1 land movement, 4.3.1 combination, 4.3.2 growth, end of movement (9.2, 6), 4.3.4 creation. */
import { describe, expect, it } from 'vitest';
import { destinations } from '../../src/barbarian/land-movement.ts';
import type { LegalOrder } from '../../src/index.ts';
import { unitsByArea } from '../../src/model/queries.ts';
import { cell, gridMap } from '../helpers/fixture-map.ts';
import { P, phase, scenario, U, unitsAt } from '../helpers/scenario.ts';

const line = gridMap({
  rows: 1,
  cols: 7,
  roads: [
    ['r0c0', 'r0c1'],
    ['r0c1', 'r0c2'],
    ['r0c2', 'r0c3'],
    ['r0c3', 'r0c4'],
  ],
});

const dests = (s: ReturnType<typeof scenario>, unit: string) =>
  destinations(s.ctx, s.state, s.state.units[unit]!, unitsByArea(s.state)).map((d) => d.to);

describe('5.1 land movement', () => {
  it('a 3-3 moves up to 3 areas, 4 when every step (the bonus too) is along the road from a road area', () => {
    const s = scenario({
      map: line,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'barbarianInfantry', 'r0c0']],
      neutrals: {},
    });
    expect(dests(s, 'u1')).toEqual(['r0c1', 'r0c2', 'r0c3', 'r0c4']);
    // Off the road end: r0c4 → r0c5 is not a road step, so from r0c2 only 3 steps count.
    const t = scenario({
      map: line,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'barbarianInfantry', 'r0c2']],
      neutrals: {},
    });
    expect(dests(t, 'u1')).toEqual(['r0c0', 'r0c1', 'r0c3', 'r0c4', 'r0c5']);
  });

  it('blocking: no entering or passing an area with an unfriendly unit or a neutral garrison; friendly units may be passed', () => {
    const s = scenario({
      map: line,
      players: [
        { id: 'a', position: 'GERMAN 1' },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['a', 'barbarianHorse', 'r0c3'],
        ['a', 'tribe', 'r0c4'],
        ['b', 'tribe', 'r0c1'],
      ],
      neutrals: { r0c6: 2 },
    });
    expect(dests(s, 'u1')).toEqual(['r0c2', 'r0c4', 'r0c5']);
  });

  it('red arrows carry land units across water; tribes never enter deserts (9.3.1)', () => {
    const m = gridMap({ rows: 2, cols: 2, redArrows: [['r0c0', 'r1c1']], deserts: ['r0c1'] });
    const s = scenario({
      map: m,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'tribe', 'r0c0']],
      neutrals: {},
    });
    expect(dests(s, 'u1')).toEqual(['r1c0', 'r1c1']);
  });

  it('a moved unit may not move again; a path longer than its MA is refused', () => {
    const s = scenario({
      map: line,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'tribe', 'r0c5']],
      neutrals: {},
      step: phase('a', 'movement'),
    });
    const far = s.engine.applyOrder(s.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c4', 'r0c3'] });
    expect(far.ok).toBe(false);
    if (!far.ok) expect(far.error.code).toBe('order/unreachable');
    const one = s.engine.applyOrder(s.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c6'] });
    expect(one.ok).toBe(true);
    if (!one.ok) return;
    const again = s.engine.applyOrder(one.value.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c5'] });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.code).toBe('order/already_moved');
  });
});

const sq = gridMap({ rows: 3, cols: 3 });

describe('4.3.1 combination and 4.3.2 growth', () => {
  it('two tribes each move ≤1 area into a common empty area and are inverted; inverted tribes neither split nor move', () => {
    const s = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['a', 'tribe', 'r0c2'],
        ['a', 'tribe', 'r2c2'],
      ],
      neutrals: {},
      step: phase('a', 'combination'),
    });
    const legal = s.engine.legalOrders(s.state, P('a')).filter((o) => o.type === 'combine');
    expect(legal).toContainEqual({ type: 'combine', tribes: ['u1', 'u2'], areas: ['r0c1'] });
    const tooFar = s.engine.applyOrder(s.state, P('a'), {
      type: 'combine',
      tribes: ['u1', 'u3'],
      area: 'r1c1',
    });
    expect(tooFar.ok).toBe(false);
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'combine', tribes: ['u1', 'u2'], area: 'r0c1' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(unitsAt(r.value.state, 'r0c1').map((u) => u.inverted)).toEqual([true, true]);
    const grow = s.engine.applyOrder({ ...r.value.state, step: phase('a', 'growth') }, P('a'), {
      type: 'split',
      tribe: 'u1',
    });
    expect(grow.ok).toBe(false);
    if (!grow.ok) expect(grow.error.code).toBe('order/tribe_inverted');
  });

  it('growth: a tribe splits once; the ban applies to a player who began the turn with a combat unit; 36 tribes at most', () => {
    const s = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'tribe', 'r1c1']],
      neutrals: {},
      step: phase('a', 'growth'),
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'split', tribe: 'u1' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(unitsAt(r.value.state, 'r1c1')).toHaveLength(2);
    const twice = s.engine.applyOrder(r.value.state, P('a'), { type: 'split', tribe: 'u1' });
    expect(twice.ok).toBe(false);
    const newborn = s.engine.applyOrder(r.value.state, P('a'), { type: 'split', tribe: 'u2' });
    expect(newborn.ok).toBe(false);
    const banned = s.engine.applyOrder(
      { ...s.state, flags: { growthBanned: [P('a')], attacked: [] } },
      P('a'),
      {
        type: 'split',
        tribe: 'u1',
      },
    );
    expect(banned.ok).toBe(false);
    if (!banned.ok) expect(banned.error.code).toBe('order/growth_banned');
    const big = gridMap({ rows: 6, cols: 6 });
    const full = scenario({
      map: big,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: Array.from(
        { length: 36 },
        (_, i) => ['a', 'tribe', cell(Math.floor(i / 6), i % 6)] as [string, 'tribe', string],
      ),
      neutrals: {},
      step: phase('a', 'growth'),
    });
    const capped = full.engine.applyOrder(full.state, P('a'), { type: 'split', tribe: 'u1' });
    expect(capped.ok).toBe(false);
    if (!capped.ok) expect(capped.error.code).toBe('order/tribe_limit');
  });
});

describe('end of movement (9.2, 6) and unit creation (4.3.4, 9.1)', () => {
  const coastMap = gridMap({ rows: 2, cols: 3, seas: { sea: { shores: ['r0c0'] } } });

  it('surplus tribes in an area are removed; a tribe sharing with a combat unit makes the owner choose', () => {
    const s = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['a', 'tribe', 'r0c0'],
        ['a', 'tribe', 'r1c1'],
        ['a', 'barbarianInfantry', 'r1c1'],
      ],
      neutrals: {},
      step: phase('a', 'movement'),
      dice: [],
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'endPhase' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(unitsAt(r.value.state, 'r0c0')).toHaveLength(1);
    expect(r.value.state.step).toMatchObject({ kind: 'playerTurn', phase: 'stacking' });
    const legal = s.engine.legalOrders(r.value.state, P('a')).map((o: LegalOrder) => o.type);
    expect(legal).toContain('disband');
    expect(legal).not.toContain('endPhase');
    const d = s.engine.applyOrder(r.value.state, P('a'), { type: 'disband', unit: 'u3' });
    expect(d.ok).toBe(true);
    if (d.ok) expect(d.value.state.step).not.toMatchObject({ phase: 'stacking' });
  });

  it('creation: one die per inverted pair on the people row; a ship made inland is lost', () => {
    // VIKING row (C.2.b): 4 → 1-4 ship. Inland pair: the ship is lost; coastal pair keeps it.
    const s = scenario({
      map: coastMap,
      players: [{ id: 'a', position: 'VIKING' }],
      units: [
        ['a', 'tribe', 'r0c0', true],
        ['a', 'tribe', 'r0c0', true],
        ['a', 'tribe', 'r1c2', true],
        ['a', 'tribe', 'r1c2', true],
      ],
      neutrals: {},
      dice: [4, 4],
      step: phase('a', 'movement'),
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'endPhase' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const created = r.value.events.filter((e) => e.type === 'unitCreated');
    expect(created).toHaveLength(2);
    expect(unitsAt(r.value.state, 'r0c0').map((u) => u.kind)).toEqual(['ship']);
    expect(unitsAt(r.value.state, 'r1c2')).toEqual([]);
    expect(created[1]).toMatchObject({ area: 'r1c2', die: 4, lost: ['ship'] });
  });

  it('counter exhaustion: a result whose counters have run out is rerolled (9.1, C.6)', () => {
    // GERMAN 4 → 3-4; with all 10 horse counters in use the die is rolled again (2 → 3-3).
    const horses = Array.from(
      { length: 10 },
      (_, i) => ['a', 'barbarianHorse', cell(1, i)] as [string, 'barbarianHorse', string],
    );
    const wide = gridMap({ rows: 2, cols: 10 });
    const s = scenario({
      map: wide,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [...horses, ['a', 'tribe', 'r0c0', true], ['a', 'tribe', 'r0c0', true]],
      neutrals: {},
      dice: [4, 2],
      step: phase('a', 'movement'),
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'endPhase' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.events.find((e) => e.type === 'unitCreated')).toMatchObject({
      die: 2,
      rerolls: [4],
      kinds: ['barbarianInfantry'],
    });
    expect(r.value.state.units[U('u11')]).toBeUndefined();
  });
});

describe('AMBIG-53 lone leaders', () => {
  it('a unit passing through an area with only an enemy leader eliminates it', () => {
    const s = scenario({
      map: line,
      players: [
        { id: 'a', position: 'GERMAN 1' },
        { id: 'k', position: 'HUN', stage: 'kingdom' },
      ],
      units: [
        ['a', 'barbarianHorse', 'r0c0'],
        ['k', 'leader', 'r0c1'],
      ],
      neutrals: {},
      step: phase('a', 'movement'),
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c1', 'r0c2'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.state.units.u2).toBeUndefined();
    expect(r.value.events).toContainEqual({ type: 'leaderEliminated', unit: 'u2', area: 'r0c1' });
  });
});
