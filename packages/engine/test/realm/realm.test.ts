/**
 * Kingdoms and empires driven through their orders on real states: the economic phase
 * (10.3, 10.4, 10.5, 10.6.1, 11.5, 14.3.3) and the administration phase (10.6.2, 11.1, 11.6, 11.7).
 */
import { describe, expect, it } from 'vitest';
import type { GameState, PlayerId } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import { realmOf, realmPlayer } from '../../src/model/realm.ts';
import type { Game } from '../../src/model/state-ops.ts';
import { realmAdminLegal, realmWaitingFor } from '../../src/realm/choices.ts';
import { realmEconomicLegal, resolveEconomicWithRealms } from '../../src/realm/economic-orders.ts';
import { administerRealm, runRealmAdministration } from '../../src/realm/realm-administration.ts';
import { applyRealmOrder } from '../../src/realm/realm-orders.ts';
import { ledgerProblems, mayAbandon } from '../../src/realm/record.ts';
import { collect, fixOwnership } from '../../src/turn/economic.ts';
import { A, adminStep, P, U, unitsAt } from '../helpers/scenario.ts';
import { economicStep, kingdomScenario, type RealmSpec } from './fixture.ts';

const resolve = (ctx: EngineContext, g: Game) =>
  resolveEconomicWithRealms(ctx, g, (s, id) => collect(ctx, s, id, []));
const money = (g: Game, id: string) => g.players.find((p) => p.id === id)!.money;
const vp = (g: Game, id: string) => g.players.find((p) => p.id === id)!.cycle?.vp ?? 0;

const kingdom = (extra: Partial<RealmSpec> = {}) => kingdomScenario(extra);

describe('economic phase of a kingdom (4.5, 10.4, 10.5, 10.6.1, 14.3.3)', () => {
  it('tax with the capital, upkeep, a purchase and an administration column add up on the ledger', () => {
    const { state, ctx } = kingdom();
    // Tax 3+2+1 + capital 2 = 8; upkeep 2+3+1 = 6; available 18.
    const legal = realmEconomicLegal(ctx, state, P('k'));
    expect(legal.length).toBeGreaterThan(2);
    const plan = {
      disband: [],
      garrisonDisband: [],
      purchases: [{ kind: 'ship' as const, area: 'r2c1' as never }],
      adminPercent: 20,
    };
    const a = applyRealmOrder(ctx, state, P('k'), { type: 'realmPlan', plan });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    const r = resolve(ctx, a.value.state);
    const row = realmOf(r.state).sheet.find((x) => x.player === 'k')!;
    expect(row).toMatchObject({
      tax: 8,
      other: 0,
      carried: 10,
      available: 18,
      upkeep: 6,
      purchases: 4,
      administration: 2,
    });
    expect(row.treasury).toBe(6);
    expect(row.vp).toBe(58);
    expect(money(r.state, 'k')).toBe(6);
    expect(vp(r.state, 'k')).toBe(58);
    expect(unitsAt(r.state as GameState, 'r2c1').map((u) => u.kind)).toEqual(['ship']);
    expect(realmPlayer(r.state, P('k')).adminPercent).toBe(20);
    expect(ledgerProblems(realmOf(r.state).sheet)).toEqual([]);
  });

  it('10.5: a purchase outside a friendly unpillaged city, a ship inland, or beyond stacking is refused', () => {
    const { state, ctx } = kingdom();
    const bad = (kind: 'infantry' | 'ship' | 'cavalry', area: string) =>
      applyRealmOrder(ctx, state, P('k'), {
        type: 'realmPlan',
        plan: {
          disband: [],
          garrisonDisband: [],
          purchases: [{ kind, area: area as never }],
          adminPercent: 0,
        },
      });
    expect(bad('infantry', 'r0c1').ok).toBe(false); // no city
    expect(bad('ship', 'r0c0').ok).toBe(false); // not coastal
    expect(bad('infantry', 'r0c0').ok).toBe(false); // two big units
    expect(bad('cavalry', 'r2c1').ok).toBe(true);
  });

  it('10.4 / AMBIG-32: short of money, the plan must disband just enough', () => {
    const { state, ctx } = kingdom({
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 0 },
        { id: 'b', position: 'SLAV 1' },
      ],
      owners: { r0c0: 'k' },
    });
    // Tax 3 + 2 = 5 against upkeep 6: one unit must go, and only one.
    const plan = (disband: string[]) => ({
      type: 'realmPlan' as const,
      plan: { disband: disband.map(U), garrisonDisband: [], purchases: [], adminPercent: 0 },
    });
    expect(applyRealmOrder(ctx, state, P('k'), plan([])).ok).toBe(false);
    expect(applyRealmOrder(ctx, state, P('k'), plan(['u1', 'u3'])).ok).toBe(false);
    const ok = applyRealmOrder(ctx, state, P('k'), plan(['u3']));
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    const r = resolve(ctx, ok.value.state);
    expect(r.state.units.u3).toBeUndefined();
    expect(money(r.state, 'k')).toBe(0);
    expect(ledgerProblems(realmOf(r.state).sheet)).toEqual([]);
  });

  it('D-7 in play: the captured capital splits the treasury, plunder is the capturer’s income and VP', () => {
    const { state, ctx } = kingdom({
      units: [
        ['k', 'cavalry', 'r1c1'],
        ['k', 'infantry', 'r2c1'],
        ['b', 'barbarianInfantry', 'r0c0'],
      ],
      owners: { r0c0: 'b', r1c1: 'k', r2c1: 'k' },
    });
    const r = resolve(ctx, state);
    // k: 10 → keeps 3 (3 to b, 4 lost); tax 2+1 without the capital bonus; upkeep 5.
    // b owns the city it holds: its tax 3, plus the plunder 3.
    expect(money(r.state, 'b')).toBe(6);
    expect(vp(r.state, 'b')).toBe(6);
    expect(money(r.state, 'k')).toBe(3 + 3 - 5);
    const kp = r.state.players.find((p) => p.id === 'k')!;
    expect(kp.capital).not.toBe('r0c0');
    expect(realmPlayer(r.state, P('k')).capitalCapture).toMatchObject({ by: 'b', plunder: 3 });
    expect(r.events.some((e) => e.type === 'capitalCaptured')).toBe(true);
    const rows = realmOf(r.state).sheet;
    expect(rows.find((x) => x.player === 'b')).toMatchObject({ tax: 3, other: 3, vp: 6, carried: 0 });
    expect(rows.find((x) => x.player === 'k')).toMatchObject({ tax: 3, carried: 3, upkeep: 5 });
    expect(ledgerProblems(rows)).toEqual([]);
  });
});

