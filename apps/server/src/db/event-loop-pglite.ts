/** The embedded database's client (database.ts loads this module only for the embedded database). */
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * PGlite runs each statement synchronously inside the process and hands back its result through
 * promises alone, never through the event loop: a chain of awaited queries (a world's queue of
 * orders, their snapshots and projections, loading worlds) runs to its end without letting Node
 * read a socket or fire a timer. Under load the server then went silent for tens of seconds, and
 * Socket.IO's heartbeat timers, firing before the waiting packets were read, dropped live sockets
 * as dead (their orders were never answered). Each statement is therefore started only after one
 * turn of the event loop (setImmediate), as a statement sent to a PostgreSQL server returns through
 * it. Statements inside a transaction go through PGlite's transaction handle and do not wait: the
 * transaction holds the database until it ends either way.
 */
export class EventLoopPGlite extends PGlite {
  override async query<T>(...args: Parameters<PGlite['query']>): Promise<Results<T>> {
    await new Promise<void>((r) => setImmediate(r));
    return super.query<T>(...args);
  }

  override async exec(...args: Parameters<PGlite['exec']>): Promise<Results[]> {
    await new Promise<void>((r) => setImmediate(r));
    return super.exec(...args);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await new Promise<void>((r) => setImmediate(r));
    return super.transaction(callback);
  }
}
