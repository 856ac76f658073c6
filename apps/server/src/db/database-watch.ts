/**
 * Whether this process reaches its PostgreSQL database, as it goes: a trivial query every
 * `everyMs`, and at once when the pool reports a lost connection. Each change is logged once (not
 * each failed query) and passed on (the sockets are told, sockets/database-notice.ts). Nothing here
 * reconnects: the pools open a new connection on their next use, and the cluster adapter listens
 * again by itself (cluster/listening-pool.ts).
 */
import type { Database } from './database.ts';

/** How often the database is asked whether it answers, besides when a connection was lost. */
const DATABASE_WATCH_MS = 2000;

type Log = (level: 'warn' | 'info', msg: string, data?: object) => void;

export interface DatabaseWatch {
  /** Whether the last look found the database answering. */
  up(): boolean;
  /** Calls `f` with each change. */
  onChange(f: (up: boolean) => void): void;
  stop(): void;
}

export function watchDatabase(db: Database, log: Log, everyMs = DATABASE_WATCH_MS): DatabaseWatch {
  let up = true;
  let looking = false;
  let stopped = false;
  const changed: ((up: boolean) => void)[] = [];
  const look = async () => {
    if (looking || stopped) return;
    looking = true;
    try {
      const now = await db.ping();
      if (now === up || stopped) return;
      up = now;
      if (up) log('info', 'database: answering again; serving as before');
      else log('warn', 'database: not answering; refusing what needs it and trying again');
      for (const f of changed) f(up);
    } finally {
      looking = false;
    }
  };
  db.onConnectionLost((err) => {
    log('warn', 'database: a connection was lost; the pool opens a new one when next needed', {
      err: String(err),
    });
    void look();
  });
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  return {
    up: () => up,
    onChange(f) {
      changed.push(f);
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
