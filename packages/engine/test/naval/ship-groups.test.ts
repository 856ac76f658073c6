/**
 * 8.1 grouping: ships moving together (`shipMove` with `with`) are intercepted as one unit; each
 * rolls for sinking on its own (5.3); an EX between the groups follows 7.2 and a surviving mover sails
 * on (AMBIG-62); interceptors stacked in one coastal area fight together.
 */
import { describe, expect, it } from 'vitest';
import type { GameState, Order } from '../../src/index.ts';
import { parseOrder } from '../../src/model/orders.ts';
import { landingsOf } from '../../src/naval/landing.ts';
import { diceFor } from '../combat-phase/fixture.ts';
import { A, P, phase, type scenario, U } from '../helpers/scenario.ts';
import { navalKingdoms } from './fixture.ts';

type Units = NonNullable<Parameters<typeof scenario>[0]['units']>;

/** a's two ships (u1, u2) and a leader (u3) in west; b's ships as given (from u4 on). */
function fleet(bShips: Units, dice: number[], extra: Units = []) {
  return navalKingdoms({
    units: [['a', 'ship', 'west'], ['a', 'ship', 'west'], ['a', 'leader', 'west'], ...bShips, ...extra],
    step: phase('a', 'movement'),
    dice,
    neutrals: {},
  });
}

/** u1 (with the leader when asked) leads, u2 sails with it, Nord → bay. */
const together = (leader = false, path = ['nord', 'bay']) => ({
  type: 'shipMove' as const,
  ship: U('u1'),
  path: path.map(A),
  cargo: leader ? [U('u3')] : [],
  with: [{ ship: U('u2'), cargo: [] }],
});

function apply(s: ReturnType<typeof fleet>, order: unknown) {
  const r = s.engine.applyOrder(s.state, P('a'), order as Order);
  if (!r.ok) throw new Error(`${r.error.code} ${JSON.stringify(r.error.params)}`);
  return r.value as { state: GameState; events: { type: string; [k: string]: unknown }[] };
}
const intercepted = (events: { type: string }[]) => events.filter((e) => e.type === 'shipIntercepted');

