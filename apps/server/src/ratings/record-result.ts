/**
 * Recording a ranked result and the rating changes it makes, exactly once. The result's key
 * (world, `final` or `cycle:<player>:<n>`) is inserted first, skipping a duplicate; only the
 * transaction that inserted it rates, and in that same transaction. Several processes (or one,
 * twice, after a retry) recording the same result therefore change ratings once: the second insert
 * waits for the first transaction, then finds the key and does nothing. The ratings it reads are
 * locked (in account order, so two results sharing players never deadlock) until it commits.
 */

import type { Database } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { isRatable, type TableEntry, type VictoryMode } from './ranked-table.ts';
import { NEWCOMER, type RatingChangeOf, rateTable } from './rate-table.ts';
import type { Belief } from './scale.ts';

/** `all`: every rated result; a victory mode: the results of worlds played under it. */
const RATING_POOLS = ['all', 'basic', 'advanced'] as const;
type RatingPool = (typeof RATING_POOLS)[number];

export interface RankedResult {
  worldId: string;
  /** `final`, or `cycle:<player id>:<cycle number>`. */
  resultKey: string;
  victory: VictoryMode;
  table: TableEntry[];
  /** False for an unrated world: the result is recorded, no rating changes. */
  rated: boolean;
}

export type RecordOutcome =
  | { recorded: false }
  | { recorded: true; changes: { pool: RatingPool; changes: RatingChangeOf[] }[] };

async function lockedPriors(db: Database, pool: RatingPool, userIds: string[]): Promise<Map<string, Belief>> {
  const rows = await db.sql<{ user_id: string; mu: number; sigma: number }>(
    `SELECT user_id::text AS user_id, mu, sigma FROM player_ratings
      WHERE pool = $1 AND user_id = ANY($2::uuid[])
      ORDER BY user_id FOR UPDATE`,
    [pool, userIds],
  );
  return new Map(rows.map((r) => [r.user_id, { mu: Number(r.mu), sigma: Number(r.sigma) }]));
}

async function ratePool(db: Database, r: RankedResult, pool: RatingPool): Promise<RatingChangeOf[]> {
  const userIds = [...new Set(r.table.flatMap((e) => (e.userId ? [e.userId] : [])))].sort();
  // Rows for newcomers first, so that every rating this result reads is a row it can lock.
  await db.prisma.playerRating.createMany({
    data: userIds.map((userId) => ({ userId, pool, mu: NEWCOMER.mu, sigma: NEWCOMER.sigma })),
    skipDuplicates: true,
  });
  const changes = rateTable(r.table, await lockedPriors(db, pool, userIds));
  for (const c of changes) {
    await db.prisma.playerRating.update({
      where: { userId_pool: { userId: c.userId, pool } },
      data: { mu: c.after.mu, sigma: c.after.sigma, results: { increment: 1 }, updatedAt: new Date() },
    });
  }
  await db.prisma.ratingChange.createMany({
    data: changes.map((c) => ({
      worldId: r.worldId,
      resultKey: r.resultKey,
      userId: c.userId,
      pool,
      playerId: c.playerId,
      rank: c.rank,
      muBefore: c.before.mu,
      sigmaBefore: c.before.sigma,
      muAfter: c.after.mu,
      sigmaAfter: c.after.sigma,
    })),
  });
  return changes;
}

/**
 * Records `r` and rates it, unless it was recorded before. Inside a transaction (the one that
 * records the world's final table or cycle) it joins it; otherwise it opens its own.
 */
export function recordRatedResult(db: Database, r: RankedResult): Promise<RecordOutcome> {
  return inTransaction(db, async (tx) => {
    const inserted = await tx.prisma.ratedResult.createMany({
      data: [
        {
          worldId: r.worldId,
          resultKey: r.resultKey,
          victory: r.victory,
          table: r.table as unknown as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
    });
    if (inserted.count === 0) return { recorded: false };
    if (!r.rated || !isRatable(r.table)) return { recorded: true, changes: [] };
    const changes: { pool: RatingPool; changes: RatingChangeOf[] }[] = [];
    for (const pool of ['all', r.victory] as const)
      changes.push({ pool, changes: await ratePool(tx, r, pool) });
    return { recorded: true, changes };
  });
}
