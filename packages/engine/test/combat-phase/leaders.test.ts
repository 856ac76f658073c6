import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders } from '../../src/combat-phase/phase.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import { patchRealmPlayer } from '../../src/model/realm.ts';
import { A, BLUE, deepFreeze, diceFor, fixture, RED } from './fixture.ts';

const U = asUnitId;
const attack = (target: string, ...ids: string[]): CombatOrder => ({
  type: 'combatAttack',
  target: asAreaId(target),
  attackers: ids.map(U),
});

describe('leaders in combat (10.2)', () => {
  it('shift the column for the side they stand with, and never count as defenders', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['lead', RED, 'leader', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
        ['foeLead', BLUE, 'leader', 'b3'],
      ],
    });
    const [order] = combatLegalOrders(ctx, deepFreeze(state), RED);
    expect(order).toMatchObject({
      type: 'combatAttack',
      target: 'b3',
      defenders: ['foe'],
      choices: [{ odds: '2-1', shift: 0 }],
    });
    const lone = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['lead', RED, 'leader', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
    });
    const [shifted] = combatLegalOrders(lone.ctx, lone.state, RED);
    expect(shifted).toMatchObject({ choices: [{ odds: '5-2', shift: 1 }] });
  });

  it('die when every unit stacked with them is eliminated', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
        ['foeLead', BLUE, 'leader', 'b3'],
      ],
      dice: diceFor('3-2', 'DE'),
    });
    const r = applyCombatOrder(ctx, deepFreeze(state), RED, attack('b3', 'inf'));
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.state.units.foeLead).toBeUndefined();
    expect(r.value.events).toContainEqual({ type: 'combatLeaderEliminated', unit: 'foeLead', area: 'b3' });
  });

  it('go with their stack when it retreats', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['x', RED, 'bow', 'a3'],
        ['y', RED, 'bow', 'c3'],
        ['foe', BLUE, 'bow', 'b3'],
        ['foeLead', BLUE, 'leader', 'b3'],
      ],
      dice: diceFor('3-1', 'DR1'), // 4-1 shifted one left by the defending leader
    });
    const r = applyCombatOrder(ctx, deepFreeze(state), RED, attack('b3', 'inf', 'x', 'y'));
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.state.units.foe?.area).toBe('b4');
    expect(r.value.state.units.foeLead?.area).toBe('b4');
  });

  it('die when an unfriendly unit ends its advance in their area (AMBIG-53)', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianHorse', 'b2'],
        ['x', RED, 'bow', 'a3'],
        ['foe', BLUE, 'bow', 'b3'],
        ['loneLead', BLUE, 'leader', 'b4'],
        ['z', BLUE, 'infantry', 'a4'],
        ['w', BLUE, 'infantry', 'c3'],
      ],
      dice: diceFor('5-2', 'DR2'),
    });
    const first = applyCombatOrder(ctx, deepFreeze(state), RED, attack('b3', 'inf', 'x'));
    if (!first.ok) throw new Error(first.error.code);
    // The bow retreats through b4 (its own lone leader stays there) to c4; the 3-4 pursues to b4.
    const retreat = applyCombatOrder(ctx, first.value.state, BLUE, {
      type: 'combatRetreat',
      unit: U('foe'),
      path: [A('b4'), A('c4')],
    });
    if (!retreat.ok) throw new Error(retreat.error.code);
    expect(retreat.value.state.units.foe?.area).toBe('c4');
    expect(retreat.value.state.units.loneLead?.area).toBe('b4');
    const second = applyCombatOrder(ctx, retreat.value.state, RED, {
      type: 'combatAdvance',
      unit: U('inf'),
      to: A('b4'),
    });
    if (!second.ok) throw new Error(second.error.code);
    expect(second.value.state.units.loneLead).toBeUndefined();
    expect(second.value.events).toContainEqual({
      type: 'combatLeaderEliminated',
      unit: 'loneLead',
      area: 'b4',
    });
  });
});

describe('optional leaders in combat (13.6, C.5.b)', () => {
  it('a great general shifts two columns, an administrator none', () => {
    const setup = (leaderType: 'general' | 'administrator') => {
      const { ctx, state } = fixture({
        units: [
          ['inf', RED, 'infantry', 'b2'],
          ['lead', RED, 'leader', 'b2'],
          ['foe', BLUE, 'bow', 'b3'],
        ],
        options: (o) => ({ ...o, opt: { ...o.opt, optionalLeaders: true } }),
      });
      return { ctx, state: patchRealmPlayer(state, RED, { leaderType }) };
    };
    const general = setup('general');
    expect(combatLegalOrders(general.ctx, general.state, RED)[0]).toMatchObject({
      choices: [{ odds: '3-1', shift: 2 }],
    });
    const admin = setup('administrator');
    expect(combatLegalOrders(admin.ctx, admin.state, RED)[0]).toMatchObject({
      choices: [{ odds: '2-1', shift: 0 }],
    });
  });
});

describe('pursuit through a lone leader (AMBIG-53, cfg.leaderKilledOnPassThrough)', () => {
  // The bow's one best DR3 path is c3 → c2 → c1 (no city on it, away from b2 and a3); its own lone
  // leader waits in c3. The 3-4 pursues to c2, through b3 and c3.
  const run = (passThrough: boolean) => {
    const { ctx, state } = fixture({
      units: [
        ['horse', RED, 'barbarianHorse', 'b2'],
        ['x', RED, 'bow', 'a3'],
        ['foe', BLUE, 'bow', 'b3'],
        ['loneLead', BLUE, 'leader', 'c3'],
      ],
      dice: diceFor('5-2', 'DR3'),
      options: (o) => ({ ...o, cfg: { ...o.cfg, leaderKilledOnPassThrough: passThrough } }),
    });
    const first = applyCombatOrder(ctx, deepFreeze(state), RED, attack('b3', 'horse', 'x'));
    if (!first.ok) throw new Error(first.error.code);
    expect(first.value.state.units.foe?.area).toBe('c1');
    const pursued = applyCombatOrder(ctx, first.value.state, RED, {
      type: 'combatAdvance',
      unit: U('horse'),
      to: A('c2'),
    });
    if (!pursued.ok) throw new Error(pursued.error.code);
    return pursued.value.state;
  };

  it('kills the leader a pursuer passes by default, and spares it with the option off', () => {
    expect(run(true).units.loneLead).toBeUndefined();
    expect(run(false).units.loneLead?.area).toBe('c3');
  });
});
