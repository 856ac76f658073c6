/** realmPlanCost: record-sheet columns 2–9 (14.3.3) for a plan before it is confirmed (4.5, 10.4–10.6.1). */
import { describe, expect, it } from 'vitest';
import { type AreaId, realmPlanCost } from '../../src/index.ts';
import { P } from '../helpers/scenario.ts';
import { kingdomScenario } from './fixture.ts';

const kingdom = (position: 'GERMAN 1' | 'HUN' = 'GERMAN 1') => kingdomScenario({}, position);

describe('realmPlanCost (14.3.3 columns 2–9)', () => {
  it('the default plan: tax 3+2+1 with the capital +2, upkeep 2+3+1, treasury 10 + 8 − 6', () => {
    const { state, ctx } = kingdom();
    const c = realmPlanCost(ctx, state, P('k'));
    expect(c).toMatchObject({ tax: 8, other: 0, available: 18, upkeep: 6, purchases: 0, administration: 0 });
    expect(c?.treasuryLeft).toBe(12);
    expect(c?.problem).toBeNull();
  });

  it('a purchase at twice upkeep (10.5) and a 30 % column of income 8 (⌈2.4⌉ = 3, 10.6.1)', () => {
    const { state, ctx } = kingdom();
    const plan = {
      disband: [],
      garrisonDisband: [],
      purchases: [{ kind: 'bow' as const, area: 'r0c0' as AreaId }],
      adminPercent: 30,
    };
    const c = realmPlanCost(ctx, state, P('k'), plan);
    expect(c).toMatchObject({ upkeep: 6, purchases: 2, administration: 3, treasuryLeft: 7, problem: null });
  });

  it('says which column the roll is read on: the one bought, less 10 for a Hun realm (AMBIG-26)', () => {
    const plan = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 20 };
    const german = realmPlanCost(kingdom().ctx, kingdom().state, P('k'), plan);
    expect(german).toMatchObject({ adminPercent: 20, effectivePercent: 20 });
    const hun = kingdom('HUN');
    expect(realmPlanCost(hun.ctx, hun.state, P('k'), plan)).toMatchObject({
      adminPercent: 20,
      effectivePercent: 10,
    });
  });

  it('an unaffordable plan names the refusal reason; a barbarian has no plan', () => {
    const { state, ctx } = kingdom();
    const plan = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 60 };
    const rich = realmPlanCost(ctx, state, P('k'), plan);
    expect(rich?.administration).toBe(5);
    const poor = { ...state, players: state.players.map((p) => (p.id === 'k' ? { ...p, money: 0 } : p)) };
    const c = realmPlanCost(ctx, poor, P('k'), {
      ...plan,
      purchases: [{ kind: 'bow', area: 'r0c0' as AreaId }],
    });
    expect(c?.treasuryLeft).toBeLessThan(0);
    expect(c?.problem).toBe('cannotAfford');
    expect(realmPlanCost(ctx, state, P('b'))).toBeNull();
  });
});
