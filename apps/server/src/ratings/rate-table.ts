/**
 * Rating one ranked result with openskill (Weng and Lin 2011, the Plackett-Luce model, the
 * library's default): every seat is a team of one, ranked as the table says. People enter with
 * their rating in the pool; bots with their ladder rating, which the result does not move
 * (docs/ratings.md: bots anchor the scale).
 */
import { rate } from 'openskill';
import type { TableEntry } from './ranked-table.ts';
import { type Belief, botBelief, START_MU, START_SIGMA } from './scale.ts';

export interface RatingChangeOf {
  userId: string;
  playerId: string;
  rank: number;
  before: Belief;
  after: Belief;
}

export const NEWCOMER: Belief = { mu: START_MU, sigma: START_SIGMA };

/**
 * Each person's rating after the result, from `priors` (a person missing from it is a newcomer).
 * An account holding two seats of one table (never, as seats go, but the data allows it) is rated
 * on its best-placed seat only.
 */
export function rateTable(
  table: readonly TableEntry[],
  priors: ReadonlyMap<string, Belief>,
): RatingChangeOf[] {
  const seen = new Set<string>();
  const entries = [...table]
    .sort((a, b) => a.rank - b.rank)
    .filter((e) => {
      if (e.userId === null) return true;
      if (seen.has(e.userId)) return false;
      seen.add(e.userId);
      return true;
    });
  if (entries.length < 2) return [];
  const beliefs = entries.map((e) =>
    e.userId === null ? botBelief(e.bot ?? 'easy') : (priors.get(e.userId) ?? NEWCOMER),
  );
  const rated = rate(
    beliefs.map((b) => [{ mu: b.mu, sigma: b.sigma }]),
    { rank: entries.map((e) => e.rank) },
  );
  const changes: RatingChangeOf[] = [];
  entries.forEach((e, i) => {
    const after = rated[i]?.[0];
    const before = beliefs[i];
    if (e.userId === null || !after || !before) return;
    changes.push({ userId: e.userId, playerId: e.playerId, rank: e.rank, before, after });
  });
  return changes;
}
