/**
 * An attack choice's odds column (legal-orders.ts `AttackChoice.odds`, 7.1) as the ratio a policy
 * compares: '3-2' is 1.5; a column that is no ratio ('autoAE', below the table, AMBIG-3) is 0.
 */
export function columnRatio(odds: string): number {
  const m = /^(\d+)-(\d+)$/.exec(odds);
  return m ? Number(m[1]) / Number(m[2]) : 0;
}
