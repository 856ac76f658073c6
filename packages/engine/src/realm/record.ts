/**
 * 14.3.3 The turn record sheet as engine output, and the victory-point arithmetic of 14.3.1 /
 * 14.3.2. One row per player, per cycle, per game turn with the sheet's eleven columns; the
 * server stores the rows as the VP ledger and shows them.
 */
import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import { type AdminOutcome, type LedgerRow, patchRealm, realmOf } from '../model/realm.ts';
import type { FinishedCycles } from '../model/state.ts';
import type { Game } from '../model/state-ops.ts';
import type { Standing } from '../model/view.ts';

/** 14.3.3: the arithmetic a row must satisfy; returns what does not add up. */
function ledgerRowProblems(row: LedgerRow, previous: LedgerRow | undefined): string[] {
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

/** 14.3.3: every row of the ledger checked against the previous row of the same player. */
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

/** What a standing is computed from: a player's cycles and turns played (the state's or a view's). */
interface Scored {
  readonly id: PlayerId;
  readonly cycle: { readonly vp: number } | null;
  readonly finished: FinishedCycles;
  readonly turnsPlayed: number;
}

/**
 * A player's standing under both victory conditions (14.3.1, 14.3.2): the best single cycle, and
 * all VP over the turns it held a position (AMBIG-43). AMBIG-56 (`cfg.countIncompleteCycles`): a
 * running cycle counts as it stands unless told not to.
 */
export function standingOf(p: Scored, countRunning = true): Standing {
  const running = p.cycle && countRunning ? p.cycle.vp : 0;
  const total = p.finished.totalVp + running;
  return {
    player: p.id,
    bestCycle: Math.max(p.finished.bestVp, running),
    totalVp: total,
    turnsPlayed: p.turnsPlayed,
    average: p.turnsPlayed === 0 ? null : total / p.turnsPlayed,
  };
}

/** Every player's standing in a game, in seat order, under the game's options. */
export const standingsOf = (g: Pick<Game, 'players' | 'options'>): Standing[] =>
  g.players.map((p) => standingOf(p, g.options.cfg.countIncompleteCycles));

/** A standing as the rulebook's example sheet displays it (D-13): the average to two decimals. */
export function playerScore(p: Scored, countRunning = true): { basic: number; average: string } {
  const s = standingOf(p, countRunning);
  return { basic: s.bestCycle, average: formatAverage(s.average ?? 0) };
}

/**
 * 14.3.3 column 11: the administration phase fills in this turn's ledger row after the economic phase
 * has emitted it. Every row the step replaced is emitted again as a `ledgerRow` event, so whoever keeps
 * the sheet from the events (the server's VP ledger) sees the result, the rebellion rolls and the
 * conversion to an empire.
 */
export function echoLedgerRows<T extends { readonly state: Game; readonly events: readonly unknown[] }>(
  before: Game,
  step: T,
): T {
  const old = realmOf(before).sheet;
  const now = realmOf(step.state).sheet;
  if (old === now) return step;
  // The rows not in the old sheet (filled in or appended); the sheet holds one turn's rows.
  const echoes = now.filter((row) => !old.includes(row)).map((row) => ({ type: 'ledgerRow' as const, row }));
  return echoes.length ? { ...step, events: [...step.events, ...echoes] } : step;
}

/**
 * 14.3 / 14.3.2 (D-27): may this player abandon its position to start a new cycle? Always under
 * the basic conditions; under the advanced ones only if last turn's unmodified income was below 10.
 * (Leaving the game for good is never limited.)
 */
export function mayAbandon(ctx: EngineContext, g: Game, player: PlayerId): boolean {
  if (ctx.options.victory !== 'advanced') return true;
  const rp = realmOf(g).players[player];
  return (rp?.lastIncome ?? 0) < 10;
}

/** Column 11 of this turn's ledger row, updated in place (a new array, never mutated). */
export function noteOutcome(g: Game, player: PlayerId, f: (o: AdminOutcome | null) => AdminOutcome): Game {
  const r = realmOf(g);
  const i = r.sheet.findLastIndex((row) => row.player === player && row.turn === g.turn);
  if (i < 0) return g;
  const sheet = [...r.sheet];
  const row = sheet[i]!;
  sheet[i] = { ...row, adminResult: f(row.adminResult) };
  return patchRealm(g, { sheet });
}

/** 14.3.3 column 11: a Rebellion Table roll noted on this turn's row. */
export const noteRebellion = (g: Game, player: PlayerId, roll: number): Game =>
  noteOutcome(g, player, (o) =>
    o
      ? { ...o, rebellions: [...o.rebellions, roll] }
      : { roll: 0, result: 'rebellion', rebellions: [roll], becameEmpire: false },
  );
