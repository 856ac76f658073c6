import { describe, expect, it } from 'vitest';
import { applyCombatOrder } from '../../src/combat-phase/phase.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { Options } from '../../src/model/options.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import { BLUE, deepFreeze, diceFor, fixture, RED } from './fixture.ts';

const attack = (target: string, ...ids: string[]): CombatOrder => ({
  type: 'combatAttack',
  target: asAreaId(target),
  attackers: ids.map(asUnitId),
});

describe('tribes in combat (9.3.1, 9.3.2, AMBIG-61)', () => {
  const mixed = (options?: (o: Options) => Options) =>
    fixture({
      units: [
        ['t', RED, 'tribe', 'a3'],
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['foe', BLUE, 'tribe', 'b3'],
      ],
      dice: diceFor('4-1', 'DE'),
      ...(options ? { options } : {}),
    });

  it('may join combat units against tribes (cfg.tribesJoinCombatUnitAttacks, default on)', () => {
    const { ctx, state } = mixed();
    const r = applyCombatOrder(ctx, deepFreeze(state), RED, attack('b3', 't', 'inf'));
    expect(r.ok && r.value.events[0]).toMatchObject({ attack: 8, defence: 2, odds: '4-1', result: 'DE' });
  });

  it('attack only alone when the option is off', () => {
    const { ctx, state } = mixed((o) => ({ ...o, cfg: { ...o.cfg, tribesJoinCombatUnitAttacks: false } }));
    const r = applyCombatOrder(ctx, state, RED, attack('b3', 't', 'inf'));
    expect(r.ok === false && r.error.code).toBe('combat/tribes_alone');
    expect(applyCombatOrder(ctx, state, RED, attack('b3', 't')).ok).toBe(true);
  });

  // b1's neighbours: a1 and b2 (attackers) and c1, a desert.
  const desert = (bluePeople: 'GERMAN' | 'ARAB') =>
    fixture({
      units: [
        ['t1', RED, 'tribe', 'a1'],
        ['t2', RED, 'tribe', 'b2'],
        ['foe', BLUE, 'tribe', 'b1'],
      ],
      dice: diceFor('3-2', 'DR1'),
      bluePeople,
      options: (o) => ({ ...o, opt: { ...o.opt, arabsAfricans: true } }),
    });

  it('a tribe forced to retreat into a desert is eliminated', () => {
    const { ctx, state } = desert('GERMAN');
    const r = applyCombatOrder(ctx, state, RED, attack('b1', 't1', 't2'));
    expect(r.ok && r.value.events[0]).toMatchObject({ attack: 3, odds: '3-2', result: 'DR1' });
    expect(r.ok && r.value.state.units.foe).toBeUndefined();
  });

  it('an Arab tribe retreats into the desert (13.2.2)', () => {
    const { ctx, state } = desert('ARAB');
    const r = applyCombatOrder(ctx, state, RED, attack('b1', 't1', 't2'));
    expect(r.ok && r.value.state.units.foe?.area).toBe('c1');
  });
});
