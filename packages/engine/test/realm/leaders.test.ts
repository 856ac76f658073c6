/** 10.2 a leader sharing an area with an unfriendly unit is eliminated; with friends it lives. */
import { describe, expect, it } from 'vitest';
import { eliminateExposedLeaders, exposedLeaders } from '../../src/realm/lone-leaders.ts';
import { realmScenario } from './fixture.ts';

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

describe('11.5 support and 11.7.2 result 11 (Attempted Coup) limit empire moves', () => {
  it('an empire unit may not end outside the boundary unsupported; a coup pins elites to the capital', async () => {
    const { empireMoveAllowed, coupAllowsAttack } = await import('../../src/realm/empire-movement.ts');
    const { patchRealmPlayer } = await import('../../src/model/realm.ts');
    const { gridMap } = await import('../helpers/fixture-map.ts');
    const { scenario, P: Pl } = await import('../helpers/scenario.ts');
    // Row 0 is outside the boundary; r2 cells inside. r0c0 touches only r0c1 and r1c0.
    const map = gridMap({
      rows: 3,
      cols: 3,
      outside: ['r0c0', 'r0c1', 'r0c2', 'r1c0'],
      cities: { r2c2: { tax: 2 } },
    });
    const s = scenario({
      map,
      turn: 5,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire' },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['e', 'elite', 'r1c1'],
        ['b', 'tribe', 'r1c0'],
        ['b', 'tribe', 'r0c1'],
      ],
      neutrals: {},
    });
    const g = {
      ...s.state,
      players: s.state.players.map((p) => (p.id === 'e' ? { ...p, capital: 'r2c2' as never } : p)),
    };
    const elite = g.units.u1!;
    expect(empireMoveAllowed(s.ctx, g, elite, 'r2c1' as never)).toBe(true); // inside
    expect(empireMoveAllowed(s.ctx, g, elite, 'r0c2' as never)).toBe(true); // next to r1c2, inside and free
    expect(empireMoveAllowed(s.ctx, g, elite, 'r0c0' as never)).toBe(false); // only enemy-held neighbours
    const coup = patchRealmPlayer(g, Pl('e'), { coupTurn: 5 });
    expect(empireMoveAllowed(s.ctx, coup, elite, 'r2c1' as never)).toBe(true); // next to the capital
    expect(empireMoveAllowed(s.ctx, coup, elite, 'r1c2' as never)).toBe(true);
    expect(empireMoveAllowed(s.ctx, coup, elite, 'r2c0' as never)).toBe(false);
    expect(coupAllowsAttack(s.ctx, coup, elite)).toBe(false);
  });
});

describe('views of the realm state (13.3, 4.5)', () => {
  it('other players’ sealed bids and pending plans are hidden; the record sheet travels as events, not in the view', async () => {
    const { realmViewFor } = await import('../../src/realm/realm-view.ts');
    const realm = {
      players: {
        a: {
          plan: { disband: [], garrisonDisband: [], purchases: [], adminPercent: 20 },
          bids: { turn: 3, list: [] },
          lastIncome: 7,
        },
        b: { plan: null, lastIncome: 4 },
      },
      sheet: [{ turn: 3 }],
      active: null,
      pending: null,
      tasks: [],
    } as never;
    const forB = realmViewFor(realm, 'b' as never)!;
    expect(forB.players.a).toMatchObject({ plan: null, lastIncome: 7 });
    expect('bids' in forB.players.a!).toBe(false);
    expect('sheet' in forB).toBe(false);
    expect(realmViewFor(realm, 'a' as never)!.players.a?.plan?.adminPercent).toBe(20);
  });

  it('a view shares what did not change with the previous view, as the state does', async () => {
    const { realmViewFor } = await import('../../src/realm/realm-view.ts');
    const a = { plan: null, bids: { turn: 3, list: [] }, lastIncome: 7 };
    const realm = { players: { a, b: { plan: null, lastIncome: 4 } }, sheet: [], tasks: [] } as never;
    const first = realmViewFor(realm, null)!;
    expect(realmViewFor(realm, null)).toBe(first);
    // The next state: b's entry changed, a's did not.
    const next = { ...(realm as object), players: { a, b: { plan: null, lastIncome: 9 } } } as never;
    const second = realmViewFor(next, null)!;
    expect(second.players.a).toBe(first.players.a);
    expect(second.players.b).toMatchObject({ lastIncome: 9 });
    // Another viewer's view of the same realm is its own (a sees its bids).
    expect(realmViewFor(realm, 'a' as never)!.players.a).toBe(a);
  });
});
