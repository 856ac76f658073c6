/** 9.3.4 continuity, 10.1 conversion, 14.1/14.3 neutral garrisons, 3 ownership, abandoning. */
import { describe, expect, it } from 'vitest';
import { tribeGroups } from '../../src/barbarian/continuity.ts';
import { initialNeutrals } from '../../src/scenario/neutrals.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { adminStep, P, phase, scenario, settleGame, unitsAt } from '../helpers/scenario.ts';

const sq = gridMap({ rows: 3, cols: 4, cities: { r0c3: { tax: 2 }, r2c3: { tax: 1 } } });

describe('9.3.4 continuity', () => {
  it('combat units carry the connection; a split horde keeps the group its owner chooses', () => {
    const linked = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['a', 'barbarianInfantry', 'r0c1'],
        ['a', 'tribe', 'r0c2'],
      ],
      neutrals: {},
    });
    expect(tribeGroups(linked.ctx, linked.state, P('a'))).toEqual([['r0c0', 'r0c2']]);
    const split = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [
        ['a', 'tribe', 'r0c0'],
        ['a', 'tribe', 'r1c0'],
        ['a', 'tribe', 'r2c2'],
        ['a', 'barbarianInfantry', 'r0c2'],
      ],
      neutrals: {},
      turn: 2,
      step: adminStep(['a']),
    });
    const t = settleGame(split.ctx, split.state);
    expect(t.state.step).toMatchObject({ kind: 'administration', choice: { type: 'continuity' } });
    expect(split.engine.waitingFor(t.state)).toEqual(['a']);
    const r = split.engine.applyOrder(t.state, P('a'), { type: 'keepGroup', area: 'r2c2' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const left = Object.values(r.value.state.units).map((u) => `${u.kind}@${u.area}`);
    expect(left).toEqual(expect.arrayContaining(['tribe@r2c2', 'barbarianInfantry@r0c2']));
    expect(left).not.toContain('tribe@r0c0');
  });

  it('13.1.1: a sea marked with the group name links its shores', () => {
    const m = gridMap({ rows: 1, cols: 5, seas: { fjord: { shores: ['r0c0', 'r0c4'], marks: ['VIKING'] } } });
    const units: [string, 'tribe', string][] = [
      ['a', 'tribe', 'r0c0'],
      ['a', 'tribe', 'r0c4'],
    ];
    const on = scenario({
      map: m,
      players: [{ id: 'a', position: 'VIKING' }],
      units,
      neutrals: {},
      options: { opt: { tribalSeaCrossings: true } },
    });
    expect(tribeGroups(on.ctx, on.state, P('a'))).toHaveLength(1);
    const off = scenario({ map: m, players: [{ id: 'a', position: 'VIKING' }], units, neutrals: {} });
    expect(tribeGroups(off.ctx, off.state, P('a'))).toHaveLength(2);
  });
});

