/** Part D golden cases of the barbarian stage, as data (test/golden/*.json), run through the engine. */
import { describe, expect, it } from 'vitest';
import { countdownEnds, kingdomTurn } from '../../src/barbarian/countdown.ts';
import { unrestRollsDue } from '../../src/barbarian/unrest.ts';
import type { GameState, StartPosition } from '../../src/index.ts';
import { peopleOf } from '../../src/index.ts';
import { pillageDigit } from '../../src/turn/economic.ts';
import { cell, gridMap } from '../helpers/fixture-map.ts';
import { deepFreeze } from '../helpers/play.ts';
import { A, adminStep, P, phase, scenario, settleGame } from '../helpers/scenario.ts';
import countdown from './countdown.json';
import pillage from './pillage.json';
import sea from './sea-crossing.json';
import unrest from './unrest.json';

const grid = gridMap({
  rows: 4,
  cols: 6,
  outside: Array.from({ length: 24 }, (_, i) => cell(Math.floor(i / 6), i % 6)),
});
const tribesIn = (n: number): [string, 'tribe', string][] =>
  Array.from({ length: n }, (_, i) => ['a', 'tribe', cell(Math.floor(i / 6), i % 6)]);

describe(`D-4 kingdom countdown (${countdown.source})`, () => {
  for (const row of countdown.conversions) {
    it(`${row.case}: starts turn ${row.start}, kingdom in the administration phase of turn ${row.kingdom}`, () => {
      const position = row.position as StartPosition;
      expect(kingdomTurn(peopleOf(position), row.start)).toBe(row.kingdom);
      const { state, ctx } = scenario({
        map: grid,
        turn: row.start,
        players: [{ id: 'a', position }],
        units: tribesIn(row.units),
        step: adminStep(['a']),
      });
      const started = settleGame(ctx, deepFreeze(state));
      expect(started.state.players[0]?.cycle?.countdownStartTurn).toBe(row.start);
      expect(started.events).toContainEqual(
        expect.objectContaining({ type: 'countdownStarted', turn: row.start, kingdomTurn: row.kingdom }),
      );
      // One turn early: still a barbarian; on the turn itself: a kingdom (tribes removed, 10.1).
      for (const [turn, stage] of [
        [row.kingdom - 1, 'barbarian'],
        [row.kingdom, 'kingdom'],
      ] as const) {
        const s = scenario({
          map: grid,
          turn,
          players: [{ id: 'a', position, countdown: row.start }],
          units: [...tribesIn(3), ['a', 'barbarianInfantry', cell(3, 5)]],
          step: adminStep(['a']),
        });
        const after = settleGame(s.ctx, s.state).state;
        expect(after.players[0]?.cycle?.stage).toBe(stage);
        if (stage === 'kingdom') {
          const kinds = Object.values(after.units).map((u) => u.kind);
          expect(kinds).not.toContain('tribe');
          expect(kinds).toContain('infantry');
          expect(kinds).toContain('leader');
        }
      }
    });
  }

  it(countdown.negative.case, () => {
    const { state, ctx } = scenario({
      map: grid,
      turn: 4,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: tribesIn(countdown.negative.units),
      step: adminStep(['a']),
    });
    const after = settleGame(ctx, state);
    expect(after.state.players[0]?.cycle?.countdownStartTurn).toBeNull();
    expect(countdownEnds('GERMAN', null, 99)).toBe(false);
  });

  it('cannot be undone: a started countdown survives dropping below ten units', () => {
    const { state, ctx } = scenario({
      map: grid,
      turn: 6,
      players: [{ id: 'a', position: 'GERMAN 1', countdown: 4 }],
      units: tribesIn(2),
      step: adminStep(['a']),
    });
    const after = settleGame(ctx, state).state;
    expect(after.players[0]?.cycle?.countdownStartTurn).toBe(4);
  });
});