describe('8.1 grouping: two ships moving together are intercepted as one unit', () => {
  it('one battle for the pair (2-1, one column up for the leader aboard), each ship rolling its own sinking die (5.3)', () => {
    const s = fleet([['b', 'ship', 'east']], [3, 4, ...diceFor('5-2', 'DR1')]);
    const r = apply(s, together(true));
    const rolls = r.events.filter((e) => e.type === 'shipSinkingRolled');
    expect(rolls.map((e) => [e.ship, e.die])).toEqual([
      ['u1', 3],
      ['u2', 4],
    ]);
    const battles = intercepted(r.events);
    expect(battles).toHaveLength(1);
    expect(battles[0]).toMatchObject({
      odds: '5-2',
      group: ['u1', 'u2'],
      interceptors: ['u4'],
      result: 'DR1',
    });
    expect([r.state.units.u1?.area, r.state.units.u2?.area, r.state.units.u3?.area]).toEqual([
      'bay',
      'bay',
      'bay',
    ]);
    expect(r.state.units.u4?.area).toBe('east'); // DR: the interceptor stays put
    expect(r.state.step.kind === 'playerTurn' && [...r.state.step.moved].sort()).toEqual(['u1', 'u2', 'u3']);
  });

  it('AMBIG-62: an EX (two ships against one) sinks the interceptor and the last ship listed; the lead sails on', () => {
    const s = fleet([['b', 'ship', 'east']], [3, 4, ...diceFor('5-2', 'EX')]);
    const r = apply(s, together(true));
    expect(r.state.units.u4).toBeUndefined();
    expect(r.state.units.u2).toBeUndefined();
    expect([r.state.units.u1?.area, r.state.units.u3?.area]).toEqual(['bay', 'bay']);
  });

  it('a ship that sinks on its own roll leaves the other to be intercepted alone (1-1)', () => {
    const s = fleet([['b', 'ship', 'east']], [1, 4, ...diceFor('1-1', 'DR1')]);
    const r = apply(s, together());
    expect(r.state.units.u1).toBeUndefined();
    const battles = intercepted(r.events);
    expect(battles).toHaveLength(1);
    expect(battles[0]).toMatchObject({ ship: 'u2', odds: '1-1' });
    expect(battles[0]).not.toHaveProperty('group');
    expect(r.state.units.u2?.area).toBe('bay');
  });

  it('ARn sends the whole group back; each ship rolls above n for itself (D-8)', () => {
    const ar = diceFor('5-2', 'AR1');
    const s = fleet([['b', 'ship', 'east']], [3, 4, ...ar, 1, 2]);
    const r = apply(s, together(true));
    expect(intercepted(r.events)[0]).toMatchObject({ result: 'AR1' });
    // u1 (with the leader) rolls 1: sunk with its cargo; u2 rolls 2: back in west, moved.
    expect(r.state.units.u1).toBeUndefined();
    expect(r.state.units.u3).toBeUndefined();
    expect(r.state.units.u2?.area).toBe('west');
    expect(r.state.step.kind === 'playerTurn' && r.state.step.moved).toContain('u2');
  });

  it('AE takes the whole group with its cargo', () => {
    const s = fleet(
      [
        ['b', 'ship', 'east'],
        ['b', 'ship', 'east'],
      ],
      [3, 4, ...diceFor('3-2', 'AE')],
    );
    const r = apply(s, together(true));
    expect(intercepted(r.events)[0]).toMatchObject({ odds: '3-2', interceptors: ['u4', 'u5'] });
    expect(['u1', 'u2', 'u3'].map((id) => r.state.units[id as 'u1'])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('interceptors stacked in one coastal area fight together: one battle at 1-2 against a lone ship', () => {
    const s = fleet(
      [
        ['b', 'ship', 'east'],
        ['b', 'ship', 'east'],
      ],
      [3, ...diceFor('1-2', 'DR1')],
    );
    const r = apply(s, { type: 'shipMove', ship: 'u1', path: ['nord', 'bay'], cargo: [] });
    const battles = intercepted(r.events);
    expect(battles).toHaveLength(1);
    expect(battles[0]).toMatchObject({ odds: '1-2', interceptors: ['u4', 'u5'] });
  });

  it('two ships moving together land together: a landing force of two ships (8.2)', () => {
    const s = fleet([], [3, 4], [['b', 'bow', 'east']]);
    const r = apply(s, together(false, ['nord', 'east']));
    expect(landingsOf(r.state).map((l) => l.ship)).toEqual(['u1', 'u2']);
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['nord', 'nord']);
  });
});

describe('8.1 grouping: a ship joining along the coast (approach)', () => {
  /** a's ship u1 in west, a's ship u2 in east (it sails to west first), b's ship u3 in bay on Nord. */
  function meeting(dice: number[]) {
    return navalKingdoms({
      units: [
        ['a', 'ship', 'west'],
        ['a', 'ship', 'east'],
        ['b', 'ship', 'bay'],
      ],
      step: phase('a', 'movement'),
      dice,
      neutrals: {},
    });
  }
  const joined = (approach: string[]) => ({
    type: 'shipMove' as const,
    ship: U('u1'),
    path: ['nord', 'far', 'isle'].map(A),
    cargo: [],
    with: [{ ship: U('u2'), cargo: [], approach: approach.map(A) }],
  });

  it('two ships from two areas that put to sea from the same area together are intercepted as one', () => {
    const s = meeting([3, 4, ...diceFor('2-1', 'DR1')]);
    const r = apply(s, joined(['west']));
    expect(intercepted(r.events)).toMatchObject([{ odds: '2-1', group: ['u1', 'u2'], interceptors: ['u3'] }]);
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['isle', 'isle']);
    expect(r.events.find((e) => e.type === 'unitMoved' && e.unit === 'u2')).toMatchObject({
      path: ['west', 'nord', 'far', 'isle'],
    });
  });

  it('sent back by ARn, each goes back to the area it started from (D-8)', () => {
    const s = meeting([3, 4, ...diceFor('2-1', 'AR1'), 2, 2]);
    const r = apply(s, joined(['west']));
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['west', 'east']);
  });

  it('refused: an approach across a sea, or one that does not end in the lead ship’s area', () => {
    const s = meeting([]);
    const ok = (o: unknown) => s.engine.applyOrder(s.state, P('a'), o as Order).ok;
    expect(ok(joined(['nord', 'west']))).toBe(false);
    expect(ok({ ...joined([]), with: [{ ship: 'u2', cargo: [] }] })).toBe(false); // u2 is not in west
    expect(ok({ ...joined(['east']) })).toBe(false); // ends where u2 already is, not in west
    expect(ok(joined(['west']))).toBe(true);
  });
});

describe('8.1 grouping: what a group order may be', () => {
  it('the legal list names the ships that may sail along; the old shape stays valid', () => {
    const s = fleet([], []);
    const legal = s.engine.legalOrders(s.state, P('a')).filter((o) => o.type === 'shipMove');
    expect(legal.length).toBeGreaterThan(0);
    expect(legal.every((o) => 'companions' in o && (o.companions as string[]).length === 1)).toBe(true);
    expect(parseOrder({ type: 'shipMove', ship: 'u1', path: ['nord', 'bay'], cargo: [] }).ok).toBe(true);
    expect(parseOrder(together()).ok).toBe(true);
  });

  it('refuses a ship listed twice, a shared cargo, another start area, stops, and a third unit at the end', () => {
    const s = fleet([['b', 'ship', 'bay']], [], [['a', 'ship', 'east']]);
    const refuse = (o: unknown) => s.engine.applyOrder(s.state, P('a'), o as Order).ok;
    const base = together();
    expect(refuse({ ...base, with: [{ ship: 'u1', cargo: [] }] })).toBe(false);
    expect(refuse({ ...base, cargo: ['u3'], with: [{ ship: 'u2', cargo: ['u3'] }] })).toBe(false);
    expect(refuse({ ...base, with: [{ ship: 'u5', cargo: [] }] })).toBe(false); // u5 starts in east
    expect(
      refuse({
        ...base,
        stops: [{ at: 'east', load: [], unload: [] }],
        path: ['east', 'nord', 'far', 'isle'],
      }),
    ).toBe(false);
    // east already holds a's ship u5: two more ships would make three units there (6).
    expect(refuse({ ...base, path: ['nord', 'east'] })).toBe(false);
    expect(refuse({ ...base, path: ['nord', 'far', 'isle'] })).toBe(true);
  });
});
