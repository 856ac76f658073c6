/**
 * Part D golden cases of kingdoms and empires, as data citing their section. Pure rule functions only;
 * the state-driven cases are in economy.test.ts, administration.test.ts and cycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { auctionReplacement, biddingOrder, minimumBid, settleAuction } from '../../src/diplomacy/auction.ts';
import { DEFAULT_OPTIONS, type Options, type UnitKind } from '../../src/index.ts';
import { defaultDisband, isMinimalDisband, totalUpkeep, upkeepOf } from '../../src/model/upkeep.ts';
import { interceptionOutcome } from '../../src/naval/interception.ts';
import {
  sinkingModifier,
  sinksAfterInterceptionRetreat,
  sinksAfterMove,
  sinksRetreatingAcrossSea,
} from '../../src/naval/sinking.ts';
import {
  adminColumnCost,
  adminTableResult,
  effectivePercent,
  numberOutcome,
  percentForSpend,
  turnsCounted,
} from '../../src/realm/administration-columns.ts';
import { elitesMayRefuse, isRetreatResult } from '../../src/realm/elite.ts';
import { capitalSplit, modifiedTax, unmodifiedIncome } from '../../src/realm/income.ts';
import type { RevoltCity } from '../../src/realm/rebellion.ts';
import {
  civilDisorderTarget,
  collapses,
  defaultRevolt,
  financialDisaster,
  isLegalRevolt,
  mercenariesGoHome,
  mutinyLoss,
  rebellionResult,
  revoltableProvinces,
} from '../../src/realm/rebellion.ts';
import { advancedAverage, basicScore, formatAverage } from '../../src/realm/record.ts';
import { isPersianArmy, persianMayStart, persianStageTurn } from '../../src/scenario/persian.ts';

const O: Options = DEFAULT_OPTIONS;
const withCfg = (cfg: Partial<Options['cfg']>): Options => ({ ...O, cfg: { ...O.cfg, ...cfg } });

describe('D-3 administration spending thresholds (10.6.1)', () => {
  it.each([
    [10, 2],
    [20, 4],
    [30, 5],
    [40, 7],
    [0, 0],
  ])('income 16: the %i%% column costs %i', (percent, cost) => {
    expect(adminColumnCost(O, 16, percent)).toBe(cost);
  });
  it.each([
    [3, 10],
    [5, 30],
    [0, 0],
    [4, 20],
  ])('income 16: spending %i reaches the %i%% column', (spent, percent) => {
    expect(percentForSpend(O, 16, spent)).toBe(percent);
  });
  it('Viking or Hun: a nominal 20% reads 10%, and 0% stays 0% (penalty floor)', () => {
    expect(effectivePercent(O, 'VIKING', percentForSpend(O, 16, 4))).toBe(10);
    expect(effectivePercent(O, 'HUN', 0)).toBe(0);
    expect(effectivePercent(O, 'GERMAN', 20)).toBe(20);
  });
  it('AMBIG-11: no column above 60%; income 0 costs one per step by default', () => {
    expect(adminColumnCost(O, 16, 70)).toBeNull();
    expect(adminColumnCost(O, 0, 30)).toBe(3);
    expect(adminColumnCost(withCfg({ adminZeroIncome: 'only0' }), 0, 10)).toBeNull();
    expect(adminColumnCost(withCfg({ adminZeroIncome: 'literalFree' }), 0, 10)).toBe(0);
  });
});

describe('D-5 administration number result vs turns in the stage (10.6.2, 11.6)', () => {
  it('the book cell: 20% column, 2+4 → 7', () => {
    expect(adminTableResult(20, 6)).toBe(7);
  });
  it('kingdom since 19: on turn 27 it becomes an empire, on turn 26 nothing', () => {
    expect(numberOutcome('kingdom', 7, turnsCounted(27, 19, null))).toBe('becomeEmpire');
    expect(numberOutcome('kingdom', 7, turnsCounted(26, 19, null))).toBe('none');
  });
  it('empire since 17, result 4 on turn 22 → rebellion; after a Revival on 20 → nothing', () => {
    expect(numberOutcome('empire', 4, turnsCounted(22, 17, null))).toBe('rebellion');
    expect(numberOutcome('empire', 4, turnsCounted(22, 17, 20))).toBe('none');
  });
  it('AMBIG-35: a kingdom Revival does not count in the empire (stage entered later)', () => {
    expect(turnsCounted(22, 17, 15)).toBe(5);
  });
  it('15: no empire before the 4th kingdom turn: the smallest number on the table is 3', () => {
    for (let roll = 2; roll <= 12; roll++)
      for (let p = 0; p <= 60; p += 10) {
        const r = adminTableResult(p, roll);
        if (typeof r === 'number') expect(r).toBeGreaterThanOrEqual(3);
      }
  });
});

describe('D-7 capital capture treasury split (10.3)', () => {
  it.each([
    [10, 3, 3, 4],
    [20, 6, 6, 8],
    [2, 0, 0, 2],
    [0, 0, 0, 0],
  ])('treasury %i: owner keeps %i, capturer gets %i, %i lost', (t, kept, plunder, lost) => {
    expect(capitalSplit(t)).toEqual({ kept, plunder, lost });
  });
});

describe('D-10 upkeep total (14.3.3, 10.4, 11.2)', () => {
  const kingdom: UnitKind[] = [
    'infantry',
    'infantry',
    'infantry',
    'infantry',
    'cavalry',
    'bow',
    'bow',
    'ship',
    'leader',
  ];
  it('a kingdom with 4×4-2, 4-4, 2×2-3, 1-4 owes 15', () => {
    expect(totalUpkeep(kingdom, 'kingdom')).toBe(15);
  });
  it('the same as an empire (4-4 → 5-3, bows gone) owes 19; with the 4-2s as garrisons 11', () => {
    expect(totalUpkeep(['infantry', 'infantry', 'infantry', 'infantry', 'elite', 'ship'], 'empire')).toBe(19);
    expect(totalUpkeep(['garrison', 'garrison', 'garrison', 'garrison', 'elite', 'ship'], 'empire')).toBe(11);
  });
  it('barbarians pay nothing, whatever they hold (9.4)', () => {
    expect(upkeepOf('ship', 'barbarian')).toBe(0);
    expect(upkeepOf('infantry', 'barbarian')).toBe(0);
  });
  it('money 14, upkeep 15: disbanding one 2-3 is minimal, two is too many, none is too few', () => {
    const up = kingdom.map((k) => upkeepOf(k, 'kingdom'));
    expect(isMinimalDisband(up, [1], 14)).toBe(true);
    expect(isMinimalDisband(up, [1, 1], 14)).toBe(false);
    expect(isMinimalDisband(up, [], 14)).toBe(false);
    expect(isMinimalDisband(up, [3], 14)).toBe(true); // the 4-4 alone is also minimal
    expect(isMinimalDisband(up, [1], 15)).toBe(false); // no disbanding unless short
    const chosen = defaultDisband(up, 14);
    expect(
      isMinimalDisband(
        up,
        chosen.map((i) => up[i]!),
        14,
      ),
    ).toBe(true);
  });
});

describe('D-11 civil disorder amount (14.3.3 turn 26, 11.7.2)', () => {
  it.each([
    [20, 13, 3],
    [50, 13, 7],
    [60, 13, 8],
  ])('%i%% of 13 → %i', (pct, base, target) => {
    expect(civilDisorderTarget(pct, base)).toBe(target);
  });
  const cities: RevoltCity[] = [
    { area: 'a' as never, value: 2, held: 'empty' },
    { area: 'b' as never, value: 1, held: 'empty' },
    { area: 'c' as never, value: 3, held: 'units' },
    { area: 'd' as never, value: 2, held: 'elite' },
  ];
  it('unoccupied cities first, elite-held last, minimal within the last tier', () => {
    expect(isLegalRevolt(cities, ['a', 'b'] as never[], 3)).toBe(true);
    expect(isLegalRevolt(cities, ['c'] as never[], 3)).toBe(false); // occupied before the unoccupied
    expect(isLegalRevolt(cities, ['a', 'b', 'c'] as never[], 4)).toBe(true);
    expect(isLegalRevolt(cities, ['a', 'b', 'd'] as never[], 4)).toBe(false); // elite before occupied
    expect(isLegalRevolt(cities, ['a'] as never[], 3)).toBe(false); // short
    expect(isLegalRevolt(cities, ['a', 'b', 'c', 'd'] as never[], 99)).toBe(true); // all when not enough
    expect(defaultRevolt(cities, 3)).toEqual(['a', 'b']);
  });
});

describe('D-13 / D-14 advanced VP averages (14.3.2, 14.3.3)', () => {
  it('300 VP in 31 turns → 9.68', () => {
    expect(
      formatAverage(
        advancedAverage([
          { vp: 300, turns: 30 },
          { vp: 0, turns: 1 },
        ]),
      ),
    ).toBe('9.68');
  });
  it('426 in 27 and 191 in 21, a break between → 12.85; basic = best cycle 426', () => {
    const cycles = [
      { vp: 426, turns: 27 },
      { vp: 191, turns: 21 },
    ];
    expect(formatAverage(advancedAverage(cycles))).toBe('12.85');
    expect(basicScore(cycles)).toBe(426);
  });
});

describe('D-19 Good Ruler / Corruption income (10.6.2)', () => {
  it.each([
    [11, true, 13, 20, 7],
    [10, true, 12, 18, 6],
    [7, false, 7, 11, 4],
  ])('city value %i (capital %s): normal %i, Good Ruler %i, Corruption %i', (v, cap, normal, good, bad) => {
    expect(modifiedTax(v, cap, null)).toBe(normal);
    expect(modifiedTax(v, cap, 'goodRuler')).toBe(good);
    expect(modifiedTax(v, cap, 'corruption')).toBe(bad);
    expect(unmodifiedIncome(v, cap, true)).toBe(normal); // column 2 is unchanged
  });
});

describe('D-8 naval interception retreat sinking (8.1)', () => {
  it('AR2: back to the start, sinks on 2, survives on 3', () => {
    expect(interceptionOutcome('AR2')).toEqual({ mover: 'returns', mustRollAbove: 2, interceptor: 'stays' });
    expect(sinksAfterInterceptionRetreat(2, 2)).toBe(true);
    expect(sinksAfterInterceptionRetreat(2, 3)).toBe(false);
    expect(sinksAfterInterceptionRetreat(1, 1)).toBe(true);
    expect(sinksAfterInterceptionRetreat(3, 4)).toBe(false);
  });
  it('DR1–3: the interceptor stays without a sinking roll; the mover goes on', () => {
    for (const r of ['DR1', 'DR2', 'DR3'])
      expect(interceptionOutcome(r)).toEqual({ mover: 'continues', interceptor: 'stays' });
    expect(interceptionOutcome('DE')).toEqual({ mover: 'continues', interceptor: 'eliminated' });
    expect(interceptionOutcome('AE').mover).toBe('eliminated');
    expect(interceptionOutcome('EX').mover).toBe('eliminated'); // one ship against one
    expect(interceptionOutcome('EX', true).mover).toBe('continues'); // AMBIG-62
  });
  it('8.3: a ship retreating across a sea sinks on a 1 only', () => {
    expect(sinksRetreatingAcrossSea(1)).toBe(true);
    expect(sinksRetreatingAcrossSea(2)).toBe(false);
  });
});

describe('D-24 ship sinking (5.3)', () => {
  it.each([
    [0, 'GERMAN', 'kingdom', 1, null],
    [1, 'GERMAN', 'kingdom', 1, true],
    [2, 'GERMAN', 'kingdom', 2, true],
    [2, 'GERMAN', 'kingdom', 3, false],
    [2, 'VIKING', 'kingdom', 2, false],
    [2, 'VIKING', 'empire', 2, true],
    [3, 'SLAV', 'barbarian', 3, true],
  ] as const)('%i sea areas, %s %s, die %i → %s', (seas, people, stage, die, sunk) => {
    expect(sinksAfterMove(seas, die, sinkingModifier(people, stage))).toBe(sunk);
  });
});

describe('D-18 elite refuses a retreat (11.4): which results may be refused', () => {
  it('retreats only: DR1–3 and AR1–3, never DE, EX or AE', () => {
    for (const r of ['DR1', 'DR2', 'DR3', 'AR1', 'AR2', 'AR3']) expect(isRetreatResult(r)).toBe(true);
    for (const r of ['DE', 'EX', 'AE']) expect(isRetreatResult(r)).toBe(false);
  });
  it('only 5-3s of an empire-stage owner may refuse', () => {
    const g = {
      units: {
        e: { id: 'e', owner: 'p', kind: 'elite', area: 'x' },
        b: { id: 'b', owner: 'p', kind: 'bow', area: 'x' },
        k: { id: 'k', owner: 'q', kind: 'elite', area: 'y' },
      },
      players: [
        { id: 'p', cycle: { stage: 'empire' } },
        { id: 'q', cycle: { stage: 'kingdom' } },
      ],
    } as never;
    expect(elitesMayRefuse(g, ['e', 'b', 'k'] as never[], 'AR1')).toEqual(['e']);
    expect(elitesMayRefuse(g, ['e'] as never[], 'DE')).toEqual([]);
  });
});

describe('D-21 auction replacements (13.3)', () => {
  it.each([
    ['elite', 'kingdom', 'cavalry'],
    ['elite', 'barbarian', 'barbarianHorse'],
    ['garrison', 'kingdom', 'infantry'],
    ['garrison', 'barbarian', 'infantry'],
    ['infantry', 'barbarian', 'infantry'],
    ['infantry', 'kingdom', 'infantry'],
    ['ship', 'barbarian', 'ship'],
    ['elite', 'empire', 'elite'],
  ] as const)('%s won by a %s → %s', (kind, stage, got) => {
    expect(auctionReplacement(kind, stage)).toBe(got);
  });
  it('the bid leaves the winner and reaches nobody; minimum bid = upkeep (AMBIG-22)', () => {
    expect(settleAuction(10, 4)).toEqual({ winner: 6, auctioneerGets: 0 });
    expect(settleAuction(3, 4)).toBeNull();
    expect(minimumBid(O, 'elite')).toBe(5);
    expect(minimumBid(withCfg({ auctionMinBid: 'purchaseCost' }), 'garrison')).toBe(2);
    expect(biddingOrder([0, 1, 2, 3], 2)).toEqual([3, 0, 1]);
  });
});

describe('D-22 Persian entry (13.2.3)', () => {
  it('not on turns 1–6, from 7; chosen on 9 it counts as a kingdom since 8', () => {
    expect(persianMayStart(true, 6, false)).toBe(false);
    expect(persianMayStart(true, 7, false)).toBe(true);
    expect(persianMayStart(true, 9, true)).toBe(false);
    expect(persianMayStart(false, 9, false)).toBe(false);
    expect(turnsCounted(9, persianStageTurn(9), null)).toBe(1);
  });
  it('12 purchase value = 6 upkeep of kingdom units', () => {
    expect(isPersianArmy(['cavalry', 'infantry', 'bow'])).toBe(true);
    expect(isPersianArmy(['cavalry', 'cavalry'])).toBe(true);
    expect(isPersianArmy(['cavalry', 'infantry'])).toBe(false);
    expect(isPersianArmy(['elite', 'bow'])).toBe(false);
  });
});

describe('D-28 / D-29 / D-30 / D-32 Rebellion Table results (11.7.2)', () => {
  it('the table reads 2d6 into its eleven results', () => {
    expect([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(rebellionResult)).toEqual([
      'mercenaryDefection',
      'financialDisaster',
      'pirateAttack',
      'provincialRebellion',
      'civilDisorder',
      'completeCollapse',
      'mercenariesGoHome',
      'armyMutiny',
      'provincialRebellionNotSmallest',
      'attemptedCoup',
      'rebellionAndRevival',
    ]);
  });
  it('D-28: Complete Collapse ends an empire, not a kingdom', () => {
    expect(collapses('empire')).toBe(true);
    expect(collapses('kingdom')).toBe(false);
  });
  it('D-29: Mercenaries Go Home: all 4-2s of an empire, one of a kingdom', () => {
    expect(mercenariesGoHome('empire', 3)).toBe(3);
    expect(mercenariesGoHome('kingdom', 3)).toBe(1);
    expect(mercenariesGoHome('empire', 0)).toBe(0);
  });
  it('D-30: Financial Disaster', () => {
    expect(financialDisaster(7, 5, 3)).toEqual({ treasury: 0, garrisonsLost: 0 });
    expect(financialDisaster(0, 5, 3)).toEqual({ treasury: 0, garrisonsLost: 3 });
    expect(financialDisaster(0, 4, 6)).toEqual({ treasury: 0, garrisonsLost: 4 });
    expect(financialDisaster(0, 0, 6)).toEqual({ treasury: 0, garrisonsLost: 0 });
  });
  it('D-32: result 5 may pick P2 or P3; result 10 only P3; tied smallest → either; capital only → none', () => {
    const sizes = new Map([
      ['P1', 9],
      ['P2', 2],
      ['P3', 5],
    ]);
    expect(revoltableProvinces(sizes, 'P1', false)).toEqual(['P2', 'P3']);
    expect(revoltableProvinces(sizes, 'P1', true)).toEqual(['P3']);
    const tied = new Map([
      ['P1', 9],
      ['P2', 2],
      ['P3', 2],
    ]);
    expect(revoltableProvinces(tied, 'P1', true)).toEqual(['P2', 'P3']);
    expect(revoltableProvinces(new Map([['P1', 9]]), 'P1', false)).toEqual([]);
    expect(revoltableProvinces(new Map([['P1', 9]]), 'P1', true)).toEqual([]);
  });
  it('AMBIG-39: mutiny loses ⌈die × 10% × combat units⌉', () => {
    expect(mutinyLoss(1, 7)).toBe(1);
    expect(mutinyLoss(3, 7)).toBe(3);
    expect(mutinyLoss(6, 10)).toBe(6);
  });
});