describe(`D-6 pillage markers (${pillage.source})`, () => {
  const city = gridMap({ rows: 2, cols: 3, cities: { r0c1: { tax: pillage.loot.cityValue } } });
  for (const m of pillage.markers) {
    it(`pillaged on turn ${m.turn}: marker ${m.digit}, removed in admin ${m.removedInAdminOf}, tax again from ${m.taxAgainFrom}`, () => {
      expect(pillageDigit(m.turn)).toBe(m.digit);
      const marker = { area: A('r0c1'), digit: m.digit, pillager: P('a'), turn: m.turn };
      const cities = { r0c1: { owner: P('a'), everOwned: true } };
      // From the economic phase of each turn: no tax while the marker lies; gone in the admin phase.
      for (const turn of [m.removedInAdminOf - 1, m.removedInAdminOf, m.taxAgainFrom]) {
        const s = scenario({
          map: city,
          turn,
          players: [{ id: 'a', position: 'GERMAN 1' }],
          units: [['a', 'tribe', 'r0c1']],
          neutrals: {},
          step: { kind: 'economic', pending: [], pillage: {} },
        });
        const markers = turn === m.taxAgainFrom ? [] : [marker];
        const t = settleGame(s.ctx, { ...s.state, cities, markers });
        const tax = t.events.find((e) => e.type === 'taxCollected');
        expect(tax).toMatchObject({ tax: turn === m.taxAgainFrom ? pillage.loot.cityValue : 0 });
        expect(t.state.markers.length).toBe(turn === m.removedInAdminOf - 1 ? 1 : 0);
      }
    });
  }

  it('loot: a value-2 city gives 6 money and 6 VP and no tax that turn; a kingdom may not pillage', () => {
    const s = scenario({
      map: city,
      turn: 7,
      players: [
        { id: 'a', position: 'GERMAN 1' },
        { id: 'k', position: 'HUN', stage: 'kingdom' },
      ],
      units: [
        ['a', 'tribe', 'r0c1'],
        ['k', 'infantry', 'r1c2'],
      ],
      neutrals: {},
      step: { kind: 'economic', pending: [P('a'), P('k')], pillage: {} },
    });
    const state: GameState = { ...s.state, cities: { r0c1: { owner: P('a'), everOwned: true } } };
    expect(s.engine.legalOrders(state, P('k')).some((o) => o.type === 'pillage')).toBe(false);
    const refused = s.engine.applyOrder(state, P('k'), { type: 'pillage', area: 'r0c1' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('order/not_a_barbarian');
    let g = state;
    for (const [actor, order] of [
      ['a', { type: 'pillage', area: 'r0c1' }],
      ['a', { type: 'endPhase' }],
      ['k', { type: 'endPhase' }],
    ] as const) {
      const r = s.engine.applyOrder(g, P(actor), order);
      expect(r.ok).toBe(true);
      if (r.ok) g = r.value.state;
    }
    const a = g.players.find((p) => p.id === 'a')!;
    expect(a.money).toBe(pillage.loot.money);
    expect(a.cycle?.vp).toBe(pillage.loot.vp);
    expect(g.markers).toEqual([{ area: 'r0c1', digit: 2, pillager: 'a', turn: 7 }]);
  });

  it('the marker acts as a neutral garrison once the pillager has left, and flips to a permanent one on removal', () => {
    const s = scenario({
      map: city,
      turn: 12,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units: [['a', 'tribe', 'r1c0']],
      neutrals: {},
      step: { kind: 'economic', pending: [], pillage: {} },
    });
    const marker = { area: A('r0c1'), digit: 2, pillager: P('a'), turn: 7 };
    const after = settleGame(s.ctx, { ...s.state, markers: [marker] }).state;
    expect(after.markers).toEqual([]);
    expect(after.neutrals.r0c1?.strength).toBe(2);
  });
});

describe(`D-20 tribal unrest triggers (${unrest.source})`, () => {
  for (const c of unrest.cases) {
    it(`${c.units} units, ${c.combatUnits} combat units, attacked ${c.attacked} → rolls [${c.rolls.join(', ')}]`, () => {
      expect(unrestRollsDue(c.units, c.combatUnits, c.attacked)).toEqual(c.rolls);
    });
  }

  it('a roll of 1–3 costs 2 × another die units, chosen by the owner; 4–6 costs nothing', () => {
    const big = gridMap({ rows: 5, cols: 6 });
    const units: [string, 'tribe' | 'barbarianInfantry', string][] = Array.from({ length: 25 }, (_, i) => [
      'a',
      i === 0 ? 'barbarianInfantry' : 'tribe',
      cell(Math.floor(i / 6), i % 6),
    ]);
    // A: die 2 (unrest), loss die 3 → 6 units; B: die 5 (no unrest).
    const s = scenario({
      map: big,
      turn: 3,
      players: [{ id: 'a', position: 'GERMAN 1' }],
      units,
      dice: [2, 3, 5],
      neutrals: {},
      step: adminStep(['a']),
    });
    const t = settleGame(s.ctx, s.state);
    expect(t.events.filter((e) => e.type === 'unrestRolled')).toEqual([
      { type: 'unrestRolled', player: 'a', kind: 'A', die: 2, unrest: true, lossDie: 3, loss: 6 },
      { type: 'unrestRolled', player: 'a', kind: 'B', die: 5, unrest: false },
    ]);
    expect(t.state.step).toMatchObject({ kind: 'administration', choice: { type: 'unrestLoss', count: 6 } });
    const legal = s.engine.legalOrders(t.state, P('a'));
    expect(legal).toContainEqual(expect.objectContaining({ type: 'removeUnits', count: 6 }));
    const wrong = s.engine.applyOrder(t.state, P('a'), { type: 'removeUnits', units: ['u1'] });
    expect(wrong.ok).toBe(false);
    const r = s.engine.applyOrder(t.state, P('a'), {
      type: 'removeUnits',
      units: ['u2', 'u3', 'u4', 'u5', 'u6', 'u7'],
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.value.state.units).filter((id) => ['u2', 'u7'].includes(id))).toEqual([]);
  });
});

describe(`D-31 tribal sea crossing (${sea.source})`, () => {
  const coast = gridMap({
    rows: 3,
    cols: 3,
    seas: { strait: { shores: ['r0c0', 'r2c2'], marks: ['VIKING'] } },
  });
  for (const c of sea.cases) {
    it(`${c.position}, option ${c.option ? 'on' : 'off'}, die ${c.die} → ${c.outcome}`, () => {
      const s = scenario({
        map: coast,
        players: [{ id: 'a', position: c.position as StartPosition }],
        units: [['a', 'tribe', 'r0c0']],
        options: { opt: { tribalSeaCrossings: c.option } },
        dice: [c.die],
        neutrals: {},
        step: phase('a', 'movement'),
      });
      const listed = s.engine.legalOrders(s.state, P('a')).some((o) => o.type === 'seaCrossing');
      const r = s.engine.applyOrder(s.state, P('a'), {
        type: 'seaCrossing',
        tribe: 'u1',
        sea: 'strait',
        to: 'r2c2',
      });
      if (c.outcome === 'notAllowed') {
        expect(listed).toBe(false);
        expect(r.ok).toBe(false);
        return;
      }
      expect(listed).toBe(true);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const tribe = r.value.state.units.u1;
      if (c.outcome === 'landed') expect(tribe?.area).toBe('r2c2');
      else expect(tribe).toBeUndefined();
    });
  }
});