function admin(state: GameState, ctx: EngineContext, who: string) {
  const g = { ...state, step: adminStep([]) } as GameState;
  return runRealmAdministration(ctx, { ...g, step: { ...g.step, player: P(who) } } as Game, P(who));
}

describe('administration phase of kingdoms and empires (10.6.2, 11.1, 11.6, 11.7)', () => {
  it('D-12 turn 17: result 6 after 7 kingdom turns → empire; the owner picks the garrisons (11.1)', () => {
    const { state, ctx } = kingdom({ turn: 17, dice: [4, 4] });
    const r = admin(state, ctx, 'k');
    expect(r.events.find((e) => e.type === 'administrationRolled')).toMatchObject({ percent: 0, result: 6 });
    expect(r.choice).toEqual({ type: 'realm' });
    expect(realmWaitingFor(r.state)).toEqual(['k']);
    const legal = realmAdminLegal(ctx, r.state, P('k'));
    expect(legal).toContainEqual({ type: 'realmGarrisons', units: ['u1'] });
    // One candidate: "all of them" and "u1 alone" are the same choice, listed once.
    expect(legal.filter((o) => o.type === 'realmGarrisons' && o.units.join() === 'u1')).toHaveLength(1);
    const a = applyRealmOrder(ctx, r.state, P('k'), { type: 'realmGarrisons', units: [U('u1')] });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    const s = a.value.state;
    expect(s.players.find((p) => p.id === 'k')!.cycle).toMatchObject({ stage: 'empire', stageTurn: 17 });
    expect(s.units.u1?.kind).toBe('garrison');
    expect(s.units.u2?.kind).toBe('elite');
    expect(s.units.u3).toBeUndefined(); // the bow
    expect(s.units.u4).toBeUndefined(); // the leader
    expect(a.value.choice).toBeNull();
  });

  it('AMBIG-12: no roll in the phase the kingdom was founded', () => {
    const { state, ctx } = kingdom({ turn: 10, dice: [1, 1] });
    const r = admin(state, ctx, 'k');
    expect(r.events).toEqual([]);
    expect(r.state.riggedDice).toEqual([1, 1]);
  });

  it('D-12 turn 15: roll 2 → Rebellion → 7 (Complete Collapse) has no effect on a kingdom', () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [1, 1, 3, 4] });
    const r = admin(state, ctx, 'k');
    expect(r.events.map((e) => e.type)).toEqual(['administrationRolled', 'rebellionRolled']);
    expect(r.state.players.find((p) => p.id === 'k')!.cycle?.stage).toBe('kingdom');
    expect(Object.keys(r.state.units)).toHaveLength(5);
  });

  it('D-28: an empire rolling 7 collapses: units gone, neutral garrisons in all its cities, VP kept', () => {
    const { state, ctx } = kingdom({
      turn: 20,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'empire', money: 9, vp: 120 },
        { id: 'b', position: 'SLAV 1' },
      ],
      dice: [1, 1, 3, 4],
    });
    const r = admin(state, ctx, 'k');
    const k = r.state.players.find((p) => p.id === 'k')!;
    expect(k.status).toBe('waiting');
    expect(k.money).toBe(0);
    expect(k.finished).toEqual({ count: 1, bestVp: 120, totalVp: 120 });
    expect(Object.values(r.state.units).filter((u) => u.owner === 'k')).toEqual([]);
    for (const c of ['r0c0', 'r1c1', 'r2c1']) expect(r.state.neutrals[c]).toBeDefined();
    expect(r.choice).toBeNull();
  });

  it('D-29: Mercenaries Go Home removes one 4-2 of a kingdom (owner’s choice when several)', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      units: [
        ['k', 'infantry', 'r0c0'],
        ['k', 'infantry', 'r1c1'],
        ['k', 'infantry', 'r2c1'],
      ],
      dice: [1, 1, 4, 4],
    });
    const r = admin(state, ctx, 'k');
    expect(realmOf(r.state).pending).toMatchObject({ kind: 'units', count: 1, reason: 'mercenariesGoHome' });
    const a = applyRealmOrder(ctx, r.state, P('k'), { type: 'realmUnits', units: [U('u2')] });
    expect(a.ok && Object.keys(a.value.state.units).sort()).toEqual(['u1', 'u3']);
  });

  it('D-30: Financial Disaster takes the treasury; with an empty one an empire loses 1d6 garrisons', () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [1, 1, 1, 2] });
    const r = admin(state, ctx, 'k');
    expect(money(r.state, 'k')).toBe(0);
    expect(r.events.some((e) => e.type === 'treasuryLost')).toBe(true);
    const e = kingdom({
      turn: 20,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'empire', money: 0 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['k', 'garrison', 'r0c0'],
        ['k', 'garrison', 'r1c1'],
        ['k', 'garrison', 'r0c1'],
      ],
      dice: [1, 1, 1, 2, 6],
    });
    const r2 = admin(e.state, e.ctx, 'k');
    expect(Object.values(r2.state.units).filter((u) => u.owner === 'k')).toEqual([]);
  });

  it('D-32 / 11.7.2 result 5: the only province without the capital revolts at once', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      units: [
        ['k', 'infantry', 'r0c0'],
        ['k', 'infantry', 'r2c3'],
      ],
      owners: { r0c0: 'k', r1c1: 'k', r0c3: 'k', r2c3: 'k' },
      dice: [1, 1, 2, 3],
    });
    const r = admin(state, ctx, 'k');
    expect(r.state.units.u2).toBeUndefined();
    expect(r.state.units.u1).toBeDefined();
    expect(r.state.neutrals.r0c3).toBeDefined();
    expect(r.state.neutrals.r2c3).toBeDefined();
    expect(r.state.cities.r1c1?.owner).toBe('k');
  });

  it('D-11 / 11.7.2 result 6: civil disorder revolts unoccupied cities, never the capital', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      units: [['k', 'infantry', 'r0c0']],
      owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k', r0c3: 'k', r2c3: 'k' },
      // admin 2 → rebellion; rebellion 6; die 3 → 30% of 11 = 3.3 → 4.
      dice: [1, 1, 3, 3, 3],
    });
    const r = admin(state, ctx, 'k');
    const c = realmOf(r.state).pending;
    expect(c).toMatchObject({ kind: 'cities', target: 4 });
    const legal = realmAdminLegal(ctx, r.state, P('k'));
    expect(legal.length).toBeGreaterThan(0);
    for (const o of legal) expect(o.type === 'realmCities' && o.cities.includes('r0c0' as never)).toBe(false);
    const bad = applyRealmOrder(ctx, r.state, P('k'), { type: 'realmCities', cities: ['r1c1' as never] });
    expect(bad.ok).toBe(false);
    const good = applyRealmOrder(ctx, r.state, P('k'), legal[0]!);
    expect(good.ok).toBe(true);
  });

  it('11.7.2 result 2: a barbarian within 6 areas takes a 4-2 (the barbarian chooses)', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      units: [
        ['k', 'infantry', 'r0c0'],
        ['b', 'tribe', 'r0c2'],
      ],
      dice: [1, 1, 1, 1],
    });
    const r = admin(state, ctx, 'k');
    expect(realmWaitingFor(r.state)).toEqual(['b']);
    const a = applyRealmOrder(ctx, r.state, P('b'), { type: 'realmUnits', units: [U('u1')] });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    const taken = unitsAt(a.value.state as GameState, 'r0c0');
    expect(taken.map((u) => [u.owner, u.kind])).toEqual([['b', 'infantry']]);
  });

  it('a barbarian who left before choosing its defector: the rebel declines for it (no dead end)', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      units: [
        ['k', 'infantry', 'r0c0'],
        ['b', 'tribe', 'r0c2'],
      ],
      dice: [1, 1, 1, 1],
    });
    const r = admin(state, ctx, 'k');
    const gone = {
      ...r.state,
      players: r.state.players.map((p) =>
        p.id === 'b' ? { ...p, status: 'left' as const, cycle: null } : p,
      ),
    };
    expect(realmWaitingFor(gone)).toEqual(['k']);
    expect(realmAdminLegal(ctx, gone, P('k'))).toEqual([{ type: 'realmUnits', units: [] }]);
    expect(applyRealmOrder(ctx, gone, P('k'), { type: 'realmUnits', units: [U('u1')] }).ok).toBe(false);
    const a = applyRealmOrder(ctx, gone, P('k'), { type: 'realmUnits', units: [] });
    expect(a.ok && a.value.state.units.u1?.owner).toBe('k');
  });

  it('11.7.2 result 11: Attempted Coup is noted for the next turn; 12 revolts half, then a Revival', () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [1, 1, 5, 6] });
    const r = admin(state, ctx, 'k');
    expect(realmPlayer(r.state, P('k')).coupTurn).toBe(16);
    const k2 = kingdom({
      turn: 15,
      dice: [1, 1, 6, 6],
      owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k', r0c3: 'k' },
    });
    let s = admin(k2.state, k2.ctx, 'k');
    for (let i = 0; i < 5 && realmOf(s.state).pending; i++) {
      const o = realmAdminLegal(k2.ctx, s.state, realmWaitingFor(s.state)[0]!)[0]!;
      const a = applyRealmOrder(k2.ctx, s.state, realmWaitingFor(s.state)[0]!, o);
      if (!a.ok) throw new Error(a.error.code);
      s = a.value;
    }
    expect(realmPlayer(s.state, P('k')).revivalTurn).toBe(15);
    // 50% of 8 = 4 revolted: the unoccupied r2c1 (1) and r0c3 (2) first, then an occupied one.
    expect(s.state.cities.r0c3?.owner).toBeNull();
  });

  it('11.7.2 result 9: Army Mutiny loses ⌈die × 10 % × units⌉ (owner’s choice), then a Civil Disorder', () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [1, 1, 4, 5, 4, 1] });
    const r = admin(state, ctx, 'k');
    expect(realmOf(r.state).pending).toMatchObject({ kind: 'units', reason: 'armyMutiny', count: 2 });
    const a = applyRealmOrder(ctx, r.state, P('k'), { type: 'realmUnits', units: [U('u1'), U('u3')] });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    const s = a.value.state;
    expect(Object.keys(s.units).sort()).toEqual(['u2', 'u4', 'u5']);
    // 10 % of 6 → 1: the unoccupied r2c1 revolts (the capital never does).
    expect(s.cities.r2c1?.owner).toBeNull();
    expect(s.neutrals.r2c1).toBeDefined();
    expect(s.cities.r0c0?.owner).toBe('k');
  });

  it('11.7.2 result 4 / AMBIG-9: the player picks the coastal city; the pirates’ marker leaves it the player’s', () => {
    const { state, ctx } = kingdom({
      turn: 15,
      dice: [1, 1, 1, 3],
      owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k', r2c3: 'k' },
    });
    const r = admin(state, ctx, 'k');
    expect(realmOf(r.state).pending).toMatchObject({
      kind: 'cities',
      reason: 'pirates',
      candidates: ['r2c1', 'r2c3'],
    });
    const a = applyRealmOrder(ctx, r.state, P('k'), { type: 'realmCities', cities: [A('r2c3')] });
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.value.state.markers).toMatchObject([{ area: 'r2c3', pirates: true, digit: 0 }]);
    const owned = fixOwnership(ctx, { ...a.value.state, step: economicStep([]) });
    expect(owned.state.cities.r2c3?.owner).toBe('k');
  });

  it('10.3: a capital lost this turn brings one more rebellion after the administration result', () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [3, 4, 3, 4] });
    const g = {
      ...state,
      realm: {
        ...realmOf(state),
        players: {
          k: { ...realmPlayer(state, P('k')), capitalCapture: { turn: 15, by: P('b'), plunder: 0 } },
        },
      },
    } as Game;
    const r = admin(g as GameState, ctx, 'k');
    expect(r.events.map((e) => e.type)).toEqual(['administrationRolled', 'rebellionRolled']);
    expect(r.events[1]).toMatchObject({ cause: 'capitalLoss' });
  });
});

