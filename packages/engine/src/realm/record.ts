/**
 * 14.3.3 The turn record sheet as engine output, and the victory-point arithmetic of 14.3.1 /
 * 14.3.2. One row per player, per cycle, per game turn with the sheet's eleven columns; the
 * server stores the rows as the VP ledger and shows them.
 */
import type { PlayerId } from '../model/ids.ts';
import type { Stage, StartPosition } from '../model/people.ts';
import type { AdministrationResult } from '../tables/administration.ts';

/** What a column-11 entry may say: a table result, and what it led to. */
export interface AdminOutcome {
  readonly roll: number;
  readonly result: AdministrationResult;
  /** Rebellion Table rolls made this phase (11.7), in order, e.g. [7] or [3, 4]. */
  readonly rebellions: readonly number[];
  readonly becameEmpire: boolean;
}

export interface LedgerRow {
  readonly player: PlayerId;
  readonly cycle: number;
  readonly position: StartPosition;
  readonly stage: Stage;
  /** Column 1. */
  readonly turn: number;
  /** Column 2: tax income, the "unmodified income" (AMBIG-10: capital +2 included by default). */
  readonly tax: number;
  /** Column 3: Good Ruler/Corruption difference, loot, plunder, mercenary, tribute, ransom. */
  readonly other: number;
  /** Column 4: VP of the cycle so far = previous column 4 + column 2 + column 3. */
  readonly vp: number;
  /** Treasury carried in (previous column 9 after money moved outside the economic phase). */
  readonly carried: number;
  /** Column 5: money available = column 2 + column 3 + carried. */
  readonly available: number;
  /** Column 6: upkeep paid for units on the board. */
  readonly upkeep: number;
  /** Column 7: spent on new units. */
  readonly purchases: number;
  /** Column 8: spent on the Administration Table. */
  readonly administration: number;
  /** Column 9: treasury balance = 5 − (6 + 7 + 8), never negative. */
  readonly treasury: number;
  /** Column 10: the % column bought with column 8 (10.6.1). */
  readonly adminPercent: number;
  /** Column 11: the administration result (filled in the administration phase). */
  readonly adminResult: AdminOutcome | null;
}

/** 14.3.3: the arithmetic a row must satisfy; returns what does not add up. */
export function ledgerRowProblems(row: LedgerRow, previous: LedgerRow | undefined): string[] {
  const out: string[] = [];
  const tag = `${row.player} turn ${row.turn}`;
  // Without a previous row of the same cycle (a position joined mid-cycle), column 4 is taken as given.
  const prevVp = previous && previous.cycle === row.cycle ? previous.vp : row.vp - row.tax - row.other;
  if (row.vp !== prevVp + row.tax + row.other)
    out.push(`${tag}: col4 ${row.vp} ≠ ${prevVp}+${row.tax}+${row.other}`);
  if (row.vp < prevVp) out.push(`${tag}: VP decreased`);
  if (row.available !== row.tax + row.other + row.carried) out.push(`${tag}: col5 does not add up`);
  if (row.treasury !== row.available - row.upkeep - row.purchases - row.administration)
    out.push(`${tag}: col9 does not add up`);
  // `carried` may dip below 0 when income already counted in column 3 was then lost (a capital split).
  if (row.treasury < 0 || row.available < 0) out.push(`${tag}: negative money`);
  return out;
}

/** Every row of the ledger checked against the previous row of the same player. */
export function ledgerProblems(rows: readonly LedgerRow[]): string[] {
  const last = new Map<string, LedgerRow>();
  const out: string[] = [];
  for (const r of rows) {
    out.push(...ledgerRowProblems(r, last.get(r.player)));
    last.set(r.player, r);
  }
  return out;
}

/** One finished or running cycle, as scored by the victory conditions. */
export interface CycleScore {
  readonly vp: number;
  /** Turns in which the player held this position (AMBIG-43). */
  readonly turns: number;
}

/** 14.3.1 basic victory: the best single cycle (AMBIG-56: a running cycle counts as it stands). */
export function basicScore(cycles: readonly CycleScore[]): number {
  return cycles.reduce((best, c) => Math.max(best, c.vp), 0);
}

/** 14.3.2 advanced victory: all VP over all turns played; breaks are not counted (D-14). */
export function advancedAverage(cycles: readonly CycleScore[]): number {
  const turns = cycles.reduce((s, c) => s + c.turns, 0);
  return turns === 0 ? 0 : cycles.reduce((s, c) => s + c.vp, 0) / turns;
}

/** D-13: the average as displayed, two decimals, half up (9.677… → "9.68"). */
export function formatAverage(average: number): string {
  return (Math.round(average * 100 + 1e-9) / 100).toFixed(2);
}

/**
 * A player's standing under both victory conditions (14.3.1, 14.3.2), from the public view: the
 * best single cycle, and all VP over the turns it held a position (AMBIG-43), as displayed (D-13).
 * AMBIG-56 (`cfg.countIncompleteCycles`): a running cycle counts as it stands unless told not to.
 */
export function playerScore(
  p: {
    readonly cycle: { readonly vp: number } | null;
    readonly pastCycles: readonly { readonly vp: number }[];
    readonly turnsPlayed: number;
  },
  countRunning = true,
): { basic: number; average: string } {
  const vps = [...p.pastCycles.map((c) => c.vp), ...(p.cycle && countRunning ? [p.cycle.vp] : [])];
  const total = vps.reduce((s, v) => s + v, 0);
  return {
    basic: basicScore(vps.map((vp) => ({ vp, turns: 0 }))),
    average: formatAverage(p.turnsPlayed === 0 ? 0 : total / p.turnsPlayed),
  };
}
