/**
 * Scores as the turn record sheet (14.3.3) keeps them, and the standings both victory
 * conditions read from it: best single cycle (14.3.1) and victory points per turn played (14.3.2).
 */
import type {
  AdminResultRow,
  Standing as EngineStanding,
  GameView,
  LedgerColumnRow,
  ViewPlayer,
} from '@bke/protocol';
import { eventPlayer } from '../words.ts';
import type { LoggedEvent } from './link.ts';

/** One line of a player's turn record sheet: the rulebook's eleven columns (null: not recorded). */
export interface LedgerRow {
  readonly player: string;
  readonly cycle: number;
  /** 1 game turn */
  readonly turn: number;
  /** 2 tax income (the unmodified income) */
  readonly tax: number | null;
  /** 3 modifications and other income */
  readonly other: number | null;
  /** 4 VP total of the cycle */
  readonly vpTotal: number;
  /** 5 money available */
  readonly available: number | null;
  /** 6 upkeep */
  readonly upkeep: number | null;
  /** 7 spent on new units */
  readonly purchases: number | null;
  /** 8 spent on administration */
  readonly administration: number | null;
  /** 9 treasury balance */
  readonly treasury: number | null;
  /** 10 % of column 2 spent on administration (the column used) */
  readonly adminPercent: number | null;
  /** 11 administration result */
  readonly adminResult: AdminOutcome | null;
}

/** Column 11 of one sheet line: the roll, its result and what followed (10.6.2, 11.7). */
export type AdminOutcome = Pick<AdminResultRow, 'roll' | 'result' | 'rebellions' | 'becameEmpire'>;

const ADMIN_RESULT_WORDS: Record<string, string> = {
  goodRuler: 'Good Ruler',
  corruption: 'Corruption',
  rebellion: 'Rebellion',
  revival: 'Revival',
};

/**
 * Column 11 in words (10.6.2, 11.6): the roll, what it gave, and what followed — "Rolled 7: Good
 * Ruler", "Rolled 11: number 6, became an empire", "Rolled 4: Rebellion (rebellion rolls 3 and 4)".
 * A number is compared with the turns spent in the stage; below it nothing happens.
 */
export function adminResultWords(a: AdminOutcome | null): string {
  if (!a) return '—';
  const named =
    typeof a.result === 'number' ? `number ${a.result}` : (ADMIN_RESULT_WORDS[a.result] ?? a.result);
  const rolls = a.rebellions.map(String);
  const rebellion = rolls.length
    ? `${rolls.length === 1 ? 'rebellion roll' : 'rebellion rolls'} ${rolls.length === 1 ? rolls[0] : `${rolls.slice(0, -1).join(', ')} and ${rolls.at(-1)}`}`
    : '';
  const then = [a.becameEmpire ? 'became an empire' : '', rebellion].filter(Boolean);
  // Roll 0: no administration roll this turn, only a rebellion (e.g. after losing the capital, 10.3).
  if (a.roll === 0) return rebellion ? `No administration roll; ${rebellion}` : named;
  const tail = then.length ? `, ${then.join(', ')}` : typeof a.result === 'number' ? ', no change' : '';
  return `Rolled ${a.roll}: ${named}${tail}`;
}

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
 * Folds the server's column rows into sheet lines. Column 4 is the cycle's running total; when
 * the server records only the VP gained in a turn ('vp'), the total is that gain summed up.
 */
export function sheetRows(
  rows: readonly LedgerColumnRow[],
  adminResults: readonly AdminResultRow[] = [],
): LedgerRow[] {
  const lines = new Map<string, Map<string, number>>();
  const column11 = new Map<string, AdminOutcome>();
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
  const out: LedgerRow[] = [];
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

export const SHEET_COLUMNS: readonly { key: keyof LedgerRow; label: string; title: string }[] = [
  { key: 'turn', label: '1 Turn', title: 'Game turn' },
  { key: 'tax', label: '2 Tax', title: 'Tax income this turn (unmodified income)' },
  { key: 'other', label: '3 Other', title: 'Good Ruler or Corruption, pillage, plunder and other income' },
  { key: 'vpTotal', label: '4 VP', title: 'Victory points of this cycle so far' },
  { key: 'available', label: '5 Avail.', title: 'Money available this turn' },
  { key: 'upkeep', label: '6 Upkeep', title: 'Upkeep due for units on the map' },
  { key: 'purchases', label: '7 Units', title: 'Spent on new units' },
  { key: 'administration', label: '8 Admin', title: 'Spent on the Administration Table' },
  { key: 'treasury', label: '9 Treasury', title: 'Treasury balance, exposed to capital capture' },
  { key: 'adminPercent', label: '10 %', title: 'Share of column 2 spent on administration' },
  { key: 'adminResult', label: '11 Administration', title: 'Administration roll and its result' },
];

/** The engine's standing of a player (carried in the view), with the player it is about. */
export type Standing = Omit<EngineStanding, 'player'> & { readonly player: ViewPlayer };

/** The view's standings (14.3.1, 14.3.2; computed by the engine), each with its player. */
export function standings(view: GameView): Standing[] {
  return view.standings.flatMap((s) => {
    const player = view.players.find((p) => p.id === s.player);
    return player ? [{ ...s, player }] : [];
  });
}

export function ranked(list: readonly Standing[], by: 'basic' | 'advanced'): Standing[] {
  const key = (s: Standing) => (by === 'basic' ? s.bestCycle : (s.average ?? -1));
  return [...list].sort((a, b) => key(b) - key(a) || a.player.name.localeCompare(b.player.name));
}

export interface Series {
  readonly player: string;
  readonly points: readonly { readonly turn: number; readonly vp: number }[];
}

/**
 * Victory points over the turns, one line per player: the ledger's column 4 summed over a
 * player's cycles when the server sent the ledger, else the running totals in the event log.
 */
export function vpSeries(rows: readonly LedgerRow[], log: readonly LoggedEvent[]): Series[] {
  const byPlayer = new Map<string, Map<number, number>>();
  const put = (player: string, turn: number, vp: number) => {
    const m = byPlayer.get(player) ?? new Map<number, number>();
    m.set(turn, vp);
    byPlayer.set(player, m);
  };
  if (rows.length) {
    const done = new Map<string, Map<number, number>>();
    for (const r of [...rows].sort((a, b) => a.turn - b.turn)) {
      const cycles = done.get(r.player) ?? new Map<number, number>();
      cycles.set(r.cycle, r.vpTotal);
      done.set(r.player, cycles);
      put(
        r.player,
        r.turn,
        [...cycles.values()].reduce((a, b) => a + b, 0),
      );
    }
  } else {
    const banked = new Map<string, number>();
    const current = new Map<string, number>();
    for (const l of log) {
      const e = l.event;
      const p = String(eventPlayer(e));
      if (e.type === 'vpGained') {
        current.set(p, Number(e.total));
        put(p, l.turn, (banked.get(p) ?? 0) + Number(e.total));
      } else if (e.type === 'cycleEnded') {
        banked.set(p, (banked.get(p) ?? 0) + (current.get(p) ?? 0));
        current.set(p, 0);
      }
    }
  }
  return [...byPlayer.entries()].map(([player, m]) => ({
    player,
    points: [...m.entries()].sort((a, b) => a[0] - b[0]).map(([turn, vp]) => ({ turn, vp })),
  }));
}
