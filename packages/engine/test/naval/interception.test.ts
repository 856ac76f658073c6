/**
 * Naval interception in less common cases: a ship retreating
 * across a sea may be intercepted (8.3), and one interceptor fights every passing ship of a turn,
 * each in its own battle (8.1).
 */
import { describe, expect, it } from 'vitest';
import { applyCombatOrder } from '../../src/combat-phase/phase.ts';
import type { GameState, Order } from '../../src/index.ts';
import { asUnitId } from '../../src/model/ids.ts';
import { BLUE, diceFor, A as FA, fixture, RED } from '../combat-phase/fixture.ts';
import { A, P, phase, U } from '../helpers/scenario.ts';
import { navalKingdoms } from './fixture.ts';

describe('8.3 a ship retreating across a sea may be intercepted (8.1)', () => {
  // Blue's ship in a4 is beaten back (DR1): its only way out is across the North Sea to a2. Red's
  // ship in a3, on that sea, intercepts it there.
  const setup = (intercept: [number, number]) =>
    fixture({
      units: [
        ['inf', RED, 'infantry', 'a3'],
        ['red-ship', RED, 'ship', 'a3'],
        ['foe', BLUE, 'ship', 'a4'],
      ],
      dice: [...diceFor('4-1', 'DR1'), 2, ...intercept],
    });
  const attack = { type: 'combatAttack', target: FA('a4'), attackers: [asUnitId('inf')] } as const;

  it('AE in the interception sinks the retreating ship after it survived its sinking die', () => {
    const { ctx, state } = setup(diceFor('1-1', 'AE'));
    const r = applyCombatOrder(ctx, state, RED, { ...attack, attackers: [...attack.attackers] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const types = r.value.events.map((e) => e.type);
    expect(types).toContain('combatShipSinkingRolled');
    expect(r.value.events.find((e) => e.type === 'shipIntercepted')).toMatchObject({
      player: BLUE,
      ship: 'foe',
      sea: 'north-sea',
      interceptors: ['red-ship'],
      result: 'AE',
    });
    expect(r.value.state.units.foe).toBeUndefined();
    expect(r.value.state.units['red-ship' as 'foe']?.area).toBe('a3');
  });

  it('DR in the interception lets it finish its retreat', () => {
    const { ctx, state } = setup(diceFor('1-1', 'DR1'));
    const r = applyCombatOrder(ctx, state, RED, { ...attack, attackers: [...attack.attackers] });
    expect(r.ok && r.value.state.units.foe?.area).toBe('a2');
  });
});

describe('8.1 one interceptor, several moving ships', () => {
  it('intercepts each passing ship of the turn in a battle of its own', () => {
    const dr = diceFor('1-1', 'DR1');
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'ship', 'west'], // u1
        ['a', 'ship', 'west'], // u2
        ['b', 'ship', 'east'], // u3 touches Nord
      ],
      step: phase('a', 'movement'),
      dice: [3, ...dr, 3, ...dr],
      neutrals: {},
    });
    const sail = (g: GameState, ship: string) => {
      const r = engine.applyOrder(g, P('a'), {
        type: 'shipMove',
        ship: U(ship),
        path: [A('nord'), A('bay')],
        cargo: [],
      } as Order);
      if (!r.ok) throw new Error(r.error.code);
      return r.value;
    };
    const first = sail(state, 'u1');
    const second = sail(first.state, 'u2');
    for (const [r, ship] of [
      [first, 'u1'],
      [second, 'u2'],
    ] as const)
      expect(r.events.filter((e) => e.type === 'shipIntercepted')).toMatchObject([
        { ship, interceptors: ['u3'] },
      ]);
    expect([second.state.units.u1?.area, second.state.units.u2?.area, second.state.units.u3?.area]).toEqual([
      'bay',
      'bay',
      'east',
    ]);
  });
});

describe('8.1 a ship sent back by ARn', () => {
  it('may not move again this turn, but may attack next to its start area in the combat phase', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'ship', 'west'], // u1
        ['b', 'ship', 'east'], // u2 touches Nord, next to west along the shore
      ],
      step: phase('a', 'movement'),
      dice: [3, ...diceFor('1-1', 'AR1'), 4],
      neutrals: {},
    });
    const r = engine.applyOrder(state, P('a'), {
      type: 'shipMove',
      ship: U('u1'),
      path: [A('nord'), A('bay')],
      cargo: [],
    } as Order);
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.state.units.u1?.area).toBe('west');
    const legal = engine.legalOrders(r.value.state, P('a'));
    expect(legal.some((o) => o.type === 'shipMove' && o.ship === 'u1')).toBe(false);
    const end = engine.applyOrder(r.value.state, P('a'), { type: 'endPhase' } as Order);
    if (!end.ok) throw new Error(end.error.code);
    const g = end.value.state;
    expect(g.step.kind === 'playerTurn' && g.step.phase).toBe('combat');
    const attacks = engine.legalOrders(g, P('a')).filter((o) => o.type === 'combatAttack');
    expect(attacks).toContainEqual(expect.objectContaining({ target: 'east' }));
  });
});