describe('14.3.3 column 11 reaches whoever keeps the sheet from the events', () => {
  it("the administration roll re-emits the turn's ledger row with its result", () => {
    const { state, ctx } = kingdom({ turn: 15, dice: [3, 4] });
    const economy = resolve(ctx, state);
    const emitted = economy.events.filter((e) => e.type === 'ledgerRow' && e.row.player === 'k');
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({ row: { player: 'k', turn: 15, adminResult: null } });
    const g = { ...economy.state, step: { ...adminStep([]), player: P('k') } } as Game;
    const r = administerRealm(ctx, g, P('k'));
    const rolled = r.events.find((e) => e.type === 'administrationRolled');
    expect(rolled).toMatchObject({ dice: [3, 4] });
    const echo = r.events.filter((e) => e.type === 'ledgerRow');
    expect(echo).toHaveLength(1);
    expect(echo[0]).toMatchObject({ row: { player: 'k', turn: 15, adminResult: { roll: 7 } } });
  });
});

describe('D-27 advanced-VC abandonment gate (14.3.2)', () => {
  it.each([
    [9, 'advanced', true],
    [10, 'advanced', false],
    [10, 'basic', true],
  ] as const)('income %i under %s → may abandon %s', (income, victory, allowed) => {
    const { state, ctx } = kingdom();
    const g = {
      ...state,
      realm: { ...realmOf(state), players: { k: { ...realmPlayer(state, P('k')), lastIncome: income } } },
    } as Game;
    expect(mayAbandon({ ...ctx, options: { ...ctx.options, victory } }, g, P('k') as PlayerId)).toBe(allowed);
  });
});

describe('D-27 through the engine (14.3.2)', () => {
  it('declaring an abandon is refused under the advanced conditions at income 10, allowed at 9', async () => {
    const { scenario: sc } = await import('../helpers/scenario.ts');
    const { REALM_MAP } = await import('./fixture.ts');
    const { engine, state } = sc({
      map: REALM_MAP,
      players: [{ id: 'k', position: 'GERMAN 1', stage: 'kingdom' }],
      step: { kind: 'economic', pending: [P('k')], pillage: {} },
    });
    const at = (income: number) =>
      ({
        ...state,
        options: { ...state.options, victory: 'advanced' as const },
        realm: { ...realmOf(state), players: { k: { ...realmPlayer(state, P('k')), lastIncome: income } } },
      }) as GameState;
    const refused = engine.applyOrder(at(10), P('k'), { type: 'declareAbandon', abandon: true });
    expect(refused.ok ? null : refused.error.code).toBe('order/abandon_not_allowed');
    expect(engine.applyOrder(at(9), P('k'), { type: 'declareAbandon', abandon: true }).ok).toBe(true);
  });
});
