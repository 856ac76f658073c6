import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders, combatWaitingFor } from '../../src/combat-phase/phase.ts';
import { combatStateOf } from '../../src/model/combat.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import { isLegalStack } from '../../src/model/stacking.ts';
import type { GameStateCore } from '../../src/model/state.ts';
import { A, BLUE, deepFreeze, diceFor, fixture, RED } from './fixture.ts';

const U = asUnitId;
const run = (
  ctx: Parameters<typeof applyCombatOrder>[0],
  state: GameStateCore,
  player: typeof RED,
  order: CombatOrder,
) => {
  const r = applyCombatOrder(ctx, deepFreeze(state), player, order);
  if (!r.ok) throw new Error(`${order.type}: ${r.error.code}`);
  return r.value;
};

describe('combats between stacks (7.2, 7.3)', () => {
  it('EX: the defender, not the phasing player, chooses its losses, then may advance', () => {
    const { ctx, state } = fixture({
      units: [
        ['bow', RED, 'bow', 'b2'],
        ['finf', BLUE, 'barbarianInfantry', 'b3'],
        ['fbow', BLUE, 'bow', 'b3'],
      ],
      dice: diceFor('1-3', 'EX'),
    });
    const first = run(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('bow')],
    });
    expect(first.events[0]).toMatchObject({ odds: '1-3', result: 'EX' });
    expect(first.state.units.bow).toBeUndefined();
    expect(combatWaitingFor(first.state)).toEqual([BLUE]);
    expect(combatLegalOrders(ctx, first.state, RED)).toEqual([]);
    expect(combatLegalOrders(ctx, first.state, BLUE)).toEqual([
      { type: 'combatExchangeLoss', owed: 2, sets: [['fbow'], ['finf']] },
    ]);
    const bad = applyCombatOrder(ctx, first.state, BLUE, {
      type: 'combatExchangeLoss',
      units: [U('fbow'), U('finf')],
    });
    expect(bad.ok === false && bad.error.code).toBe('combat/illegal_losses');
    const second = run(ctx, first.state, BLUE, { type: 'combatExchangeLoss', units: [U('fbow')] });
    expect(second.state.units.fbow).toBeUndefined();
    expect(combatLegalOrders(ctx, second.state, BLUE)).toEqual([
      { type: 'combatAdvance', unit: 'finf', from: 'b3', to: ['b2'], pursuit: false },
      { type: 'combatStop' },
    ]);
  });

  it('DR: each unit of a stack retreats on its own path, stacking checked as they go', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
        ['bow', RED, 'bow', 'c3'],
        ['finf', BLUE, 'barbarianInfantry', 'b3'],
        ['fbow', BLUE, 'bow', 'b3'],
      ],
      dice: diceFor('3-2', 'DR1'),
    });
    const first = run(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('inf'), U('horse'), U('bow')],
    });
    expect(first.events[0]).toMatchObject({ odds: '3-2', result: 'DR1' });
    // b4 is the only neighbour of b3 not held by an attacker; each unit has that one path, so both
    // retreats are applied without asking, one after the other, into a legal 3-3 + 2-3 stack.
    expect(first.events.filter((e) => e.type === 'combatRetreated')).toEqual([
      expect.objectContaining({ unit: 'finf', path: ['b4'], eliminated: false }),
      expect.objectContaining({ unit: 'fbow', path: ['b4'], eliminated: false }),
    ]);
    expect(first.state.units.fbow?.area).toBe('b4');
  });

  it('a second big unit cannot follow the first into the same area: it is eliminated (6, 7.2)', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
        ['bow', RED, 'bow', 'c3'],
        ['finf', BLUE, 'barbarianInfantry', 'b3'],
        ['fcav', BLUE, 'barbarianHorse', 'b3'],
      ],
      dice: diceFor('3-2', 'DR1'),
    });
    // Two big units cannot share b3 either, but the test only needs the retreat: put them there by hand.
    const first = run(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('inf'), U('horse'), U('bow')],
    });
    const after = first.state;
    expect(combatStateOf(after).pending?.steps[0]?.kind).toBe('advance');
    const retreated = first.events.filter((e) => e.type === 'combatRetreated');
    expect(retreated).toEqual([
      expect.objectContaining({ unit: 'finf', path: ['b4'], eliminated: false }),
      expect.objectContaining({ unit: 'fcav', eliminated: true }),
    ]);
    expect(after.units.fcav).toBeUndefined();
    expect(isLegalStack(Object.values(after.units).filter((u) => u.area === 'b4'))).toBe(true);
  });

  it('a unit retreating next to the attackers because nothing else is legal still retreats (criterion 2 "if possible")', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
        ['x1', RED, 'bow', 'a3'],
        ['x2', RED, 'bow', 'b4'],
      ],
      dice: diceFor('2-1', 'DR1'),
    });
    const first = run(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('inf')],
    });
    expect(first.events[0]).toMatchObject({ result: 'DR1' });
    // c3 is the only free neighbour of b3, and it touches b2 where the 4-2 stands: the only path.
    expect(first.events).toContainEqual(
      expect.objectContaining({ type: 'combatRetreated', unit: 'foe', path: ['c3'], eliminated: false }),
    );
    expect(first.state.units.foe?.area).toBe(A('c3'));
  });
});

describe('a pending choice whose units are gone', () => {
  it('offers only closing the step, so the game never dead-ends (e.g. the owner left)', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
      dice: diceFor('2-1', 'DR1'),
    });
    const first = run(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('inf')],
    });
    expect(combatWaitingFor(first.state)).toEqual([BLUE]);
    const { foe: _gone, ...rest } = first.state.units;
    const left = { ...first.state, units: rest };
    expect(combatLegalOrders(ctx, left, BLUE)).toEqual([{ type: 'combatStop' }]);
    const closed = run(ctx, left, BLUE, { type: 'combatStop' });
    // Nothing is left to pursue: the combat ends and the phasing player goes on.
    expect(combatWaitingFor(closed.state)).toEqual([RED]);
    expect(combatStateOf(closed.state).pending).toBeNull();
  });
});
