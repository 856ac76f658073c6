/**
 * Optional rules of section 13 for kingdoms and empires, each behind its option: optional leaders (13.6,
 * C.5.b), tribute (13.7, AMBIG-20) and the Persian kingdom (13.2.3, D-22, AMBIG-60).
 */
import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import { assignLeaderType, LEADER_PROFILES, leaderTypeFor } from '../../src/diplomacy/leader-types.ts';
import { tributeAllowance } from '../../src/diplomacy/tribute.ts';
import type { GameState, MapInput } from '../../src/index.ts';
import { patchRealmPlayer, realmOf, realmPlayer } from '../../src/model/realm.ts';
import type { Game } from '../../src/model/state-ops.ts';
import { realmAnytimeLegal } from '../../src/realm/diplomacy-orders.ts';
import { realmEconomicLegal, resolveEconomicWithRealms } from '../../src/realm/economic-orders.ts';
import { runRealmAdministration } from '../../src/realm/realm-administration.ts';
import { applyRealmOrder } from '../../src/realm/realm-orders.ts';
import { ledgerProblems } from '../../src/realm/record.ts';
import {
  persianArmyChoices,
  persianStartAreas,
  placePersianArmy,
  startPersianKingdom,
} from '../../src/scenario/persian.ts';
import { collect } from '../../src/turn/economic.ts';
import { A, adminStep, P, phase, scenario } from '../helpers/scenario.ts';
import { economicStep, realmScenario } from '../realm/fixture.ts';

describe('13.6 optional leaders (opt.optionalLeaders)', () => {
  it('the type is rolled on 1d6 only with the option; C.5.b profiles', () => {
    const on = realmScenario({
      players: [{ id: 'k', position: 'GERMAN 1', stage: 'kingdom' }],
      options: { opt: { optionalLeaders: true } },
      dice: [5],
    });
    const r = assignLeaderType(on.ctx.options, on.state, P('k'));
    expect(realmPlayer(r.state, P('k')).leaderType).toBe('administrator');
    expect(r.events).toEqual([
      { type: 'leaderTypeRolled', player: 'k', die: 5, leaderType: 'administrator' },
    ]);
    const off = realmScenario({ players: [{ id: 'k', position: 'GERMAN 1', stage: 'kingdom' }], dice: [5] });
    expect(assignLeaderType(off.ctx.options, off.state, P('k')).events).toEqual([]);
    expect(leaderTypeFor(1)).toBe('naval');
    expect(LEADER_PROFILES.naval).toMatchObject({ land: 1, naval: 2, sinking: 1 });
    expect(LEADER_PROFILES.general).toMatchObject({ land: 2, naval: 1 });
  });
  it('an administrator in the capital area reads two columns to the right; a dynastic leader stays in the empire', () => {
    const base = realmScenario({
      turn: 15,
      players: [{ id: 'k', position: 'GERMAN 1', stage: 'kingdom' }],
      units: [
        ['k', 'infantry', 'r0c0'],
        ['k', 'leader', 'r0c0'],
      ],
      owners: { r0c0: 'k' },
      capitals: { k: 'r0c0' },
      stageTurns: { k: 10 },
      options: { opt: { optionalLeaders: true } },
      dice: [3, 3],
    });
    const adm = patchRealmPlayer(base.state, P('k'), { leaderType: 'administrator' });
    const r = runRealmAdministration(
      base.ctx,
      { ...adm, step: { ...adminStep([]), player: P('k') } } as Game,
      P('k'),
    );
    expect(r.events[0]).toMatchObject({ type: 'administrationRolled', percent: 20, result: 7 });
    // Dynastic: the roll 4+4 on 0 % gives 6 < 7 turns → empire, and the leader is kept.
    const dyn = patchRealmPlayer({ ...base.state, turn: 17, riggedDice: [4, 4] }, P('k'), {
      leaderType: 'dynastic',
    });
    const e = runRealmAdministration(
      base.ctx,
      { ...dyn, step: { ...adminStep([]), player: P('k') } } as Game,
      P('k'),
    );
    const answered = applyRealmOrder(base.ctx, e.state, P('k'), { type: 'realmGarrisons', units: [] });
    expect(answered.ok && answered.value.state.units.u2?.kind).toBe('leader');
  });
});

