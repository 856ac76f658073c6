/**
 * The daily digest: at the hour a player chose, in their time zone, one mail listing the worlds that
 * wait for their move (none when nothing waits), each with what happened there since the player's
 * last visit. Each account's `digest_due_at` is claimed by
 * moving it to the next day's hour in one conditional update, so one process sends it; the dedupe
 * key (the player's calendar day) keeps it to one a day even if the clock is moved back.
 */
import type { PlayerId } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { localDay, nextLocalHour } from '../mail/local-time.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sinceLastInWords } from '../mail/since-last-words.ts';
import type { WaitingWorld } from '../mail/templates.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { seenSeat, sinceLast } from '../worlds/since-last.ts';
import { type MailRecipient, queueDigestMail, RECIPIENT_COLUMNS, waitingWorld } from './turn-mail.ts';

export interface DigestRunner {
  /** Queues the digests due at `now`; returns how many were queued. */
  run(now?: Date): Promise<number>;
}

type Due = MailRecipient & { digest_hour: number; digest_due_at: Date };

export function digestRunner(
  db: Database,
  hub: WorldHub,
  mailer: Mailer,
  nameOf: (worldId: string) => Promise<string>,
): DigestRunner {
  let running = false;

  /** The worlds whose current step waits for this account's seats (and that it did not declare ready for). */
  async function waitingFor(r: MailRecipient): Promise<WaitingWorld[]> {
    const seats = await db.sql<{ world_id: string; player_id: string; ready_key: string | null }>(
      `SELECT s.world_id::text AS world_id, s.player_id, s.ready_key FROM world_seats s
         JOIN worlds w ON w.id = s.world_id
        WHERE s.user_id = $1::uuid AND s.left_at IS NULL AND w.status = 'running' AND w.step_key <> ''
        ORDER BY w.deadline_at NULLS LAST`,
      [r.user_id],
    );
    const out: WaitingWorld[] = [];
    for (const s of seats) {
      const rt = await hub.get(s.world_id);
      if (!rt) continue;
      await rt.settled();
      if (!rt.waitingFor().includes(s.player_id as PlayerId) || s.ready_key === rt.head.stepKey) continue;
      const world = { id: s.world_id, name: await nameOf(s.world_id) };
      // The same summary the world's page shows on return, from what this seat may see; the
      // digest does not mark it seen (the player has not been to the page).
      const seat = await seenSeat(db, s.world_id, r.user_id);
      const since = seat
        ? sinceLastInWords(await sinceLast(db, hub.engine, s.world_id, rt.version, seat))
        : null;
      out.push({
        ...waitingWorld(mailer, world, rt.state, rt.head.deadlineAt, r.time_zone),
        sinceLast: since,
      });
    }
    return out;
  }

  async function run(now = new Date()): Promise<number> {
    if (running) return 0;
    running = true;
    try {
      let queued = 0;
      const due = await db.sql<Due>(
        `SELECT ${RECIPIENT_COLUMNS}, u.digest_hour, u.digest_due_at FROM users u
          WHERE u.notify_mode = 'digest' AND u.digest_due_at <= $1
          ORDER BY u.digest_due_at LIMIT 100`,
        [now],
      );
      for (const d of due) {
        const next = nextLocalHour(now, d.time_zone, d.digest_hour);
        const claimed = await db.sql(
          `UPDATE users SET digest_due_at = $3 WHERE id = $1::uuid AND digest_due_at = $2 RETURNING id`,
          [d.user_id, d.digest_due_at, next],
        );
        if (claimed.length === 0 || !d.email) continue;
        const day = localDay(d.digest_due_at, d.time_zone);
        if (await queueDigestMail(db, mailer, d, day, await waitingFor(d))) queued++;
      }
      return queued;
    } finally {
      running = false;
    }
  }

  return { run };
}
