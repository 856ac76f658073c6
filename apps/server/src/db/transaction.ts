/**
 * A unit of work on the database: what `fn` writes through the `Database` it is given commits
 * together or not at all — the ORM's writes and raw SQL alike (one connection, one transaction).
 * What must only happen once the writes are durable (telling sockets, other processes, in-memory
 * caches) is queued with `afterCommit`; what an in-memory change must undo if the transaction fails
 * is queued with `onRollback`. Outside a transaction both behave as if it had committed: the effect
 * runs at once, and there is nothing to undo.
 *
 * Inside `fn` every query must go through the given `Database`: on the embedded database a query on
 * the outer one waits for the transaction to end, which waits for the query.
 */
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Database } from './database.ts';

interface Effects {
  after: (() => void)[];
  undo: (() => void)[];
}

const EFFECTS = Symbol('transaction effects');
type TxDatabase = Database & { [EFFECTS]: Effects };

const effectsOf = (db: Database): Effects | undefined => (db as Partial<TxDatabase>)[EFFECTS];

export async function inTransaction<T>(
  db: Database,
  fn: (tx: Database) => Promise<T>,
  log: (msg: string, data?: object) => void = () => {},
): Promise<T> {
  if (effectsOf(db)) return fn(db);
  const effects: Effects = { after: [], undo: [] };
  let result: T;
  try {
    result = await db.prisma.$transaction(
      async (p) => {
        const tx: TxDatabase = {
          ...db,
          prisma: p as unknown as PrismaClient,
          sql: async <R>(text: string, params: unknown[] = []) =>
            (await p.$queryRawUnsafe(text, ...params)) as R[],
          [EFFECTS]: effects,
        };
        return fn(tx);
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
  } catch (e) {
    for (const u of effects.undo.reverse()) {
      try {
        u();
      } catch (undoError) {
        log('undoing after a failed transaction failed', { err: String(undoError) });
      }
    }
    throw e;
  }
  for (const a of effects.after) {
    try {
      a();
    } catch (e) {
      log('an effect after commit failed', { err: String(e) });
    }
  }
  return result;
}

/** Runs `fn` once `db`'s transaction commits (at once outside a transaction). */
export function afterCommit(db: Database, fn: () => void): void {
  const e = effectsOf(db);
  if (e) e.after.push(fn);
  else fn();
}

/** Runs `fn` if `db`'s transaction fails (never outside a transaction). */
export function onRollback(db: Database, fn: () => void): void {
  effectsOf(db)?.undo.push(fn);
}

/** Whether `db` is a transaction's. */
export const isTransaction = (db: Database): boolean => effectsOf(db) !== undefined;
