/**
 * Kingdom and empire rules with a test of their own: the three cases where a 4-2 cannot become a garrison (11.1), where garrisons may be built and which
 * may be disbanded at will (11.3), purchases refused in a pillaged city (10.5), a capital marker
 * off the board placed again (10.3), unsupported units removed unpaid (11.5), and the choices of
 * Rebellion Table result 12 for an empire (11.7.2: Revival capital move, garrisons removed at will).
 */
import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import { realmOf } from '../../src/model/realm.ts';
import type { Game } from '../../src/model/state-ops.ts';
import { realmAdminLegal, realmWaitingFor } from '../../src/realm/choices.ts';
import { resolveEconomicWithRealms } from '../../src/realm/economic-orders.ts';
import { garrisonCandidates, garrisonRefusal } from '../../src/realm/empire-conversion.ts';
import { garrisonBuildAreas, isolatedGarrisons } from '../../src/realm/garrisons.ts';
import { runRealmAdministration } from '../../src/realm/realm-administration.ts';
import { applyRealmOrder } from '../../src/realm/realm-orders.ts';
import { collect } from '../../src/turn/economic.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { A, adminStep, P, scenario, U } from '../helpers/scenario.ts';
import { economicStep, realmScenario } from './fixture.ts';

const resolve = (ctx: EngineContext, g: Game) =>
  resolveEconomicWithRealms(ctx, g, (s, id) => collect(ctx, s, id, []));
const plan = (extra: Record<string, unknown>) => ({
  type: 'realmPlan' as const,
  plan: { disband: [], garrisonDisband: [], purchases: [], adminPercent: 0, ...extra },
});

describe('11.1 the three cases where a 4-2 may not become a garrison', () => {
  // r0c1 is desert, r0c2 lies outside the imperial boundary, the south row is on the sea "mare".
  const MAP = gridMap({
    rows: 2,
    cols: 3,
    deserts: ['r0c1'],
    outside: ['r0c2'],
    cities: { r1c1: { tax: 2 } },
    seas: { mare: { shores: ['r1c0', 'r1c1', 'r1c2'] } },
  });
  it('stacked with a ship, in a desert, outside the boundary: refused; any other 4-2 may', () => {
    const { state, ctx } = scenario({
      map: MAP,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom' },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['k', 'infantry', 'r1c0'], // u1, with the ship u2
        ['k', 'ship', 'r1c0'], // u2
        ['k', 'infantry', 'r0c1'], // u3 desert
        ['k', 'infantry', 'r0c2'], // u4 outside
        ['k', 'infantry', 'r1c1'], // u5 may
      ],
      neutrals: {},
    });
    const why = (id: string) => garrisonRefusal(ctx, state, state.units[U(id)]!);
    expect([why('u1'), why('u3'), why('u4'), why('u5')]).toEqual([
      'stackedWithShip',
      'desert',
      'outsideBoundary',
      null,
    ]);
    expect(garrisonCandidates(ctx, state, 'k')).toEqual(['u5']);
  });
});

/** An empire holding the western province (r0c0 3, r1c1 2, r2c1 1) of the realm grid. */
function empire(units: Parameters<typeof realmScenario>[0]['units'], owners: Record<string, string> = {}) {
  return realmScenario({
    turn: 20,
    players: [
      { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 20, vp: 100 },
      { id: 'b', position: 'SLAV 1' },
    ],
    units,
    owners: { r0c0: 'e', r1c1: 'e', r2c1: 'e', ...owners },
    capitals: { e: 'r0c0' },
    stageTurns: { e: 15 },
    step: economicStep(['e']),
  });
}

