import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders } from '../../src/combat-phase/phase.ts';
import { asUnitId } from '../../src/model/ids.ts';
import { A, BLUE, diceFor, fixture, RED } from './fixture.ts';

// AMBIG-16 (cfg.shipAttackRange): ships join attacks on neighbouring areas on the same sea; 7.1: never halved.
describe('ships in land combat (7.1, AMBIG-16)', () => {
  const units = [
    ['inf', RED, 'barbarianInfantry', 'a3'],
    ['ship', RED, 'ship', 'a3'],
    ['foe', BLUE, 'bow', 'a4'],
    ['foe2', BLUE, 'bow', 'b3'],
  ] as const;

  it('may attack a neighbouring coastal area on the same sea, unhalved, but not an inland one', () => {
    const { ctx, state } = fixture({ units });
    const orders = combatLegalOrders(ctx, state, RED);
    const a4 = orders.find((o) => o.type === 'combatAttack' && o.target === 'a4');
    expect(a4?.type === 'combatAttack' && a4.eligible).toEqual([
      { unit: 'inf', from: 'a3', halved: false },
      { unit: 'ship', from: 'a3', halved: false },
    ]);
    expect(a4?.type === 'combatAttack' && a4.choices[0]).toMatchObject({
      attackers: ['inf', 'ship'],
      odds: '2-1',
    });
    const b3 = orders.find((o) => o.type === 'combatAttack' && o.target === 'b3');
    expect(b3?.type === 'combatAttack' && b3.eligible.map((e) => e.unit)).toEqual(['inf']);
  });

  it('never attacks in the combat phase under shipAttackRange = landingsOnly', () => {
    const { ctx, state } = fixture({
      units,
      options: (o) => ({ ...o, cfg: { ...o.cfg, shipAttackRange: 'landingsOnly' } }),
    });
    const a4 = combatLegalOrders(ctx, state, RED).find((o) => o.type === 'combatAttack' && o.target === 'a4');
    expect(a4?.type === 'combatAttack' && a4.eligible.map((e) => e.unit)).toEqual(['inf']);
  });

  it('8.3: with no coastal way out the ship retreats across one sea area and sinks on a 1', () => {
    // a4's neighbours: a3 (the attacker), and b4 and Byzantium, both inland; a2 lies across the sea.
    const setup = (kind: 'ship' | 'bow', extra: number[] = []) =>
      fixture({
        units: [
          ['inf', RED, 'infantry', 'a3'],
          ['foe', BLUE, kind, 'a4'],
        ],
        dice: [...(kind === 'ship' ? diceFor('4-1', 'DR1') : diceFor('2-1', 'DR1')), ...extra],
      });
    const attack = { type: 'combatAttack', target: A('a4'), attackers: [asUnitId('inf')] } as const;
    const sunk = setup('ship', [1]);
    const lost = applyCombatOrder(sunk.ctx, sunk.state, RED, { ...attack, attackers: [...attack.attackers] });
    expect(lost.ok && lost.value.events[0]).toMatchObject({ odds: '4-1', result: 'DR1' });
    expect(lost.ok && lost.value.events.map((e) => e.type)).toContain('combatShipSinkingRolled');
    expect(lost.ok && lost.value.state.units.foe).toBeUndefined();
    const afloat = setup('ship', [2]);
    const saved = applyCombatOrder(afloat.ctx, afloat.state, RED, {
      ...attack,
      attackers: [...attack.attackers],
    });
    expect(saved.ok && saved.value.state.units.foe?.area).toBe('a2');
    const bow = setup('bow');
    const orders = applyCombatOrder(bow.ctx, bow.state, RED, { ...attack, attackers: [...attack.attackers] });
    // A bow may go inland: b4 (Byzantium is an unfriendly city, criterion 3 of 7.3).
    expect(orders.ok && orders.value.state.units.foe?.area).toBe('b4');
  });
});
