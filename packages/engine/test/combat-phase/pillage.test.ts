import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders } from '../../src/combat-phase/phase.ts';
import { combatStateOf } from '../../src/model/combat.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import type { GameStateCore } from '../../src/model/state.ts';
import { A, BLUE, deepFreeze, diceFor, fixture, RED } from './fixture.ts';

const withMarker = (state: GameStateCore): GameStateCore =>
  deepFreeze({ ...state, markers: [{ area: A('b3'), digit: 6, pillager: BLUE, turn: 1 }] });

const attack: CombatOrder = { type: 'combatAttack', target: asAreaId('b3'), attackers: [asUnitId('inf')] };

describe('pillage markers acting as neutral garrisons (9.5, 14.1)', () => {
  it('a marker left by its pillager defends like a neutral garrison of the city', () => {
    const { ctx, state } = fixture({ units: [['inf', RED, 'barbarianInfantry', 'b2']] });
    const [order] = combatLegalOrders(ctx, withMarker(state), RED);
    expect(order).toMatchObject({ type: 'combatAttack', target: 'b3', defender: null, neutral: 2 });
  });

  it('beaten with an advance, the marker stays under the unit that moves in', () => {
    const { ctx, state } = fixture({
      units: [['inf', RED, 'barbarianInfantry', 'b2']],
      dice: diceFor('3-2', 'DE'),
    });
    const first = applyCombatOrder(ctx, withMarker(state), RED, attack);
    if (!first.ok) throw new Error(first.error.code);
    expect(first.value.events).toContainEqual({ type: 'combatNeutralEliminated', area: 'b3', cause: 'DE' });
    const moved = applyCombatOrder(ctx, first.value.state, RED, {
      type: 'combatAdvance',
      unit: asUnitId('inf'),
      to: A('b3'),
    });
    if (!moved.ok) throw new Error(moved.error.code);
    expect(moved.value.state.units.inf?.area).toBe('b3');
    expect(moved.value.state.markers).toHaveLength(1);
    expect(combatStateOf(moved.value.state).pending).toBeNull();
    expect(combatLegalOrders(ctx, moved.value.state, RED).filter((o) => o.type === 'combatAttack')).toEqual(
      [],
    );
  });

  it('beaten with no advance, the marker goes on acting, and is not attacked twice this turn', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
      ],
      dice: diceFor('3-1', 'DE'),
    });
    const first = applyCombatOrder(ctx, withMarker(state), RED, {
      ...attack,
      attackers: [asUnitId('inf'), asUnitId('horse')],
    });
    if (!first.ok) throw new Error(first.error.code);
    const stopped = applyCombatOrder(ctx, first.value.state, RED, { type: 'combatStop' });
    if (!stopped.ok) throw new Error(stopped.error.code);
    expect(stopped.value.state.markers).toHaveLength(1);
    expect(stopped.value.state.neutrals.b3).toBeUndefined();
    expect(combatStateOf(stopped.value.state).neutralAreas).toEqual(['b3']);
  });
});
