import { createEngine } from '@bke/engine';
import { describe, expect, it } from 'vitest';
import { planCost } from './plan-cost.ts';

const engine = createEngine();
const game = engine.createGame({ seed: 'plan-cost' });

describe('planCost (the engine prices, the server forwards)', () => {
  it('answers no price (null) for a player with no realm plan to make', () => {
    if (!game.ok) throw new Error(JSON.stringify(game.error));
    const plan = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 0 };
    expect(planCost(engine, game.value, 'p1', plan)).toEqual({ ok: true, cost: null });
  });

  it('refuses a malformed plan with order/invalid before asking the engine', () => {
    if (!game.ok) throw new Error(JSON.stringify(game.error));
    expect(planCost(engine, game.value, 'p1', { adminPercent: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'order/invalid' },
    });
  });
});
