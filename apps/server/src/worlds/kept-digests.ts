/**
 * The digests kept of the worlds this process let go of (digests.ts), in memory for the lobby and
 * in the database for the next process (stored-digests.ts): listing the worlds loads none that
 * this process let go of while its stored head is still the one it had.
 */
import type { Database } from '../db/database.ts';
import { digestOf, type WorldDigest, WorldDigests } from './digests.ts';
import type { WorldRuntime } from './runtime.ts';
import { storeDigest } from './stored-digests.ts';

export class KeptDigests extends WorldDigests {
  /** Digests being stored now (`stored`). */
  private readonly storing = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly log: (msg: string, data?: object) => void,
  ) {
    super();
  }

  /** Keeps the digest of a world let go of, here and (in the background) in the database. */
  keep(rt: WorldRuntime): void {
    const digest = digestToKeep(rt);
    this.set(rt.id, digest);
    void this.store(this.db.background, rt.id, digest);
  }

  /** Resolves once the digests being stored now are written (or failed). */
  async stored(): Promise<void> {
    while (this.storing.size > 0) await Promise.all(this.storing);
  }

  /**
   * Stores the digest of every world in `held`, each once its queue is done: for a process about
   * to stop, so that the next one lists the worlds in use now without loading them either.
   */
  async storeAll(held: readonly WorldRuntime[]): Promise<void> {
    await Promise.all(
      held.map(async (rt) => {
        await rt.settled();
        await this.store(this.db, rt.id, digestToKeep(rt));
      }),
    );
  }

  /** Stores a digest for the next process; a failure is logged, and the lobby loads that world instead. */
  private store(db: Database, worldId: string, digest: WorldDigest): Promise<void> {
    const p = storeDigest(db, worldId, digest)
      .catch((e) =>
        this.log('a digest was not stored (the lobby loads that world instead)', {
          world: worldId,
          err: String(e),
        }),
      )
      .finally(() => this.storing.delete(p));
    this.storing.add(p);
    return p;
  }
}

/** The digest kept of a world let go of: the standings only of a closed world (the finished list shows them). */
const digestToKeep = (rt: WorldRuntime): WorldDigest => digestOf(rt, rt.settings.status === 'closed');