describe('13.7 tribute (opt.tribute)', () => {
  function world(tribute: boolean) {
    return realmScenario({
      turn: 12,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 12 },
        { id: 'b', position: 'SLAV 1', vp: 20 },
      ],
      units: [
        ['k', 'infantry', 'r0c0'],
        ['b', 'tribe', 'r0c1'], // next to k's city r0c0
      ],
      owners: { r0c0: 'k' },
      capitals: { k: 'r0c0' },
      options: { opt: { tribute } },
      step: phase('b', 'movement'),
    });
  }
  it('a kingdom may pay a barbarian next to its city up to 5 a turn, before the barbarian’s combat', () => {
    const { state, ctx } = world(true);
    expect(realmAnytimeLegal(ctx, state, P('k')).map((o) => o.type === 'realmTribute' && o.amount)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(realmAnytimeLegal(ctx, state, P('b'))).toEqual([]); // barbarians never pay (and b is phasing)
    const paid = applyRealmOrder(ctx, state, P('k'), { type: 'realmTribute', to: P('b'), amount: 3 });
    expect(paid.ok).toBe(true);
    if (!paid.ok) return;
    const s = paid.value.state;
    expect(s.players.map((p) => [p.id, p.money, p.cycle?.vp])).toEqual([
      ['k', 9, 0],
      ['b', 3, 23],
    ]);
    expect(tributeAllowance(ctx, s, P('k'), P('b'))).toBe(2);
    expect(applyRealmOrder(ctx, s, P('k'), { type: 'realmTribute', to: P('b'), amount: 3 }).ok).toBe(false);
    expect(tributeAllowance(ctx, { ...s, step: phase('b', 'combat') }, P('k'), P('b'))).toBe(0);
    // The tribute is the barbarian's column 3 at its next economic phase; the ledger adds up.
    const econ = resolveEconomicWithRealms(ctx, { ...s, step: economicStep([]) }, (x, id) =>
      collect(ctx, x, id, []),
    );
    const row = realmOf(econ.state).sheet.find((r) => r.player === 'b');
    expect(row).toMatchObject({ other: 3, carried: 0, vp: 23 });
    expect(ledgerProblems(realmOf(econ.state).sheet)).toEqual([]);
  });
  it('off without the option', () => {
    const { state, ctx } = world(false);
    expect(realmAnytimeLegal(ctx, state, P('k'))).toEqual([]);
    expect(applyRealmOrder(ctx, state, P('k'), { type: 'realmTribute', to: P('b'), amount: 1 }).ok).toBe(
      false,
    );
  });
});

describe('13.2.3 the Persian kingdom (D-22, AMBIG-60)', () => {
  const map = loadMap() as unknown as MapInput;
  function persia(turn: number, persianOwnsStartCities = false) {
    return scenario({
      map,
      turn,
      players: [{ id: 'x', position: 'PERSIAN', stage: 'barbarian', startedTurn: turn }],
      options: { opt: { persianKingdom: true }, cfg: { persianOwnsStartCities } },
    });
  }
  it('no Persian before turn 7; from turn 7 it sets up in Persia as a kingdom since the previous turn', () => {
    const early = persia(6);
    expect(persianStartAreas(early.ctx, { ...early.state, players: [] })).toEqual([]);
    const { state, ctx } = persia(9);
    const free = persianStartAreas(ctx, { ...state, players: [] });
    expect(free).toContain('ecbatana');
    expect(state.neutrals.ecbatana).toBeDefined();
    const started = startPersianKingdom(ctx, state, P('x'));
    // 13.2.3: the player picks the army; the first offered is the default (4-4, 4-2, 2-3).
    const army = persianArmyChoices(ctx, started.state, A('ecbatana'))[0]!;
    const t = placePersianArmy(started.state, P('x'), army);
    const x = t.state.players[0]!;
    expect(x.cycle).toMatchObject({ stage: 'kingdom', stageTurn: 8 });
    expect(x.money).toBe(6);
    expect(x.cycle?.vp).toBe(0); // the starting treasury is not income
    expect(x.capital).toBeNull(); // AMBIG-60: placed once Persia owns a city
    const kinds = Object.values(t.state.units)
      .map((u) => u.kind)
      .sort();
    expect(kinds).toEqual(['bow', 'cavalry', 'infantry', 'leader']);
    expect(t.state.neutrals.ecbatana).toBeUndefined();
    expect(t.state.neutrals.susa).toBeUndefined();
    const withCities = persia(9, true);
    const t2 = startPersianKingdom(withCities.ctx, withCities.state, P('x'));
    expect(t2.state.players[0]!.capital).toBe('susa');
    expect(t2.state.cities.ecbatana?.owner).toBe('x');
  });
});

