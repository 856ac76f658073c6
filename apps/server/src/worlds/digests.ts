/**
 * What the lobby shows of a world that only its game state knows: the turn, the step, who is waited
 * for, the victory conditions, the players' names and colours, and once the world is closed its
 * standings. The hub keeps one for each world it let go of, so that listing the worlds neither loads
 * them (the latest snapshot and a replay of the orders after it, for a handful of fields) nor keeps
 * them in memory: on a busy site the newest worlds would never go idle while anyone looks at the
 * lobby.
 *
 * A digest is tagged with the world's head when it was taken. The order log is only ever appended
 * to (a rollback appends a row of its own), so the state at a version never changes: while the
 * stored head still equals the tag, the world is in the very state the digest was taken from. The
 * status, the step and its deadline are part of the tag because a moderator moves them without an
 * order (a pause, a new deadline, a close). A closed world takes no orders: its digest stays valid.
 * Each is also stored in the database for a process that starts afresh (stored-digests.ts).
 */
import { type Colour, type PlayerId, type Standing, standingsOf } from '@bke/engine';
import type { WorldSummary } from '@bke/protocol';
import type { WorldRuntime } from './runtime.ts';
import type { WorldHead } from './store.ts';

export interface WorldDigest {
  /** The head the world had when the digest was taken. */
  head: WorldHead;
  turn: number;
  step: WorldSummary['step'];
  waitingFor: PlayerId[];
  victory: WorldSummary['victory'];
  /** Every player in the game as the engine knows it: a bot's seat is shown by its name here. */
  players: { id: PlayerId; name: string; colour: Colour }[];
  /** The engine's standings, in seat order; null unless asked for (the finished worlds show them). */
  standings: Standing[] | null;
}

/**
 * Worlds let go of whose digest is kept. One costs at most about 3 kB of heap (six players with
 * their standings, measured on objects of this shape), so these cost about 14 MB at most; the lobby
 * lists the newest 250 worlds (200 running, 50 finished), so the oldest digests can go: a world
 * whose digest went is loaded once when it is listed again.
 */
const MAX_DIGESTS = 5000;

/** The digest of a runtime's current state; the standings only when `withStandings` (they are summed per player). */
export function digestOf(rt: WorldRuntime, withStandings: boolean): WorldDigest {
  const state = rt.state;
  const s = state.step;
  return {
    // The runtime's status is `settings.status` (the summaries have always shown that one); it
    // moves together with `head.status`.
    head: { ...rt.head, status: rt.settings.status },
    turn: state.turn,
    step: s.kind === 'playerTurn' ? { kind: s.kind, phase: s.phase } : { kind: s.kind },
    waitingFor: rt.waitingFor(),
    victory: state.options.victory,
    players: state.players.map((p) => ({ id: p.id, name: p.name, colour: p.colour })),
    standings: withStandings ? standingsOf(state) : null,
  };
}

/** Whether two heads are the same: the same version, status, step and deadline. */
export function sameHead(a: WorldHead, b: WorldHead): boolean {
  return (
    a.version === b.version &&
    a.status === b.status &&
    a.stepKey === b.stepKey &&
    (a.deadlineAt?.getTime() ?? null) === (b.deadlineAt?.getTime() ?? null)
  );
}

/** The digests of the worlds a hub let go of, the oldest dropped beyond `cap`. */
export class WorldDigests {
  private readonly byWorld = new Map<string, WorldDigest>();

  constructor(private readonly cap = MAX_DIGESTS) {}

  /** Keeps `digest` for the world, as the newest entry. */
  set(worldId: string, digest: WorldDigest): void {
    // Deleted first, so that the Map's insertion order stays the order the digests were taken in.
    this.byWorld.delete(worldId);
    this.byWorld.set(worldId, digest);
    for (const oldest of this.byWorld.keys()) {
      if (this.byWorld.size <= this.cap) break;
      this.byWorld.delete(oldest);
    }
  }

  /** The world's digest if it still describes the world whose stored head is `head`. */
  current(worldId: string, head: WorldHead): WorldDigest | undefined {
    const d = this.byWorld.get(worldId);
    return d && sameHead(d.head, head) ? d : undefined;
  }

  /** Drops the world's digest (it is held in memory again, or the process starts afresh). */
  delete(worldId: string): void {
    this.byWorld.delete(worldId);
  }

  clear(): void {
    this.byWorld.clear();
  }

  get size(): number {
    return this.byWorld.size;
  }
}
