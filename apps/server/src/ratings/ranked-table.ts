/**
 * A result as a ranked table: who took part and in which order they finished, under the world's
 * victory conditions. What counts, and why, is written in docs/ratings.md.
 */
import type { BotLevel } from '@bke/engine';

export type VictoryMode = 'basic' | 'advanced';

/** One seat of a result, as the world's record has it. */
export interface ResultSeat {
  playerId: string;
  /** The account holding the seat; null for a bot's seat. */
  userId: string | null;
  /** A bot's seat: its level; null for a person's (a stand-in playing for an absent person is still theirs). */
  bot: BotLevel | null;
  /** 14.3.1: the best single cycle's VP. */
  bestCycleVp: number;
  /** 14.3.2: all VP over all the seat's cycles. */
  totalVp: number;
  /** 14.3.2: the game turns in which the seat held a position. */
  turnsPlayed: number;
}

export interface TableEntry {
  playerId: string;
  userId: string | null;
  bot: BotLevel | null;
  /** 1 is first; equal scores share a rank. */
  rank: number;
  /** The score ranked by: best-cycle VP (basic) or VP per turn played (advanced). */
  score: number;
}

/** 14.3.2: "an average needs at least 20 turns to mean much". */
const ADVANCED_SAMPLE_TURNS = 20;

const advancedAverage = (s: ResultSeat): number => (s.turnsPlayed > 0 ? s.totalVp / s.turnsPlayed : 0);

/**
 * The ranked table of a result. Basic (14.3.1): the best single cycle, highest first. Advanced
 * (14.3.2): VP per turn played, highest first; a seat that played fewer than 20 turns ranks below
 * every seat that played 20 or more, since the rule says so short an average means little.
 * A seat that left, or was wiped out, ranks by the score it had: VP are never lost (14.3.1).
 */
export function rankedTable(seats: readonly ResultSeat[], victory: VictoryMode): TableEntry[] {
  const keyed = seats.map((s) => {
    const score = victory === 'basic' ? s.bestCycleVp : advancedAverage(s);
    const sampled = victory === 'basic' || s.turnsPlayed >= ADVANCED_SAMPLE_TURNS ? 1 : 0;
    return { s, score, sampled };
  });
  keyed.sort(
    (a, b) => b.sampled - a.sampled || b.score - a.score || a.s.playerId.localeCompare(b.s.playerId),
  );
  const table: TableEntry[] = [];
  keyed.forEach((k, i) => {
    const prev = keyed[i - 1];
    const tied = prev !== undefined && prev.sampled === k.sampled && prev.score === k.score;
    const rank = tied ? (table[i - 1]?.rank ?? i + 1) : i + 1;
    table.push({ playerId: k.s.playerId, userId: k.s.userId, bot: k.s.bot, rank, score: k.score });
  });
  return table;
}

/** A table worth rating: at least two seats, and at least one of them a person's. */
export const isRatable = (table: readonly TableEntry[]): boolean =>
  table.length >= 2 && table.some((e) => e.userId !== null);
