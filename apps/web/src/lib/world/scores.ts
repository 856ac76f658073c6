/**
 * Scores as the turn record sheet (14.3.3) keeps them, and the standings both victory
 * conditions read from it: best single cycle (14.3.1) and victory points per turn played (14.3.2).
 */
import type { Standing as EngineStanding, GameView, SheetLine, ViewPlayer } from '@bke/protocol';
import { eventPlayer } from '../words.ts';
import type { LoggedEvent } from './link.ts';

/** One line of a player's turn record sheet (14.3.3), as the server folds it from the ledger. */
export type LedgerRow = SheetLine;

/** Column 11 of one sheet line: the roll, its result and what followed (10.6.2, 11.7). */
export type AdminOutcome = NonNullable<SheetLine['adminResult']>;

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
