/**
 * Optional rules of section 13 handled by part 2, each behind its option: optional leaders (13.6,
 * C.5.b), tribute (13.7, AMBIG-20) and the Persian kingdom (13.2.3, D-22, AMBIG-60).
 */
import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import { assignLeaderType, LEADER_PROFILES, leaderTypeFor } from '../../src/diplomacy/leaders.ts';
import { tributeAllowance } from '../../src/diplomacy/tribute.ts';
import type { GameState, MapInput } from '../../src/index.ts';
import { persianStartAreas, startPersianKingdom } from '../../src/kingdom/persian.ts';
import { runRealmAdministration } from '../../src/ledger/administration.ts';
import { ledgerProblems } from '../../src/ledger/record.ts';
import { applyRealmOrder, realmAnytimeLegal, resolveEconomicWithRealms } from '../../src/ledger/seam.ts';
import { patchRealmPlayer, realmOf, realmPlayer } from '../../src/ledger/state.ts';
import { collect } from '../../src/phases/economic.ts';
import type { Game } from '../../src/state-ops.ts';
import { A, adminStep, P, phase, scenario } from '../helpers/scenario.ts';
import { economicStep, realmScenario } from './realm-fixture.ts';

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
    const row = realmOf(econ.state).ledger.find((r) => r.player === 'b');
    expect(row).toMatchObject({ other: 3, carried: 0, vp: 23 });
    expect(ledgerProblems(realmOf(econ.state).ledger)).toEqual([]);
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
    const t = startPersianKingdom(ctx, state, P('x'), A('ecbatana'));
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
    const t2 = startPersianKingdom(withCities.ctx, withCities.state, P('x'), A('ecbatana'));
    expect(t2.state.players[0]!.capital).toBe('susa');
    expect(t2.state.cities.ecbatana?.owner).toBe('x');
  });
});

export type { GameState };
