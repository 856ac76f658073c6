/**
 * 11.5 imperial support: a unit that starts movement unsupported must try to regain support (the
 * phase may not end while it can and has not moved; the deadline default moves it), and units may
 * not be disbanded if that leaves other units unsupported (upkeep picks a disbanding sparing them).
 */
import { describe, expect, it } from 'vitest';
import { defaultPlan, economyPreview, leavesUnsupported, planProblem } from '../../src/realm/economy.ts';
import { supportMovesOwed } from '../../src/turn/movement-phase.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { P, scenario, U } from '../helpers/scenario.ts';

// Row 0 and r1c0 lie outside the boundary; r0c0 touches only r0c1 and r1c0.
const MAP = gridMap({
  rows: 3,
  cols: 3,
  outside: ['r0c0', 'r0c1', 'r0c2', 'r1c0'],
  cities: { r2c2: { tax: 2 } },
});

const movement = (units: [string, 'elite' | 'infantry' | 'tribe', string][]) =>
  scenario({
    map: MAP,
    turn: 5,
    players: [
      { id: 'e', position: 'GERMAN 1', stage: 'empire' },
      { id: 'b', position: 'SLAV 1' },
    ],
    units,
    neutrals: {},
    step: { kind: 'playerTurn', player: P('e'), phase: 'movement', moved: [], split: [] },
  });

describe('11.5 a unit starting movement unsupported must try to move to support', () => {
  it('endPhase is not offered and is refused with order/support_move_owed until it has moved', () => {
    // The elite in r0c0 has only outside neighbours, one held by a barbarian: unsupported.
    const { engine, state, ctx } = movement([
      ['e', 'elite', 'r0c0'],
      ['b', 'tribe', 'r1c0'],
    ]);
    expect(supportMovesOwed(ctx, state, P('e'))).toEqual([U('u1')]);
    expect(engine.legalOrders(state, P('e')).some((o) => o.type === 'endPhase')).toBe(false);
    const refused = engine.applyOrder(state, P('e'), { type: 'endPhase' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: 'order/support_move_owed', units: ['u1'] });
    // The deadline default moves it first (to r0c1, next to the free inside area r1c1), then ends.
    const defaults = engine.timeoutOrders(state, P('e'));
    expect(defaults[0]).toMatchObject({ type: 'move', unit: 'u1', path: ['r0c1'] });
    const moved = engine.applyOrder(state, P('e'), defaults[0]!);
    expect(moved.ok).toBe(true);
    if (!moved.ok) return;
    expect(supportMovesOwed(ctx, moved.value.state, P('e'))).toEqual([]);
    expect(engine.legalOrders(moved.value.state, P('e')).some((o) => o.type === 'endPhase')).toBe(true);
  });

  it('a supported unit, or one that cannot reach support, owes nothing', () => {
    const inside = movement([['e', 'elite', 'r1c1']]);
    expect(supportMovesOwed(inside.ctx, inside.state, P('e'))).toEqual([]);
    // Boxed in: both neighbours of r0c0 hold barbarian units, so no move exists at all.
    const boxed = movement([
      ['e', 'elite', 'r0c0'],
      ['b', 'tribe', 'r1c0'],
      ['b', 'tribe', 'r0c1'],
    ]);
    expect(supportMovesOwed(boxed.ctx, boxed.state, P('e'))).toEqual([]);
    expect(boxed.engine.applyOrder(boxed.state, P('e'), { type: 'endPhase' }).ok).toBe(true);
  });
});

describe('11.5 disbanding may not leave other units unsupported', () => {
  it('the unit carrying the chain to the boundary may not go; another one may', () => {
    // u1 elite in r0c0 is supported only through u2 (r1c0, next to the free inside r1c1).
    const { state, ctx } = movement([
      ['e', 'elite', 'r0c0'],
      ['e', 'infantry', 'r1c0'],
      ['e', 'infantry', 'r2c2'],
    ]);
    const pv = economyPreview(ctx, state, P('e'))!;
    expect(pv.unsupported).toEqual([]);
    expect(leavesUnsupported(ctx, state, pv, [U('u2')])).toBe(true);
    expect(leavesUnsupported(ctx, state, pv, [U('u3')])).toBe(false);
  });
});

describe("11.5 upkeep disbanding spares the units others' support hangs on", () => {
  it('of three minimal disbandings (10.4, AMBIG-32), the one breaking the chain is refused', () => {
    // Treasury 6 + tax 2 + 2 for the capital (10.3 / AMBIG-19: the marker held off the board goes on
    // r2c2 before taxes and pays at once) = 10 for upkeep 5 + 3 + 3: one unit must go. u2 carries
    // u1's support.
    const s = scenario({
      map: MAP,
      turn: 5,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 6 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['e', 'elite', 'r0c0'],
        ['e', 'infantry', 'r1c0'],
        ['e', 'infantry', 'r2c2'],
      ],
      neutrals: {},
      step: { kind: 'economic', pending: [P('e')], pillage: {} },
    });
    const g = { ...s.state, cities: { ...s.state.cities, r2c2: { owner: P('e'), everOwned: true } } };
    const pv = economyPreview(s.ctx, g, P('e'))!;
    expect(pv.available).toBe(10);
    expect(pv.safeDisband).toEqual([U('u1')]);
    const plan = (disband: string[]) => ({
      disband: disband.map(U),
      garrisonDisband: [],
      purchases: [],
      adminPercent: 0,
    });
    expect(planProblem(s.ctx, g, pv, plan(['u2']))).toBe('disbandLeavesUnsupported');
    expect(planProblem(s.ctx, g, pv, plan(['u3']))).toBeNull();
    expect(planProblem(s.ctx, g, pv, plan(['u1']))).toBeNull();
    expect(defaultPlan(pv).disband).toEqual([U('u1')]);
  });
});
