/**
 * D-12 (14.3.3): the turn-record-sheet cycle of a GERMAN 1 player, scripted with fixed dice from
 * the kingdom's founding (turn 10) to the empire's Complete Collapse (turn 30). The printed sheet's
 * numbers are lost (C.9), so the script reproduces every event of the narrative and checks the
 * rules' effects and the ledger arithmetic; the dice for each Administration roll are chosen for
 * the column the player bought, so that the table result is the book's.
 */
import { describe, expect, it } from 'vitest';
import { countdownEnds, kingdomTurn } from '../../src/barbarian/countdown.ts';
import type { GameState, PlayerId } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import type { EconomicPlan } from '../../src/model/orders.ts';
import { playerById } from '../../src/model/queries.ts';
import type { AdministrationResult } from '../../src/model/realm.ts';
import { realmOf, realmPlayer } from '../../src/model/realm.ts';
import type { Game } from '../../src/model/state-ops.ts';
import { adminColumns, adminTableResult, turnsCounted } from '../../src/realm/administration-columns.ts';
import { realmWaitingFor } from '../../src/realm/choices.ts';
import { resolveEconomicWithRealms } from '../../src/realm/economic-orders.ts';
import { defaultPlan, economyPreview, moneyAfterUpkeep } from '../../src/realm/economy.ts';
import { administerRealm } from '../../src/realm/realm-administration.ts';
import { applyRealmOrder } from '../../src/realm/realm-orders.ts';
import { advancedAverage, formatAverage, ledgerProblems } from '../../src/realm/record.ts';
import { convertUnits, foundKingdom } from '../../src/turn/administration-phase.ts';
import { collect, fixOwnership } from '../../src/turn/economic.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { RecordSheet } from '../helpers/record-sheet.ts';
import { A, adminStep, P, scenario, U } from '../helpers/scenario.ts';

// Home (cols 0–1): H1 r0c0 (3), H2 r1c1 (2), H3 r2c0 (2, coast). East (cols 2–3): E1 r0c2, E2 r1c3 (2 each).
// South (cols 4–5): S1 r0c4 (3), S2 r1c5 (3), S3 r2c4 (2, coast). The sea "mare" runs along row 2.
const H1 = 'r0c0';
const H2 = 'r1c1';
const H3 = 'r2c0';
const S1 = 'r0c4';
const S2 = 'r1c5';
const MAP = gridMap({
  rows: 3,
  cols: 6,
  cities: {
    [H1]: { tax: 3 },
    [H2]: { tax: 2 },
    [H3]: { tax: 2 },
    r0c2: { tax: 2 },
    r1c3: { tax: 2 },
    [S1]: { tax: 3 },
    [S2]: { tax: 3 },
    r2c4: { tax: 2 },
  },
  provinces: Object.fromEntries(
    [0, 1, 2].flatMap((r) =>
      [0, 1, 2, 3, 4, 5].map((c) => [`r${r}c${c}`, c < 2 ? 'home' : c < 4 ? 'east' : 'south']),
    ),
  ),
  seas: { mare: { shores: ['r2c0', 'r2c1', 'r2c2', 'r2c3', 'r2c4', 'r2c5'] } },
});

const G = P('g');
const BARBARIAN_VP = 40;

function start(): { state: Game; ctx: EngineContext } {
  const { state, ctx } = scenario({
    map: MAP,
    turn: 10,
    players: [
      { id: 'g', position: 'GERMAN 1', countdown: 4, money: 4, vp: BARBARIAN_VP },
      { id: 'x', position: 'SLAV 1', startedTurn: 2 },
    ],
    units: [
      ['g', 'barbarianInfantry', H1], // u1 → 4-2
      ['g', 'barbarianInfantry', 'r0c2'], // u2 → 4-2 (east)
      ['g', 'barbarianHorse', S2], // u3 → 4-4 → 5-3
      ['g', 'horseBow', S2], // u4 → 2-3, removed at empire
      ['g', 'barbarianHorse', 'r1c0'], // u5 → 4-4 → 5-3 (home, no city)
      ['g', 'tribe', 'r1c2'], // u6, removed at kingdom
      ['x', 'tribe', 'r0c5'], // u7
    ],
    neutrals: {},
  });
  const cities = { ...state.cities };
  for (const a of [H1, H2, H3, 'r0c2', 'r1c3', S1, S2, 'r2c4']) cities[a] = { owner: G, everOwned: true };
  const players = state.players.map((p) => (p.id === 'g' ? { ...p, turnsPlayed: 9 } : p));
  return { state: { ...state, cities, players, neutrals: {} } as Game, ctx };
}

