/**
 * One stretch of a world's log, replayed in a worker thread for a rebuild that replays several
 * stretches side by side (rebuild-parallel.ts): from its start state (the created game, or the
 * state stored in the snapshot the stretch begins at), through the rows it is handed a page at a
 * time, checking each snapshot it is handed when the replay reaches its seq, with the checks
 * rebuild.ts makes. It reads no database: its rows and snapshots come with its messages.
 */
import { type Engine, type GameState, upgradeState } from '@bke/engine';
import { publicViewHash, type StoredSnapshot, snapshotProblems } from './rebuild-checks.ts';
import { type ReplayedOrder, replayRowsWith } from './store.ts';

/** A snapshot handed to a stretch: checked when the replay reaches `seq` (a rollback restores it). */
export interface SnapshotAt extends StoredSnapshot {
  seq: number;
}

/** What the thread that reads the log tells a worker. */
export type RangeMessage =
  /** A new stretch from `from`: `state` is the state there as stored (or the created game at 0). */
  | { type: 'start'; worldId: string; from: number; state: unknown; snapshots: SnapshotAt[] }
  /** The stretch's next rows, in order, and the snapshots whose seqs are among them. */
  | { type: 'page'; rows: ReplayedOrder[]; snapshots: SnapshotAt[] }
  /** The stretch has no more rows; `last`: it ends the log (its public view is wanted). */
  | { type: 'end'; last: boolean };

/** What a stretch found. */
export interface RangeResult {
  /** Rows replayed, and the seq of the last one (`from` when none). */
  orders: number;
  lastSeq: number;
  snapshotsChecked: number;
  problems: string[];
  /** The hash of the state the stretch ended in, and (for the log's last stretch) of its public view. */
  finalHash: string;
  viewHash: string | null;
}

/** What a worker answers: a stretch started, a page replayed, a stretch ended, or a replay that threw. */
export type RangeAnswer =
  | { type: 'started' }
  | { type: 'paged' }
  | { type: 'ended'; result: RangeResult }
  | { type: 'failed'; message: string };

export class RangeReplay {
  private state: GameState;
  private readonly snapshots = new Map<number, StoredSnapshot>();
  private orders = 0;
  private lastSeq: number;
  private checked = 0;
  private readonly problems: string[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly worldId: string,
    start: Extract<RangeMessage, { type: 'start' }>,
  ) {
    this.state = upgradeState(start.state);
    this.lastSeq = start.from;
    this.add(start.snapshots);
    this.check(start.from);
  }

  /** Replays a page of rows (a rollback row restores its snapshot, handed with the page). */
  async page(rows: readonly ReplayedOrder[], snapshots: readonly SnapshotAt[]): Promise<void> {
    this.add(snapshots);
    const restored = (seq: number) => this.snapshots.get(seq)?.state;
    this.state = await replayRowsWith(restored, this.engine, this.worldId, this.state, rows, (r, next) => {
      this.state = next;
      this.orders++;
      this.lastSeq = r.seq;
      this.check(r.seq);
    });
    // A page's snapshots are behind the replay once it has run: nothing is kept past its page.
    this.snapshots.clear();
  }

  end(last: boolean): RangeResult {
    return {
      orders: this.orders,
      lastSeq: this.lastSeq,
      snapshotsChecked: this.checked,
      problems: this.problems,
      finalHash: this.engine.hash(this.state),
      viewHash: last ? publicViewHash(this.engine.view(this.state, null)) : null,
    };
  }

  private add(snapshots: readonly SnapshotAt[]): void {
    for (const s of snapshots) this.snapshots.set(s.seq, s);
  }

  private check(seq: number): void {
    const snap = this.snapshots.get(seq);
    if (!snap) return;
    this.checked++;
    this.problems.push(...snapshotProblems(this.engine, seq, this.state, snap));
  }
}
