/**
 * The deadline runner. Deadlines live in the database (worlds.deadline_at); any process may claim
 * a due one with SKIP LOCKED, and the compare-and-set of the commit (on the log's next seq) makes
 * it fire exactly once.
 */
import type { Database } from '../db/database.ts';
import type { LoadedWorlds } from './loaded-worlds.ts';
import type { CommitResult, WorldRuntime } from './runtime.ts';
import type { Seating } from './seating.ts';
import type { WorldEvents } from './world-events.ts';

const CLAIM_SQL = `UPDATE worlds SET deadline_claimed_until = now() + interval '30 seconds'
          WHERE id IN (
            SELECT id FROM worlds
             WHERE status = 'running' AND deadline_at <= now()
               AND (deadline_claimed_until IS NULL OR deadline_claimed_until < now())
             ORDER BY deadline_at LIMIT 20
             FOR NO KEY UPDATE SKIP LOCKED)
          RETURNING id`;

export class Deadlines {
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: Database,
    private readonly worlds: LoadedWorlds,
    private readonly seating: Seating,
    private readonly events: WorldEvents,
    private readonly log: (msg: string, data?: object) => void,
  ) {}

  /**
   * The deadline of `rt`'s current step has passed: every player still waited for gets the
   * engine's default orders (hold, tax without pillage, …), and a missed turn unless they had
   * declared ready. Runs inside the world's queue; in a transaction (`db`, a moderator's "resolve
   * now"), the caller has caught up already.
   */
  async fire(rt: WorldRuntime, now = new Date(), db = this.db): Promise<CommitResult | null> {
    if (db === this.db) await rt.catchUp();
    const due = rt.head.deadlineAt;
    if (!due || due.getTime() > now.getTime() || rt.settings.status !== 'running') return null;
    const stepKey = rt.head.stepKey;
    const waiting = rt.waitingFor();
    const batch = rt.missedDeadline(waiting);
    if (batch.length === 0) {
      this.log('deadline passed but the engine gave no default orders', { world: rt.id, stepKey });
      return null;
    }
    const r = await rt.commit(batch, now, { db });
    if (r.ok) {
      const ready = new Set(await this.seating.ready(rt, stepKey, db));
      const missed = waiting.filter((p) => !ready.has(p));
      if (missed.length > 0)
        await db.prisma.worldSeat.updateMany({
          where: { worldId: rt.id, playerId: { in: missed } },
          data: { missedTurns: { increment: 1 } },
        });
    }
    return r;
  }

  /**
   * Claims due deadlines (SKIP LOCKED, so processes never wait on each other) and fires them. The
   * claim only sets a column no key holds (NO KEY UPDATE): a row that merely references the world
   * (a digest being stored, world_digests' foreign key takes KEY SHARE) does not make it skip it.
   */
  async poll(): Promise<number> {
    if (this.polling) return 0;
    this.polling = true;
    try {
      const due = await this.db.sql<{ id: string }>(CLAIM_SQL);
      let fired = 0;
      for (const { id } of due) if (await this.fireClaimed(id)) fired++;
      return fired;
    } finally {
      this.polling = false;
    }
  }

  /** Fires the claimed deadline of one world; whether it fired. A failure is logged, not thrown. */
  private async fireClaimed(worldId: string): Promise<boolean> {
    let fired = false;
    try {
      const rt = await this.worlds.get(worldId);
      if (!rt) return false;
      const r = await rt.run(() => this.fire(rt));
      if (r?.ok) {
        fired = true;
        this.events.emit('deadlineFired', worldId);
      }
      // A commit that moves the step releases the claim with the head it writes; one that left
      // the step (and its passed deadline) as it was, or lost to another process's commit,
      // does not touch the row: the claim is released here, so the deadline is looked at again
      // at the next poll rather than when the claim runs out.
      if (r) await this.releaseClaim(worldId);
    } catch (e) {
      this.log('deadline failed', { world: worldId, err: String(e) });
    }
    return fired;
  }

  private async releaseClaim(worldId: string): Promise<void> {
    await this.db.sql(
      `UPDATE worlds SET deadline_claimed_until = NULL
        WHERE id = $1::uuid AND deadline_claimed_until IS NOT NULL`,
      [worldId],
    );
  }

  start(intervalMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