/** Rigged 2d6 (as two dice) giving a result that satisfies `want` on this column. */
function diceFor(percent: number, want: (r: AdministrationResult) => boolean): [number, number] {
  for (let roll = 2; roll <= 12; roll++)
    if (want(adminTableResult(percent, roll))) return [Math.max(1, roll - 6), Math.min(6, roll - 1)];
  throw new Error(`no roll on ${percent}% gives the wanted result`);
}

describe('D-12 the German-1 cycle (14.3.3, 10, 11, 11.7)', () => {
  it('plays turns 10–30 through every event of the turn-record example', () => {
    expect(kingdomTurn('GERMAN', 4)).toBe(10); // 16 tribes on turn 4 → kingdom on turn 10
    expect(countdownEnds('GERMAN', 4, 9)).toBe(false);
    let { state: s, ctx } = start();
    const log: string[] = [];
    const sheet = new RecordSheet();

    // Turn 10, administration: the countdown ends → kingdom (10.1): flips, tribes gone, leader + capital.
    expect(countdownEnds('GERMAN', 4, 10)).toBe(true);
    s = convertUnits(s, G).state;
    s = foundKingdom(ctx, s, G, U('u1'), A(H1)).state;
    expect(playerById(s, G)!.cycle).toMatchObject({ stage: 'kingdom', stageTurn: 10 });
    expect(s.units.u6).toBeUndefined();
    expect(s.units.u1?.kind).toBe('infantry');
    expect(s.units.u3?.kind).toBe('cavalry');
    expect(s.units.u4?.kind).toBe('bow');

    const economic = (plan: (pv: NonNullable<ReturnType<typeof economyPreview>>) => EconomicPlan | null) => {
      s = fixOwnership(ctx, { ...s, step: { kind: 'economic', pending: [G], pillage: {} } }).state;
      const pv = economyPreview(ctx, s, G)!;
      const p = plan(pv);
      if (p) {
        const a = applyRealmOrder(ctx, s, G, { type: 'realmPlan', plan: p });
        if (!a.ok) throw new Error(`turn ${s.turn}: plan refused ${JSON.stringify(a.error)}`);
        s = a.value.state;
      }
      const r = resolveEconomicWithRealms(ctx, s, (x, id) => collect(ctx, x, id, []));
      sheet.keep(r.events);
      s = r.state;
    };
    /** Spend on administration up to 30 % while keeping `keep` in the treasury. */
    const spend =
      (max = 30) =>
      (pv: NonNullable<ReturnType<typeof economyPreview>>) => {
        const base = defaultPlan(pv);
        const left = moneyAfterUpkeep(pv, base);
        const cols = adminColumns(ctx.options, pv.tax).filter((c) => c.percent <= max && c.cost <= left);
        return { ...base, adminPercent: cols.at(-1)?.percent ?? 0 };
      };
    const administration = (
      want: (r: AdministrationResult) => boolean,
      extra: number[] = [],
      answers: unknown[] = [],
    ) => {
      const percent = realmPlayer(s, G).adminPercent;
      const dice = diceFor(percent, want);
      s = { ...s, riggedDice: [...dice, ...extra], step: { ...adminStep([]), player: G } } as Game;
      let r = administerRealm(ctx, s, G);
      s = r.state;
      const all = [...r.events];
      // A choice with a single legal answer is made by the engine; the scripted answer is then moot.
      for (const answer of answers) {
        if (!realmOf(s).pending) break;
        const who = realmWaitingFor(s)[0]!;
        const a = applyRealmOrder(ctx, s, who, answer as never);
        if (!a.ok) throw new Error(`turn ${s.turn}: answer refused ${JSON.stringify(a.error)}`);
        r = a.value;
        s = r.state;
        all.push(...r.events);
      }
      expect(realmOf(s).pending).toBeNull();
      expect(s.riggedDice).toEqual([]);
      log.push(`${s.turn}: ${all.map((e) => e.type).join(',')}`);
      sheet.keep(all);
      return all;
    };
    const counted = () => {
      const c = playerById(s, G)!.cycle!;
      return turnsCounted(s.turn, c.stageTurn, realmPlayer(s, G).revivalTurn);
    };
    const quiet = (r: AdministrationResult) => typeof r === 'number' && r >= counted();
    const nextTurn = () => {
      s = {
        ...s,
        turn: s.turn + 1,
        players: s.players.map((p) => (p.id === 'g' ? { ...p, turnsPlayed: p.turnsPlayed + 1 } : p)),
      };
    };

    for (let t = 11; t <= 14; t++) {
      nextTurn();
      economic(spend());
      administration(quiet);
    }
    // Turn 15: roll 2 → Rebellion; Rebellion 7 → no effect on a kingdom (11.7.2).
    nextTurn();
    economic(spend());
    administration((r) => r === 'rebellion', [3, 4]);
    expect(playerById(s, G)!.cycle!.stage).toBe('kingdom');
    nextTurn();
    economic(spend());
    administration(quiet);
    // Turn 17: result 6 against 7 kingdom turns → empire; no 4-2 becomes a garrison.
    nextTurn();
    economic(spend(10)); // the table has a 6 on the 0 %, 10 % and 30 % columns only
    administration((r) => r === 6, [], [{ type: 'realmGarrisons', units: [] }]);
    expect(playerById(s, G)!.cycle).toMatchObject({ stage: 'empire', stageTurn: 17 });
    expect(s.units.u3?.kind).toBe('elite');
    expect(s.units.u4).toBeUndefined();
    expect(Object.values(s.units).some((u) => u.owner === G && u.kind === 'leader')).toBe(false);
    for (let t = 18; t <= 21; t++) {
      nextTurn();
      economic(spend());
      administration(quiet);
    }
    // Turn 22: result 4 against 5 empire turns → Rebellion 5: the east (2 friendly cities) revolts.
    nextTurn();
    economic(spend(20)); // no 4 on the 30 % column
    administration((r) => r === 4, [2, 3], [{ type: 'realmProvince', province: 'east' }]);
    expect(s.cities.r0c2?.owner).toBeNull();
    expect(s.neutrals.r1c3).toBeDefined();
    expect(s.units.u2).toBeUndefined();
    nextTurn();
    economic(spend());
    administration(quiet);
    // Turn 24: the capital is taken (x stands in H1 at the tax collection); the 4-2 stepped out to H2.
    nextTurn();
    s = {
      ...s,
      units: {
        ...s.units,
        u1: { ...s.units.u1!, area: A(H2) },
        x1: { id: U('x1'), owner: P('x'), kind: 'barbarianInfantry', area: A(H1) },
      },
    };
    economic((pv) => {
      // Keep exactly 1 in the treasury (the book's position before the rebellions).
      const left = pv.available - pv.upkeep;
      const col = adminColumns(ctx.options, pv.tax).find((c) => left - c.cost === 1);
      if (!col) throw new Error(`cannot leave 1 (left ${left})`);
      return { disband: [], garrisonDisband: [], purchases: [], adminPercent: col.percent, capital: A(H2) };
    });
    expect(realmPlayer(s, G).capitalCapture).toMatchObject({ turn: 24, by: 'x' });
    expect(playerById(s, G)!.money).toBe(1);
    // Administration rebellion 3 (treasury 1 → 0, no garrison lost), then the capital-loss rebellion 4 (pirates).
    const r24 = administration(
      (r) => r === 'rebellion',
      [1, 2, 1, 3],
      [{ type: 'realmCities', cities: [A(H3)] }],
    );
    expect(r24.filter((e) => e.type === 'rebellionRolled').map((e) => 'result' in e && e.result)).toEqual([
      'financialDisaster',
      'pirateAttack',
    ]);
    expect(playerById(s, G)!.money).toBe(0);
    expect(s.markers.some((m) => m.area === H3)).toBe(true);
    expect(s.cities[H3]?.owner).toBe(G); // AMBIG-9: pirates do not take the city
    // The barbarian leaves; the 4-2 goes back to H1.
    nextTurn();
    const { x1: _gone, ...units } = s.units;
    s = { ...s, units: { ...units, u1: { ...units.u1!, area: A(H1) } } };
    economic(spend());
    administration(quiet);
    // Turn 26: income 15 = 13 + capital 2; Rebellion 6, die 2 → 20 % × 13 → 3 tax value revolts.
    nextTurn();
    economic(spend());
    expect(sheet.rows().at(-1)).toMatchObject({ turn: 26, tax: 15 });
    administration(
      (r) => (typeof r !== 'number' ? r === 'rebellion' : r < counted()),
      [3, 3, 2],
      [{ type: 'realmCities', cities: [A(S1)] }],
    );
    expect(s.cities[S1]?.owner).toBeNull();
    expect(s.neutrals[S1]).toBeDefined();
    // Turn 27: Rebellion 8 → the last 4-2 goes home.
    nextTurn();
    economic(spend());
    administration((r) => (typeof r !== 'number' ? r === 'rebellion' : r < counted()), [4, 4]);
    expect(Object.values(s.units).filter((u) => u.owner === G && u.kind === 'infantry')).toEqual([]);
    nextTurn();
    economic(spend());
    administration((r) => r === 'goodRuler');
    // Turn 29: Rebellion 6, die 5 → 50 % of the city value revolts (the pirates' H3 still pays nothing).
    nextTurn();
    economic(spend());
    const valueBefore = Object.entries(s.cities).filter(
      ([a, c]) => c.owner === G && !s.markers.some((m) => m.area === a),
    ).length;
    expect(valueBefore).toBeGreaterThan(2);
    administration(
      (r) => (typeof r !== 'number' ? r === 'rebellion' : r < counted()),
      [3, 3, 5],
      [{ type: 'realmCities', cities: [A(H1), A('r2c4')] }],
    );
    expect(s.cities[H1]?.owner).toBeNull();
    expect(s.cities[H2]?.owner).toBe(G); // the capital never revolts
    // Turn 30: Rebellion 7 → Complete Collapse of the empire.
    nextTurn();
    economic(spend());
    const vpBefore = playerById(s, G)!.cycle!.vp;
    administration((r) => (typeof r !== 'number' ? r === 'rebellion' : r < counted()), [3, 4]);
    const g = playerById(s, G)!;
    expect(g.status).toBe('waiting');
    expect(g.money).toBe(0);
    expect(Object.values(s.units).filter((u) => u.owner === G)).toEqual([]);
    expect(s.neutrals[H2]).toBeDefined();
    expect(g.finished).toMatchObject({ count: 1, bestVp: vpBefore, totalVp: vpBefore });

    // The ledger adds up, VP never fall, and the cycle's VP is the barbarian VP + every income row.
    const rows = sheet.rows().filter((r) => r.player === G);
    expect(rows.map((r) => r.turn)).toEqual([
      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    ]);
    expect(ledgerProblems(rows)).toEqual([]);
    expect(vpBefore).toBe(BARBARIAN_VP + rows.reduce((t, r) => t + r.tax + r.other, 0));
    expect(rows.find((r) => r.turn === 24)?.adminResult?.rebellions).toEqual([3, 4]);
    expect(rows.find((r) => r.turn === 17)?.adminResult?.becameEmpire).toBe(true);
    // Turn 31: a new Hun cycle (0 VP) — the advanced average counts all 31 turns (D-13 shape).
    nextTurn();
    const turns = playerById(s, G)!.turnsPlayed;
    expect(turns).toBe(30);
    expect(formatAverage(advancedAverage([{ vp: 300, turns: turns + 1 }]))).toBe('9.68');
    expect(log.length).toBe(20);
  });
});

export type { GameState, PlayerId };