describe('11.3 garrisons: where they may be built, which may be disbanded at will', () => {
  it('every empty area of a province whose cities are all friendly; with some friendly, only near them', () => {
    // East: e owns r0c3 but not r2c3; b stands in r1c2, next to r0c2 and r1c3 of the same province.
    const { state, ctx } = empire(
      [
        ['e', 'infantry', 'r0c0'],
        ['b', 'barbarianInfantry', 'r1c2'],
      ],
      { r0c3: 'e' },
    );
    expect(garrisonBuildAreas(ctx, state, P('e'))).toEqual(['r0c1', 'r0c3', 'r1c0', 'r1c1', 'r2c0', 'r2c1']);
    // Without the barbarian: r0c2 (next to the friendly r0c3) and r1c2 (next to the friendly r1c1 of
    // the western province) qualify; r1c3 does not (its neighbour r2c3 in the same province holds a
    // neutral garrison, an unfriendly unit, AMBIG-54), nor r2c3 (an unfriendly city) or r2c2.
    const calm = empire([['e', 'infantry', 'r0c0']], { r0c3: 'e' });
    expect(garrisonBuildAreas(calm.ctx, calm.state, P('e'))).toEqual([
      'r0c1',
      'r0c2',
      'r0c3',
      'r1c0',
      'r1c1',
      'r1c2',
      'r2c0',
      'r2c1',
    ]);
    // A province with no friendly city: none at all.
    const west = empire([['e', 'infantry', 'r0c0']]);
    expect(
      garrisonBuildAreas(west.ctx, west.state, P('e')).some((a) => a.endsWith('c2') || a.endsWith('c3')),
    ).toBe(false);
  });

  it('an isolated garrison may be disbanded in the economic phase, unpaid; one near a friendly city may not', () => {
    // u1 in r1c3: no friendly city in or next to it, and no friendly unit next to it near one.
    // u2 in r0c1: next to the friendly r0c0.
    const { state, ctx } = empire([
      ['e', 'garrison', 'r1c3'],
      ['e', 'garrison', 'r0c1'],
      ['e', 'infantry', 'r0c0'],
    ]);
    expect(isolatedGarrisons(ctx, state, P('e'))).toEqual(['u1']);
    expect(applyRealmOrder(ctx, state, P('e'), plan({ garrisonDisband: [U('u2')] })).ok).toBe(false);
    const a = applyRealmOrder(ctx, state, P('e'), plan({ garrisonDisband: [U('u1')] }));
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    const r = resolve(ctx, a.value.state);
    expect(r.state.units.u1).toBeUndefined();
    // Upkeep: the garrison u2 (1) and the 4-2 (3); the disbanded u1 costs nothing.
    expect(r.events.find((e) => e.type === 'upkeepPaid')).toMatchObject({ upkeep: 4 });
    // A friendly unit in r1c2 (next to the friendly r1c1) takes the isolation away.
    const chained = empire([
      ['e', 'garrison', 'r1c3'],
      ['e', 'infantry', 'r1c2'],
    ]);
    expect(isolatedGarrisons(chained.ctx, chained.state, P('e'))).toEqual([]);
  });
});

describe('10.5 / 10.3 kingdom purchases and the capital marker', () => {
  const kingdom = (extra: Partial<Parameters<typeof realmScenario>[0]> = {}) =>
    realmScenario({
      turn: 12,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 10, vp: 50 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [['k', 'infantry', 'r0c0']],
      owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k' },
      capitals: { k: 'r0c0' },
      stageTurns: { k: 10 },
      step: economicStep(['k']),
      ...extra,
    });

  it('no purchase in a pillaged city (its marker still there), the same city unpillaged may', () => {
    const free = kingdom();
    const buy = plan({ purchases: [{ kind: 'bow', area: A('r2c1') }] });
    expect(applyRealmOrder(free.ctx, free.state, P('k'), buy).ok).toBe(true);
    const pillaged = {
      ...free.state,
      markers: [{ area: A('r2c1'), digit: 2, pillager: P('b'), turn: 11 }],
    } as GameState;
    expect(applyRealmOrder(free.ctx, pillaged, P('k'), buy).ok).toBe(false);
  });

  it('a capital marker off the board goes on a friendly unpillaged city at the economic phase', () => {
    const { state, ctx } = kingdom({ capitals: {} });
    const pillaged = {
      ...state,
      markers: [{ area: A('r0c0'), digit: 2, pillager: P('b'), turn: 11 }],
    } as GameState;
    const r = resolve(ctx, pillaged);
    const placed = r.events.find((e) => e.type === 'capitalPlaced');
    expect(placed).toMatchObject({ player: 'k', reason: 'regained' });
    expect(['r1c1', 'r2c1']).toContain((placed as { area: string }).area);
    // With no friendly unpillaged city it waits off the board.
    const none = kingdom({ capitals: {}, owners: { r2c1: 'k' } });
    const bare = {
      ...none.state,
      markers: [{ area: A('r2c1'), digit: 2, pillager: P('b'), turn: 11 }],
    } as GameState;
    const r2 = resolve(none.ctx, bare);
    expect(r2.events.some((e) => e.type === 'capitalPlaced')).toBe(false);
    expect(r2.state.players.find((p) => p.id === 'k')!.capital).toBeNull();
  });
});

