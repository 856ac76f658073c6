/**
 * The numbers a rating is shown and judged by. Ratings are openskill's Weng-Lin beliefs (a mean
 * `mu` and an uncertainty `sigma`, on openskill's scale where a newcomer is 25 ± 8.33); players read
 * them on the Elo scale the bot ladder was measured on (packages/engine/src/bot/ratings.json), so
 * that "1550" means the same on a profile and beside a bot level (docs/ratings.md).
 */
import type { BotLevel } from '@bke/engine';
import { BOT_RATINGS } from '@bke/engine/ratings';

/** openskill's defaults (Weng and Lin 2011, section 4; openskill.js `constants.ts`): kept explicit so the scale below follows them. */
export const START_MU = 25;
export const START_SIGMA = 25 / 3;
const BETA = 25 / 6;

/**
 * Elo points per openskill point. Between two players of small uncertainty the Bradley-Terry
 * family that Plackett-Luce extends gives P(win) = 1 / (1 + e^(−Δμ / (√2·β))); Elo gives
 * 1 / (1 + 10^(−ΔR / 400)). Equal probabilities for equal differences: ΔR = Δμ · 400 / (ln 10 · √2 · β).
 */
const ELO_PER_MU = 400 / (Math.LN10 * Math.SQRT2 * BETA);

/** Where a newcomer's mean sits on the displayed scale. */
const ELO_AT_START = 1500;

export const displayRating = (mu: number): number => Math.round(ELO_AT_START + (mu - START_MU) * ELO_PER_MU);

/** The openskill mean at a displayed rating: how a bot level's ladder rating enters a result. */
const muAtDisplay = (rating: number): number => START_MU + (rating - ELO_AT_START) / ELO_PER_MU;

/**
 * A rating stays provisional until it has taken in this many results, and while its uncertainty is
 * above PROVISIONAL_SIGMA (about ±200 on the displayed scale, a 95 % interval wider than ±400).
 */
export const PROVISIONAL_RESULTS = 5;
export const PROVISIONAL_SIGMA = 7;

/** A rating as players read it: the ladder's scale, its uncertainty in the same points, provisional marked. */
export const shownRating = (r: { mu: number; sigma: number; results: number }) => ({
  rating: displayRating(r.mu),
  uncertainty: Math.round(r.sigma * ELO_PER_MU),
  provisional: isProvisional(r),
  results: r.results,
});

export const isProvisional = (r: { sigma: number; results: number }): boolean =>
  r.results < PROVISIONAL_RESULTS || r.sigma > PROVISIONAL_SIGMA;

export interface Belief {
  mu: number;
  sigma: number;
}

/**
 * A bot level's rating as a result's entry: its ladder mean, and the ladder's 95 % interval as its
 * uncertainty. A level the ladder has not measured plays at a newcomer's rating with a newcomer's
 * uncertainty (it says nothing it does not know).
 */
export function botBelief(level: BotLevel): Belief {
  const rung = BOT_RATINGS.levels[level];
  if (!rung) return { mu: START_MU, sigma: START_SIGMA };
  const halfWidth = Math.max(rung.high - rung.rating, rung.rating - rung.low);
  return { mu: muAtDisplay(rung.rating), sigma: Math.max(halfWidth / 1.96 / ELO_PER_MU, 0.5) };
}
