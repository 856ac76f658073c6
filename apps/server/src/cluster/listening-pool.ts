/**
 * What @socket.io/postgres-adapter (0.5) is given in place of the server's pool. The adapter runs
 * its queries (NOTIFY, attachments) with `pool.query`, which takes a connection and gives it back,
 * and keeps one connection checked out for LISTEN, reconnecting 1–3 s after that connection's `end`.
 * Two things it leaves out, both seen when the database restarts or an operator terminates its
 * backends:
 * - it adds no `error` listener to the LISTEN connection. `pg` emits a checked-out connection's
 *   error on the connection itself (the pool's own `error` listener covers idle ones only), and an
 *   `error` event nobody listens to ends the process;
 * - it forgets a dead connection without releasing it, so each drop would keep one of the pool's
 *   connections counted as taken, for good.
 * The facade below adds both, backs off while the database refuses connections (the adapter alone
 * would try every 1–3 s for as long as the outage lasts), and says when it listens again: once the
 * server has answered the adapter's `LISTEN`, not when the connection is handed over.
 */
import type pg from 'pg';

type Log = (msg: string, data?: object) => void;
/** `pg`'s `query` in the one form the adapter uses: a text, maybe values, and a promise. */
type Query = (...args: unknown[]) => Promise<unknown>;

/** The longest wait between two attempts to listen again while the database refuses connections. */
const RELISTEN_MAX_BACKOFF_MS = 15_000;
const FIRST_BACKOFF_MS = 250;

export function listeningPool(pool: pg.Pool, log: Log, relistened: (lostAt: Date) => void): pg.Pool {
  /** Connections lost since the adapter last listened; 0 while it listens. */
  let failures = 0;
  /** When the adapter stopped listening; null while it listens. */
  let lostAt: Date | null = null;
  /** Whether the refusals since the adapter last listened were logged (once for all of them). */
  let toldRefused = false;
  /**
   * The adapter sends its `LISTEN` on the connection it is given, after `connect` returns. Until
   * the server has answered it, a NOTIFY from another process reaches nobody: the catch-up (and the
   * word that the adapter listens again) wait for that answer, or a change made in between would be
   * missed by both the catch-up and the adapter. A `LISTEN` that fails ends the connection, and the
   * adapter connects again; it is then still lost (since the first loss).
   */
  const afterListen = (client: pg.PoolClient) => {
    const query = client.query.bind(client) as unknown as Query;
    let waiting = true;
    const listening: Query = (...args) => {
      const answer = query(...args);
      if (waiting && typeof args[0] === 'string' && args[0].startsWith('LISTEN ')) {
        waiting = false;
        answer.then(
          () => {
            if (!lostAt) return;
            const since = lostAt;
            lostAt = null;
            log('cluster adapter: listening again; catching up from the database');
            relistened(since);
          },
          () => {},
        );
      }
      return answer;
    };
    Object.assign(client, { query: listening });
  };
  const facade = {
    query: pool.query.bind(pool),
    async connect(): Promise<pg.PoolClient> {
      if (failures > 0) {
        const wait = Math.min(FIRST_BACKOFF_MS * 2 ** (failures - 1), RELISTEN_MAX_BACKOFF_MS);
        await new Promise((r) => setTimeout(r, wait));
      }
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        if (!toldRefused)
          log('cluster adapter: cannot reach the database to listen; retrying with back-off', {
            err: String(e),
          });
        toldRefused = true;
        failures++;
        throw e;
      }
      // pg may say it twice (the server's message, then the closed socket): told once.
      let told = false;
      client.on('error', (err) => {
        if (told) return;
        told = true;
        log('cluster adapter: the listening connection to the database was lost; listening again', {
          err: String(err),
        });
      });
      // Added before the adapter's own `end` listener, so the slot is free when it reconnects.
      client.once('end', () => {
        lostAt ??= new Date();
        failures = Math.max(failures, 1);
        client.release(new Error('the listening connection ended'));
      });
      if (lostAt) afterListen(client);
      failures = 0;
      toldRefused = false;
      return client;
    },
  };
  return facade as unknown as pg.Pool;
}
