/**
 * 10.6 / 11.6 The Administration Table for kingdoms and empires: what each spending column costs
 * (10.6.1, D-3), which column a sum buys, the Viking/Hun penalty, and what a result means for a
 * kingdom or an empire (10.6.2, D-5). The table itself is data (src/tables/administration.json).
 */
import type { Options } from '../model/options.ts';
import type { People, Stage } from '../model/people.ts';
import type { AdministrationResult } from '../model/realm.ts';
import {
  ADMINISTRATION_TABLE,
  type AdministrationTable,
  administrationResult,
} from '../tables/administration-table.ts';

/** AMBIG-11: the top column in percent, the lower of the option and the table's last column. */
function topColumn(o: Options, table: AdministrationTable = ADMINISTRATION_TABLE): number {
  const last = table.columns[table.columns.length - 1] ?? 0;
  return Math.min(last, o.cfg.adminMaxColumn - (o.cfg.adminMaxColumn % 10));
}

/**
 * 10.6.1 (D-3): the cost of reaching the k×10 % column: ⌈k × 10 % × unmodified income⌉.
 * With income 0 (AMBIG-11b) the k-th column costs k ('onePerStep'), is free ('literalFree'),
 * or cannot be bought ('only0': null).
 */
export function adminColumnCost(o: Options, income: number, percent: number): number | null {
  const k = Math.round(percent / 10);
  if (k <= 0) return 0;
  if (percent > topColumn(o)) return null;
  if (income <= 0) {
    if (o.cfg.adminZeroIncome === 'onePerStep') return k;
    if (o.cfg.adminZeroIncome === 'literalFree') return 0;
    return null;
  }
  // Integer arithmetic: k × income / 10 rounded up, never a float artefact.
  return Math.ceil((k * income) / 10);
}

/** 10.6.1: every column the player could buy, with its cost (0 % first). */
export function adminColumns(o: Options, income: number): { percent: number; cost: number }[] {
  const out: { percent: number; cost: number }[] = [];
  for (let p = 0; p <= topColumn(o); p += 10) {
    const cost = adminColumnCost(o, income, p);
    if (cost !== null) out.push({ percent: p, cost });
  }
  return out;
}

/** 10.6.1 (D-3): the highest column a given sum reaches (spending 3 on income 16 buys 10 %). */
export function percentForSpend(o: Options, income: number, spent: number): number {
  let best = 0;
  for (const c of adminColumns(o, income)) if (c.cost <= spent) best = Math.max(best, c.percent);
  return best;
}

/** 10.6.1 / AMBIG-26: Viking and Hun kingdoms and empires read one column to the left. */
function hasAdminPenalty(o: Options, people: People): boolean {
  if (people === 'VIKING') return o.cfg.vikingHunAdminPenaltyBase || o.opt.vikingModifications;
  if (people === 'HUN') return o.cfg.vikingHunAdminPenaltyBase || o.opt.hunModifications;
  return false;
}

/**
 * 10.6.1 / 13.6: the column the roll is read on: bought column, −10 % for the penalty (floor 0),
 * +20 % with an administrator leader at the capital (C.5.b).
 */
export function effectivePercent(
  o: Options,
  people: People,
  bought: number,
  administratorAtCapital = false,
): number {
  const shifted = bought - (hasAdminPenalty(o, people) ? 10 : 0) + (administratorAtCapital ? 20 : 0);
  return Math.max(0, Math.min(shifted, topColumn(o)));
}

/** 10.6.2, 11.6: the 2d6 result on a column (the shipped table unless one is given). */
export function adminTableResult(
  percent: number,
  roll: number,
  table: AdministrationTable = ADMINISTRATION_TABLE,
): AdministrationResult {
  return administrationResult(table, percent, roll);
}

/**
 * 10.6.2 / AMBIG-41: the turns counted against a number result: since the stage began, or since
 * the latest Revival in this stage (AMBIG-35: a kingdom's Revival does not carry into the empire).
 */
export function turnsCounted(turn: number, stageTurn: number, revivalTurn: number | null): number {
  const since = revivalTurn !== null && revivalTurn >= stageTurn ? revivalTurn : stageTurn;
  return turn - since;
}

/** What a number result does (10.6.2, 11.6, D-5). */
export type NumberOutcome = 'none' | 'becomeEmpire' | 'rebellion';

/** 10.6.2, 11.6: what a number result means for a kingdom or an empire. */
export function numberOutcome(stage: Stage, n: number, counted: number): NumberOutcome {
  if (n >= counted) return 'none';
  return stage === 'kingdom' ? 'becomeEmpire' : stage === 'empire' ? 'rebellion' : 'none';
}
