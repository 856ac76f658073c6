/** 10.2 a leader sharing an area with an unfriendly unit is eliminated; with friends it lives. */
import { describe, expect, it } from 'vitest';
import { eliminateExposedLeaders, exposedLeaders } from '../../src/kingdom/leaders.ts';
import { realmScenario } from './realm-fixture.ts';

describe('10.2 leaders meeting unfriendly units', () => {
  it('an enemy unit or a neutral garrison in its area kills it; a friendly stack does not', () => {
    const { state, ctx } = realmScenario({
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom' },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['k', 'leader', 'r0c1'], // u1: with an enemy tribe
        ['b', 'tribe', 'r0c1'],
        ['k', 'leader', 'r1c0'], // u3: with its own 4-2
        ['k', 'infantry', 'r1c0'],
        ['k', 'leader', 'r1c2'], // u5: alone (it moved alone: lives, AMBIG-2)
        ['k', 'leader', 'r2c2'], // u6: on a neutral garrison's area
      ],
      neutrals: { r2c2: 2 },
    });
    expect(exposedLeaders(ctx, state)).toEqual(['u1', 'u6']);
    const t = eliminateExposedLeaders(ctx, state);
    expect(Object.keys(t.state.units).sort()).toEqual(['u2', 'u3', 'u4', 'u5']);
    expect(t.events.map((e) => e.type)).toEqual(['leaderEliminated', 'leaderEliminated']);
  });
});
