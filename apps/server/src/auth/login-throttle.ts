/**
 * The log-in slow-down per account name, in the database so every server process sees the same
 * count. An account name takes `freeFailures` failed log-ins freely; after that each attempt must
 * wait for its turn, `firstDelaySeconds` (1 s) after the last failure, then twice that, four times …
 * up to `maxDelaySeconds`, whatever
 * address it comes from. An attempt that arrives early is refused without its password being
 * checked. It is a slow-down, not a lock-out: turns keep coming, and a browser that once logged in
 * to the account is not slowed down at all (devices.ts), so an attacker cannot keep its owner out.
 * A name that had no failure for a day starts afresh. Unknown names are counted like known ones, so
 * the answers tell nothing about which names exist.
 *
 * An attempt is counted as a failure when it claims its turn, before its password is checked, and
 * forgotten with the rest when the password is right: guesses sent at once are counted as they
 * arrive, so no more of them are checked than one after another would be (counted only once they
 * had failed, every concurrent guess inside the free ones was checked).
 */
import type { Database } from '../db/database.ts';

export interface ThrottleSettings {
  freeFailures: number;
  /** The first wait past the free failures; each further failure doubles it. */
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/**
 * Claims this attempt's turn: null when it may be checked now, else the seconds to wait. Atomic:
 * the claim counts the attempt as a failure at once, and the one that reaches the free failures
 * (or takes a turn past them) moves the next turn on, so concurrent attempts are refused past it.
 */
export async function claimAttempt(
  db: Database,
  usernameKey: string,
  s: ThrottleSettings,
): Promise<number | null> {
  // `counted` is the failures with this attempt: the old count (0 once a day old) plus one.
  const counted = `(CASE WHEN login_throttles.next_at < now() - interval '1 day' THEN 0 ELSE login_throttles.failures END + 1)`;
  const claimed = await db.sql<{ failures: number }>(
    `INSERT INTO login_throttles (username_key, failures, next_at)
     VALUES ($1, 1, CASE WHEN 1 >= $2 THEN now() + make_interval(secs => LEAST($3::float8, $4::float8 * power(2, 1 - $2))) ELSE now() END)
     ON CONFLICT (username_key) DO UPDATE SET
       failures = ${counted},
       next_at = CASE WHEN ${counted} >= $2
                      THEN now() + make_interval(secs => LEAST($3::float8, $4::float8 * power(2, ${counted} - $2)))
                      ELSE login_throttles.next_at END
       WHERE login_throttles.next_at <= now()
     RETURNING failures`,
    [usernameKey, s.freeFailures, s.maxDelaySeconds, s.firstDelaySeconds],
  );
  if (claimed.length > 0) return null;
  const row = await db.sql<{ wait: number }>(
    'SELECT GREATEST(1, ceil(extract(epoch FROM next_at - now())))::int AS wait FROM login_throttles WHERE username_key = $1',
    [usernameKey],
  );
  return row[0]?.wait ?? 1;
}

/**
 * A failed attempt. One that claimed its turn was counted then: its wait now starts from the end
 * of the check. One that claimed nothing (a browser known to the account) counts now.
 */
export async function recordFailure(
  db: Database,
  usernameKey: string,
  s: ThrottleSettings,
  claimed: boolean,
): Promise<void> {
  const failures = claimed ? 'failures' : 'failures + 1';
  await db.sql(
    `UPDATE login_throttles SET failures = ${failures},
       next_at = CASE WHEN ${failures} >= $2
                      THEN GREATEST(next_at, now() + make_interval(secs => LEAST($3::float8, $4::float8 * power(2, ${failures} - $2))))
                      ELSE next_at END
     WHERE username_key = $1`,
    [usernameKey, s.freeFailures, s.maxDelaySeconds, s.firstDelaySeconds],
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
