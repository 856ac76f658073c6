import type { LedgerRow } from '../model/realm.ts';

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
