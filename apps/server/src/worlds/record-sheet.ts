/**
 * The turn record sheet (14.3.3) folded from the ledger the projections keep: one row per player,
 * cycle, turn and column becomes one line with the eleven columns. Done here and sent, so the
 * client shows the sheet without knowing how its columns relate.
 */
import type { AdminResultRow, LedgerColumnRow, SheetLine } from '@bke/protocol';

/** A ledger row as stored: its column is a sheet column's name or `vp` (LEDGER_COLUMNS). */
type StoredColumn = Omit<LedgerColumnRow, 'column'> & { readonly column: string };

const NUMERIC = [
  'tax',
  'other',
  'available',
  'upkeep',
  'purchases',
  'administration',
  'treasury',
  'adminPercent',
] as const;

/**
 * Column 4 is the cycle's running total; when only the VP gained in a turn was recorded (`vp`), the
 * total is those gains summed up, and column 2 is the gain less column 3. Lines are oldest first.
 */
export function sheetLines(
  rows: readonly StoredColumn[],
  adminResults: readonly AdminResultRow[] = [],
): SheetLine[] {
  const lines = new Map<string, Map<string, number>>();
  const column11 = new Map<string, NonNullable<SheetLine['adminResult']>>();
  for (const a of adminResults) {
    const key = `${a.playerId}|${a.cycle}|${a.turn}`;
    column11.set(key, {
      roll: a.roll,
      result: a.result,
      rebellions: a.rebellions,
      becameEmpire: a.becameEmpire,
    });
    if (!lines.has(key)) lines.set(key, new Map());
  }
  for (const r of rows) {
    const key = `${r.playerId}|${r.cycle}|${r.turn}`;
    const cols = lines.get(key) ?? new Map<string, number>();
    cols.set(r.column, (cols.get(r.column) ?? 0) + r.value);
    lines.set(key, cols);
  }
  const out: SheetLine[] = [];
  const running = new Map<string, number>();
  const ordered = [...lines.entries()]
    .map(([key, cols]) => {
      const [player = '', cycle = '0', turn = '0'] = key.split('|');
      return { key, player, cycle: Number(cycle), turn: Number(turn), cols };
    })
    .sort((a, b) => a.turn - b.turn);
  for (const l of ordered) {
    const cycleKey = `${l.player}|${l.cycle}`;
    const gained = l.cols.get('vp') ?? (l.cols.get('tax') ?? 0) + (l.cols.get('other') ?? 0);
    const total = l.cols.get('vpTotal') ?? (running.get(cycleKey) ?? 0) + gained;
    running.set(cycleKey, total);
    const num = Object.fromEntries(NUMERIC.map((c) => [c, l.cols.get(c) ?? null])) as Record<
      (typeof NUMERIC)[number],
      number | null
    >;
    out.push({
      player: l.player,
      cycle: l.cycle,
      turn: l.turn,
      ...num,
      tax: num.tax ?? (l.cols.has('vp') ? gained - (num.other ?? 0) : null),
      vpTotal: total,
      adminResult: column11.get(l.key) ?? null,
    });
  }
  return out;
}
