/**
 * With several processes each holds its own copy of the worlds its sockets watch. A process tells
 * the others of its changes (`publish`, and the `changedHere` event of every commit), is told of
 * theirs (`refresh`), and is kept honest by `sweep`, which compares its worlds with the database
 * (cluster/world-changes.ts calls both).
 */
import type { Database } from '../db/database.ts';
import type { LoadedWorlds } from './loaded-worlds.ts';
import type { WorldRuntime } from './runtime.ts';
import { LOG_VERSION } from './store.ts';
import type { WorldEvents } from './world-events.ts';

interface SweptWorld {
  id: string;
  version: number;
  step_key: string;
  status: WorldRuntime['settings']['status'];
  deadline_at: Date | null;
  pause_reason: string | null;
  phase_seconds: number;
  early_resolution: boolean;
  seats: string;
}

const SWEEP_SQL = `SELECT w.id, ${LOG_VERSION} AS version,
              w.step_key, w.status, w.deadline_at, w.pause_reason, w.phase_seconds,
              w.early_resolution,
              (SELECT coalesce(string_agg(concat_ws('|', s.player_id, s.user_id, s.ready_key, s.absent, s.left_at),
                                          ',' ORDER BY s.player_id), '')
                 FROM world_seats s WHERE s.world_id = w.id) AS seats
         FROM worlds w WHERE w.id = ANY($1::uuid[])`;

/** Whether the stored row says the world moved from what `rt` holds (its log, head or settings). */
function headMoved(w: SweptWorld, rt: WorldRuntime): boolean {
  return (
    w.version !== rt.version ||
    w.step_key !== rt.head.stepKey ||
    w.status !== rt.head.status ||
    (w.deadline_at?.getTime() ?? null) !== (rt.head.deadlineAt?.getTime() ?? null) ||
    w.pause_reason !== rt.settings.pauseReason ||
    w.phase_seconds !== rt.settings.phaseSeconds ||
    w.early_resolution !== rt.settings.earlyResolution
  );
}

export class ClusterCatchUp {
  /** Worlds with a catch-up queued and not started yet (one is enough for any number of messages). */
  private readonly refreshing = new Set<string>();
  /** Per world, its seats as `sweep` last saw them (ready flags, absences, departures). */
  private readonly seatMarks = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly worlds: LoadedWorlds,
    private readonly events: WorldEvents,
    private readonly log: (msg: string, data?: object) => void,
  ) {
    events.on('unloaded', (worldId) => this.seatMarks.delete(worldId));
  }

  /** Whether a catch-up of the world is queued and not started yet (the world is kept loaded). */
  due(worldId: string): boolean {
    return this.refreshing.has(worldId);
  }

  /**
   * Tells the other server processes that a world changed outside its order log (head, seats,
   * ready flags). Commits tell them by themselves.
   */
  publish(worldId: string): void {
    // This process's own change to the seats is no news to its next sweep.
    this.seatMarks.delete(worldId);
    this.events.emit('changedHere', worldId);
  }

  /**
   * Another process changed this world: bring this process's copy up to date (its sockets get the
   * missed patches through the usual events) and send the status, which may hold ready flags. A
   * world not loaded here needs nothing: it is read fresh when first asked for.
   */
  refresh(worldId: string): void {
    this.events.emit('changedElsewhere', worldId);
    const p = this.worlds.ifLoading(worldId);
    if (!p || this.refreshing.has(worldId)) return;
    this.refreshing.add(worldId);
    void p
      .then((rt) => {
        if (!rt) {
          this.refreshing.delete(worldId);
          return;
        }
        return rt.run(async () => {
          // From here on a new message needs a new catch-up: this one may read too early for it.
          this.refreshing.delete(worldId);
          await rt.catchUp();
          this.events.emit('status', rt);
        });
      })
      .catch((e) => {
        this.refreshing.delete(worldId);
        this.log('refresh failed', { worldId, err: String(e) });
      });
  }

  /**
   * Compares the worlds this process holds with the database and catches up those another process
   * changed without this one hearing of it (a message lost with a dropped connection or a process
   * that died between its commit and its message). Returns how many worlds were behind; seats that
   * changed (ready flags, absences) are sent in a fresh status.
   */
  async sweep(): Promise<number> {
    const held = this.worlds.loaded();
    if (held.length === 0) return 0;
    const rows = await this.db.sql<SweptWorld>(SWEEP_SQL, [held.map((rt) => rt.id)], 'bke_world_sweep');
    const checks: Promise<boolean>[] = [];
    for (const w of rows) {
      const rt = this.worlds.peek(w.id);
      if (!rt) continue;
      const lastSeats = this.seatMarks.get(w.id);
      this.seatMarks.set(w.id, w.seats);
      const seatsMoved = lastSeats !== undefined && lastSeats !== w.seats;
      if (!headMoved(w, rt) && !seatsMoved) continue;
      if (seatsMoved) this.events.emit('changedElsewhere', w.id);
      // Checked again in the world's queue: a commit of this process may have been on its way
      // when the heads were read, and then there is nothing to catch up.
      checks.push(
        rt.run(async () => {
          const moved = await rt.catchUp();
          if (moved || seatsMoved) this.events.emit('status', rt);
          return moved;
        }),
      );
    }
    return (await Promise.all(checks)).filter(Boolean).length;
  }

  /** Drops what it remembers of every world (tests simulate a fresh process). */
  forget(): void {
    this.seatMarks.clear();
  }
}
