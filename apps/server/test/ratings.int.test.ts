/**
 * A ranked result changes ratings exactly once: recorded twice in a row, or by two database
 * clients at the same moment (two server processes on one PostgreSQL server), the key written in
 * the rating's own transaction lets one of them rate and the other find it done. Two different
 * results sharing players, recorded at once, both count (the ratings they read are locked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.ts';
import type { TableEntry } from '../src/ratings/ranked-table.ts';
import { type RankedResult, recordRatedResult } from '../src/ratings/record-result.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let other: Database | null = null;
const users: string[] = [];
let worldId = '';

beforeAll(async () => {
  t = await openTestDatabase();
  if (t.url) other = await openDatabase({ kind: 'postgres', url: t.url, poolSize: 3 });
  for (const name of ['ada', 'ben', 'cyd']) {
    const u = await t.db.prisma.user.create({
      data: { username: name, usernameKey: name, passwordHash: 'x' },
    });
    users.push(u.id);
  }
  const w = await t.db.prisma.world.create({
    data: { name: 'Rated', setup: {}, rulesVersion: 'test', createdById: users[0] as string },
  });
  worldId = w.id;
});
afterAll(async () => {
  await other?.close();
  await t?.dispose();
});

const table = (order: string[]): TableEntry[] => [
  ...order.map((userId, i) => ({ playerId: `p${i + 1}`, userId, bot: null, rank: i + 1, score: 100 - i })),
  { playerId: 'p9', userId: null, bot: 'normal', rank: order.length + 1, score: 0 },
];
const result = (resultKey: string, order: string[]): RankedResult => ({
  worldId,
  resultKey,
  victory: 'basic',
  table: table(order),
  rated: true,
});

const ratingsOf = async (db: Database) =>
  db.prisma.playerRating.findMany({ orderBy: [{ userId: 'asc' }, { pool: 'asc' }] });

describe('a result rates once', () => {
  it('recorded twice, it rates once', async () => {
    const r = result('final', users);
    const first = await recordRatedResult(t.db, r);
    expect(first.recorded).toBe(true);
    const before = await ratingsOf(t.db);
    expect(before.map((x) => [x.pool, x.results])).toEqual(
      users.flatMap(() => [
        ['all', 1],
        ['basic', 1],
      ]),
    );
    expect(await recordRatedResult(t.db, r)).toEqual({ recorded: false });
    expect(await ratingsOf(t.db)).toEqual(before);
    expect(await t.db.prisma.ratingChange.count({ where: { worldId, resultKey: 'final' } })).toBe(
      users.length * 2,
    );
    // The winner gained, the last person lost: the bot's seat took part but has no rating row.
    const all = before.filter((x) => x.pool === 'all');
    const mu = (id: string | undefined) => all.find((x) => x.userId === id)?.mu ?? 0;
    expect(mu(users[0])).toBeGreaterThan(25);
    expect(mu(users[2])).toBeLessThan(mu(users[0]));
  });

  it('an unrated world records its result and changes no rating', async () => {
    const before = await ratingsOf(t.db);
    const r = { ...result('cycle:p5:1', users), rated: false };
    expect(await recordRatedResult(t.db, r)).toEqual({ recorded: true, changes: [] });
    expect(await ratingsOf(t.db)).toEqual(before);
    expect(await t.db.prisma.ratedResult.count({ where: { worldId, resultKey: 'cycle:p5:1' } })).toBe(1);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'two processes recording the same result at once rate it once',
    async () => {
      const db2 = other as Database;
      const r = result('cycle:p1:1', [users[1], users[0], users[2]] as string[]);
      const outcomes = await Promise.all([recordRatedResult(t.db, r), recordRatedResult(db2, r)]);
      expect(outcomes.filter((o) => o.recorded)).toHaveLength(1);
      const rows = await ratingsOf(t.db);
      expect(rows.every((x) => x.results === 2)).toBe(true);
      expect(await t.db.prisma.ratingChange.count({ where: { worldId, resultKey: 'cycle:p1:1' } })).toBe(
        users.length * 2,
      );
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'two results sharing players, recorded at once, both count',
    async () => {
      const db2 = other as Database;
      const before = await ratingsOf(t.db);
      const [a, b] = await Promise.all([
        recordRatedResult(t.db, result('cycle:p2:1', users)),
        recordRatedResult(db2, result('cycle:p3:1', [...users].reverse())),
      ]);
      expect(a.recorded && b.recorded).toBe(true);
      const after = await ratingsOf(t.db);
      after.forEach((x, i) => {
        expect(x.results).toBe((before[i]?.results ?? 0) + 2);
      });
      // Each change starts where the other left off: one of the two read the other's result.
      const changes = await t.db.prisma.ratingChange.findMany({
        where: { worldId, pool: 'all', userId: users[0], resultKey: { in: ['cycle:p2:1', 'cycle:p3:1'] } },
      });
      const [c1, c2] = changes;
      expect(c1 && c2 && (c1.muBefore === c2.muAfter || c2.muBefore === c1.muAfter)).toBe(true);
    },
  );
});