describe('11.5 unsupported units are removed in the economic phase, with no upkeep paid', () => {
  it('an elite alone outside the boundary with no chain back goes; upkeep counts only the rest', () => {
    const MAP = gridMap({
      rows: 3,
      cols: 3,
      outside: ['r0c0', 'r0c1', 'r0c2', 'r1c0'],
      cities: { r2c2: { tax: 2 } },
    });
    const s = scenario({
      map: MAP,
      turn: 5,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 10 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['e', 'elite', 'r0c0'], // u1: its neighbours r0c1 and r1c0 lie outside too
        ['e', 'infantry', 'r2c2'], // u2
      ],
      neutrals: {},
      step: economicStep(['e']),
    });
    const g = { ...s.state, cities: { r2c2: { owner: P('e'), everOwned: true } } } as GameState;
    const r = resolve(s.ctx, g);
    expect(r.events.find((e) => e.type === 'unsupportedRemoved')).toMatchObject({ units: ['u1'] });
    expect(r.state.units.u1).toBeUndefined();
    expect(r.events.find((e) => e.type === 'upkeepPaid')).toMatchObject({ upkeep: 3 });
  });
});

describe('11.7.2 result 12 for an empire: Revival with its capital move, garrisons removed at will', () => {
  it('asks where the capital goes and which garrisons to remove (any number)', () => {
    const { state, ctx } = realmScenario({
      turn: 20,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 5, vp: 100 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['e', 'infantry', 'r0c0'], // u1 in the capital
        ['e', 'elite', 'r1c1'], // u2: an elite-held city revolts last (11.7.2 procedure)
        ['e', 'garrison', 'r0c1'], // u3
        ['e', 'garrison', 'r1c0'], // u4
      ],
      owners: { r0c0: 'e', r1c1: 'e', r2c1: 'e', r0c3: 'e', r2c3: 'e' },
      capitals: { e: 'r0c0' },
      stageTurns: { e: 15 },
      // Administration 1+1 on 0 % → Rebellion; 6+6 → 12.
      dice: [1, 1, 6, 6],
    });
    const g = { ...state, step: { ...adminStep([]), player: P('e') } } as Game;
    let r = runRealmAdministration(ctx, g, P('e'));
    let s = r.state;
    const asked: string[] = [];
    for (let i = 0; i < 8 && realmOf(s).pending; i++) {
      const pending = realmOf(s).pending!;
      const who = realmWaitingFor(s)[0]!;
      let order = realmAdminLegal(ctx, s, who)[0]!;
      if (pending.kind === 'capital') {
        asked.push('capital');
        order = { type: 'realmCapital', area: A('r1c1') };
      } else if (pending.kind === 'units' && pending.reason === 'garrisonsRemoval') {
        asked.push('garrisons');
        expect([...pending.candidates].sort()).toEqual(['u3', 'u4']);
        order = { type: 'realmUnits', units: [U('u4')] };
      }
      const a = applyRealmOrder(ctx, s, who, order);
      if (!a.ok) throw new Error(`${a.error.code} ${JSON.stringify(a.error.params)}`);
      s = a.value.state;
      r = a.value as typeof r;
    }
    expect(asked).toEqual(['capital', 'garrisons']);
    expect(s.players.find((p) => p.id === 'e')!.capital).toBe('r1c1');
    expect(s.units.u4).toBeUndefined();
    expect(s.units.u3?.kind).toBe('garrison');
  });
});

describe('11.6 an empire’s low number result brings a rebellion, not a stage change', () => {
  const run = (turn: number, dice: number[]) => {
    const { state, ctx } = realmScenario({
      turn,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 5, vp: 100 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['e', 'infantry', 'r0c0'], // u1
        ['e', 'infantry', 'r1c1'], // u2
      ],
      owners: { r0c0: 'e', r1c1: 'e', r2c1: 'e' },
      capitals: { e: 'r0c0' },
      stageTurns: { e: 15 },
      dice,
    });
    const g = { ...state, step: { ...adminStep([]), player: P('e') } } as Game;
    return runRealmAdministration(ctx, g, P('e'));
  };
  it('0 % column, 2+3 → 3: after 5 empire turns a rebellion (here 8: every 4-2 goes home); after 2, nothing', () => {
    const late = run(20, [2, 3, 4, 4]);
    expect(late.events.find((e) => e.type === 'rebellionRolled')).toMatchObject({ cause: 'empireNumber' });
    expect(Object.keys(late.state.units)).toEqual([]);
    expect(late.state.players.find((p) => p.id === 'e')!.cycle?.stage).toBe('empire');
    const early = run(17, [2, 3, 4, 4]);
    expect(early.events.map((e) => e.type)).toEqual(['administrationRolled']);
    expect(Object.keys(early.state.units)).toHaveLength(2);
  });
});
