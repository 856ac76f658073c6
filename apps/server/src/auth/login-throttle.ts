/**
 * The log-in slow-down per account name, in the database so every server process sees the same
 * count. An account name takes `freeFailures` failed log-ins freely; after that each attempt must
 * wait for its turn, 1 s after the last failure, then 2 s, 4 s … up to `maxDelaySeconds`, whatever
 * address it comes from. An attempt that arrives early is refused without its password being
 * checked. It is a slow-down, not a lock-out: turns keep coming, and a browser that once logged in
 * to the account is not slowed down at all (devices.ts), so an attacker cannot keep its owner out.
 * A name that had no failure for a day starts afresh. Unknown names are counted like known ones, so
 * the answers tell nothing about which names exist.
 */
import type { Database } from '../db/database.ts';

export interface ThrottleSettings {
  freeFailures: number;
  maxDelaySeconds: number;
}

/**
 * Claims this attempt's turn: null when it may be checked now, else the seconds to wait. Atomic:
 * of concurrent attempts past the free ones only one gets the turn (it moves the next turn on).
 */
export async function claimAttempt(
  db: Database,
  usernameKey: string,
  s: ThrottleSettings,
): Promise<number | null> {
  const claimed = await db.sql<{ failures: number }>(
    `INSERT INTO login_throttles (username_key, failures, next_at) VALUES ($1, 0, now())
     ON CONFLICT (username_key) DO UPDATE SET
       failures = CASE WHEN login_throttles.next_at < now() - interval '1 day' THEN 0 ELSE login_throttles.failures END,
       next_at = CASE WHEN login_throttles.failures >= $2 AND login_throttles.next_at >= now() - interval '1 day'
                      THEN now() + make_interval(secs => LEAST($3::float8, power(2, login_throttles.failures - $2)))
                      ELSE login_throttles.next_at END
       WHERE login_throttles.next_at <= now()
     RETURNING failures`,
    [usernameKey, s.freeFailures, s.maxDelaySeconds],
  );
  if (claimed.length > 0) return null;
  const row = await db.sql<{ wait: number }>(
    'SELECT GREATEST(1, ceil(extract(epoch FROM next_at - now())))::int AS wait FROM login_throttles WHERE username_key = $1',
    [usernameKey],
  );
  return row[0]?.wait ?? 1;
}

/** A failed attempt: one more failure; past the free ones, the next turn waits longer. */
export async function recordFailure(db: Database, usernameKey: string, s: ThrottleSettings): Promise<void> {
  await db.sql(
    `UPDATE login_throttles SET failures = failures + 1,
       next_at = CASE WHEN failures + 1 >= $2
                      THEN GREATEST(next_at, now() + make_interval(secs => LEAST($3::float8, power(2, failures + 1 - $2))))
                      ELSE next_at END
     WHERE username_key = $1`,
    [usernameKey, s.freeFailures, s.maxDelaySeconds],
  );
}

/** Forgets names whose last failure is a day old (they would start afresh anyway). */
export async function purgeOldFailures(db: Database): Promise<void> {
  await db.sql("DELETE FROM login_throttles WHERE next_at < now() - interval '1 day'");
}

/** A successful log-in: the name starts afresh. */
export async function clearFailures(db: Database, usernameKey: string): Promise<void> {
  await db.sql('DELETE FROM login_throttles WHERE username_key = $1', [usernameKey]);
}