export type { GameState };

describe('13.3 auctions (opt.auction, D-21 in play)', () => {
  function short(auction: boolean) {
    return realmScenario({
      turn: 20,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 0 },
        { id: 'b', position: 'SLAV 1', money: 9, vp: 30 },
        { id: 'k', position: 'TURK', stage: 'kingdom', money: 6 },
      ],
      units: [
        ['e', 'elite', 'r1c1'], // u1: 5
        ['e', 'infantry', 'r0c0'], // u2: 3 (capital area)
        ['e', 'garrison', 'r2c1'], // u3: 1
        ['b', 'tribe', 'r0c3'],
        ['k', 'infantry', 'r2c3'],
      ],
      owners: { r0c0: 'e', r2c1: 'e', r2c3: 'k' },
      capitals: { e: 'r0c0', k: 'r2c3' },
      options: { opt: { auction } },
      step: economicStep(['e', 'b', 'k']),
    });
  }
  it('the unpaid elite goes to the best bid, as the winner’s own kind; the bid is paid to nobody', () => {
    const { state, ctx } = short(true);
    // e: tax 3+1+2 = 6 against upkeep 9: disband (auction) the elite alone is minimal.
    const legalB = realmEconomicLegalFor(ctx, state, 'b');
    expect(legalB).toContainEqual({ type: 'realmBid', auctioneer: 'e', kind: 'elite', amount: 5 });
    let s = state as Game;
    for (const [who, order] of [
      ['b', { type: 'realmBid', auctioneer: P('e'), kind: 'elite', amount: 8 }],
      ['k', { type: 'realmBid', auctioneer: P('e'), kind: 'elite', amount: 5 }],
      [
        'e',
        { type: 'realmPlan', plan: { disband: ['u1'], garrisonDisband: [], purchases: [], adminPercent: 0 } },
      ],
    ] as const) {
      const r = applyRealmOrder(ctx, s, P(who), order as never);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      s = r.value.state;
    }
    const r = resolveEconomicWithRealms(ctx, s, (x, id) => collect(ctx, x, id, []));
    const sold = r.events.find((e) => e.type === 'unitAuctioned');
    expect(sold).toMatchObject({ auctioneer: 'e', unit: 'u1', winner: 'b', bid: 8 });
    const bought = Object.values(r.state.units).filter((u) => u.owner === 'b' && u.area === 'r1c1');
    expect(bought.map((u) => u.kind)).toEqual(['barbarianHorse']);
    const b = r.state.players.find((p) => p.id === 'b')!;
    expect(b.money).toBe(1); // 9 − 8, no income from the sale
    expect(b.cycle?.vp).toBe(30);
    expect(r.state.players.find((p) => p.id === 'e')!.money).toBe(2); // 6 tax − 4 upkeep left
    expect(ledgerProblems(realmOf(r.state).sheet)).toEqual([]);
  });
  it('without the option there are no bids and the unit is simply disbanded', () => {
    const { state, ctx } = short(false);
    expect(realmEconomicLegalFor(ctx, state, 'b')).toEqual([]);
  });
});

function realmEconomicLegalFor(ctx: Parameters<typeof realmAnytimeLegal>[0], g: Game, who: string) {
  return realmEconomicLegal(ctx, g, P(who));
}