describe('10.1 conversion into a kingdom', () => {
  it('units flip, tribes go, the owner places the leader with a unit and the capital on an owned unpillaged city', () => {
    const s = scenario({
      map: sq,
      turn: 10,
      players: [{ id: 'a', position: 'GERMAN 1', countdown: 4, money: 7 }],
      units: [
        ['a', 'barbarianInfantry', 'r0c3'],
        ['a', 'horseBow', 'r2c3'],
        ['a', 'barbarianHorse', 'r1c1'],
        ['a', 'tribe', 'r1c0'],
      ],
      neutrals: {},
      step: adminStep(['a']),
    });
    const state = {
      ...s.state,
      cities: { r0c3: { owner: P('a'), everOwned: true }, r2c3: { owner: P('a'), everOwned: true } },
    };
    const t = settleGame(s.ctx, state);
    expect(t.state.step).toMatchObject({ choice: { type: 'foundKingdom' } });
    expect(
      Object.values(t.state.units)
        .map((u) => u.kind)
        .sort(),
    ).toEqual(['bow', 'cavalry', 'infantry']);
    const legal = s.engine.legalOrders(t.state, P('a')).find((o) => o.type === 'foundKingdom');
    expect(legal).toEqual({
      type: 'foundKingdom',
      leaderWith: ['u1', 'u2', 'u3'],
      capital: ['r0c3', 'r2c3'],
    });
    const bad = s.engine.applyOrder(t.state, P('a'), {
      type: 'foundKingdom',
      leaderWith: 'u3',
      capital: 'r1c1',
    });
    expect(bad.ok).toBe(false);
    const r = s.engine.applyOrder(t.state, P('a'), {
      type: 'foundKingdom',
      leaderWith: 'u3',
      capital: 'r2c3',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const a = r.value.state.players[0]!;
    expect(a.cycle?.stage).toBe('kingdom');
    expect(a.cycle?.stageTurn).toBe(10);
    expect(a.capital).toBe('r2c3');
    expect(a.money).toBe(7); // AMBIG-34: the hoard becomes the treasury
    expect(
      unitsAt(r.value.state, 'r1c1')
        .map((u) => u.kind)
        .sort(),
    ).toEqual(['cavalry', 'leader']);
  });
});

describe('14.1 / 14.3 neutral garrisons and 3 ownership', () => {
  it('set-up: every city inside the boundary and every garrison-symbol area by the boundary; optional cities only when on', () => {
    const m = gridMap({
      rows: 2,
      cols: 3,
      cities: { r0c0: { tax: 3 }, r0c1: { tax: 1, optional: true }, r1c2: { tax: 2, inside: false } },
      garrisonSymbols: ['r1c1'],
    });
    const off = scenario({ map: m, players: [] });
    expect(initialNeutrals(off.ctx)).toEqual({ r0c0: { strength: 3 }, r1c1: { strength: 2 } });
    const on = scenario({ map: m, players: [], options: { opt: { optionalCities: true } } });
    expect(Object.keys(initialNeutrals(on.ctx)).sort()).toEqual(['r0c0', 'r0c1', 'r1c1']);
  });

  it('administration: a city-less garrison with no garrisoned city next to it is removed', () => {
    const m = gridMap({ rows: 1, cols: 4, cities: { r0c0: { tax: 2 } }, garrisonSymbols: ['r0c1', 'r0c3'] });
    const s = scenario({
      map: m,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'tribe', 'r0c2']],
      neutrals: { r0c0: 2, r0c1: 2, r0c3: 2 },
      step: { kind: 'economic', pending: [], pillage: {} },
    });
    const t = settleGame(s.ctx, s.state);
    expect(Object.keys(t.state.neutrals).sort()).toEqual(['r0c0', 'r0c1']);
    expect(t.events).toContainEqual({ type: 'neutralRemoved', area: 'r0c3', reason: 'noCityNeighbour' });
  });

  it('ownership is fixed at the start of the economic phase by the non-leader unit present; tax pays VP', () => {
    const s = scenario({
      map: sq,
      turn: 3,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'barbarianInfantry', 'r0c3']],
      neutrals: {},
      step: phase('a', 'combat'),
    });
    const done = s.engine.applyOrder(s.state, P('a'), { type: 'combatDone' });
    if (!done.ok) throw new Error(done.error.code);
    const t = done.value;
    expect(t.state.cities.r0c3).toEqual({ owner: 'a', everOwned: true });
    // The barbarian may pillage its occupied city, so it is asked (4.5, acting at once).
    expect(s.engine.waitingFor(t.state)).toEqual(['a']);
    const r = s.engine.applyOrder(t.state, P('a'), { type: 'endPhase' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.state.players[0]?.cycle?.vp).toBe(2);
    expect(r.value.events).toContainEqual({ type: 'taxCollected', player: 'a', tax: 2, cities: ['r0c3'] });
  });

  it('AMBIG-29: a never-owned city left empty gets its neutral garrison back at once', () => {
    const s = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'barbarianInfantry', 'r0c3']],
      neutrals: {},
      step: phase('a', 'movement'),
    });
    const r = s.engine.applyOrder(s.state, P('a'), { type: 'move', unit: 'u1', path: ['r0c2'] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.state.neutrals.r0c3).toEqual({ strength: 2 });
    const owned = { ...s.state, cities: { ...s.state.cities, r0c3: { owner: P('a'), everOwned: true } } };
    const r2 = s.engine.applyOrder(owned, P('a'), { type: 'move', unit: 'u1', path: ['r0c2'] });
    expect(r2.ok && r2.value.state.neutrals.r0c3).toBeFalsy();
  });

  it('14.3 abandoning: declared in the turn, carried out in the administration phase; cities get garrisons', () => {
    const s = scenario({
      map: sq,
      players: [{ id: 'a', position: 'GERMAN 1', money: 5 }],
      units: [['a', 'barbarianInfantry', 'r0c3']],
      neutrals: {},
      step: phase('a', 'movement'),
    });
    const owned = { ...s.state, cities: { ...s.state.cities, r0c3: { owner: P('a'), everOwned: true } } };
    const d = s.engine.applyOrder(owned, P('a'), { type: 'declareAbandon', abandon: true });
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    let g = d.value.state;
    for (let i = 0; i < 10 && g.players[0]?.cycle; i++) {
      const r = s.engine.applyOrder(g, P('a'), s.engine.timeoutOrders(g, P('a'))[0]!);
      if (!r.ok) throw new Error(r.error.code);
      g = r.value.state;
    }
    const a = g.players[0]!;
    expect(a.finished.count).toBe(1);
    expect(a.money).toBe(0);
    expect(g.neutrals.r0c3).toEqual({ strength: 2 });
  });
});
