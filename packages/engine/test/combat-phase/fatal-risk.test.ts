/**
 * 14.3, 7.2: an attack made with every unit a horde has left says, before it is declared, how
 * likely it is to end the horde, counted exactly from the combat results table (C.1.b, 2d6).
 */
import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders } from '../../src/combat-phase/phase.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import { unitsOf } from '../../src/model/queries.ts';
import { BLUE, diceFor, fixture, type Placement, RED } from './fixture.ts';

const choiceOf = (units: readonly Placement[], target: string, attackers: string[]) => {
  const { ctx, state } = fixture({ units });
  const order = combatLegalOrders(ctx, state, RED).find(
    (o) => o.type === 'combatAttack' && o.target === target,
  );
  if (order?.type !== 'combatAttack') throw new Error(`no attack on ${target}`);
  const choice = order.choices.find((c) => c.attackers.join() === attackers.join());
  if (!choice) throw new Error(`no choice ${attackers.join()}`);
  return choice;
};

describe('the end of the horde foreseen before an attack (14.3, 7.2)', () => {
  // A 3-3 infantry against one tribe: 3 to 1, the 3-1 column (7.1).
  const lastUnit: Placement[] = [
    ['inf', RED, 'barbarianInfantry', 'b2'],
    ['foe', BLUE, 'tribe', 'b3'],
  ];

  it("a horde's last unit in an exchange gives up all it has: 3-1's EX rolls 4 and 5, 7 in 36", () => {
    const choice = choiceOf(lastUnit, 'b3', ['inf']);
    expect(choice.odds).toBe('3-1');
    // 7.2 EX: the infantry (3) is the bigger side and owes 1; its only loss set is itself. The
    // AR1 results (rolls 2, 3) leave it a path back (7.3), so they do not end the horde.
    expect(choice.consequences).toEqual([
      { kind: 'hordeMayEnd', section: '14.3', chance: 7 / 36, by: [{ result: 'EX', chance: 7 / 36 }] },
    ]);
  });

  it('the exchange then removes the last unit, as foreseen', () => {
    const { ctx, state } = fixture({ units: lastUnit, dice: diceFor('3-1', 'EX') });
    const r = applyCombatOrder(ctx, state, RED, {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [asUnitId('inf')],
    });
    if (!r.ok) throw new Error(r.error.code);
    // With one legal loss set the exchange takes it at once (7.2): the horde has no unit left.
    expect(r.value.events[0]).toMatchObject({ odds: '3-1', result: 'EX' });
    expect(unitsOf(r.value.state, RED)).toEqual([]);
  });

  it('says nothing when another unit of the horde stays out of the attack', () => {
    const choice = choiceOf([...lastUnit, ['home', RED, 'tribe', 'c4']], 'b3', ['inf']);
    expect(choice.consequences).toBeUndefined();
  });

  it('a lone tribe at 1-1 (7.2, AMBIG-4): AE, AR3 and AR2 beyond its one area of movement, and a tied exchange', () => {
    const choice = choiceOf(
      [
        ['t', RED, 'tribe', 'a1'],
        ['foe', BLUE, 'tribe', 'a2'],
      ],
      'a2',
      ['t'],
    );
    expect(choice.odds).toBe('1-1');
    // 1-1 column: AE on 2–3 (3 ways), AR3 on 4 (3), AR2 on 5 (4), AR1 on 6–7 (11, a path to b1
    // remains), EX on 8 (5; equal totals eliminate both under the default exTie).
    expect(choice.consequences?.[0]).toMatchObject({ kind: 'hordeMayEnd', chance: 15 / 36 });
    const risk = choice.consequences?.[0];
    expect(risk?.kind === 'hordeMayEnd' && risk.by.map((b) => b.result)).toEqual(['AE', 'AR3', 'AR2', 'EX']);
  });
});
