/**
 * What each viewer receives of a world's orders: for a player seat or a spectator, the patch that
 * takes ITS view (the engine's `view(state, viewer)`) from one version to the next, with the events
 * of that order the engine lets it see (`eventsFor`). The engine decides what is private — another
 * player's standing bids and plans, lease offers between others — so nothing here reads paths or
 * guesses: a viewer's patch is the difference of two of its own views, and a private change
 * reaches its owner as a small delta, never as a full view.
 *
 * The world keeps the states of its last `capacity` orders in memory (states are immutable and
 * share what did not change, so each costs little more than its change). Every patch is computed
 * once per version per distinct viewer — spectators all share one — on first demand: the live
 * broadcast, a reconnecting client's catch-up and the answer to a stale order read the same
 * memo. A version older than what is held has no per-viewer patch: a player then gets a full view,
 * a spectator the stored public patches (`storedPatch`), whose events go through the same filter.
 */
import {
  type Engine,
  type GameEvent,
  type GameState,
  type GameView,
  type PlayerId,
  VIEWER_KEYS,
} from '@bke/engine';
import { escapePointer, type PatchMessage, type PatchOp } from '@bke/protocol';
import { diffViews } from './diff.ts';

/** A viewer: a seated player, or null for a spectator (every spectator sees the same). */
export type Viewer = PlayerId | null;

/** The one builder of a patch message: a viewer's ops from version `seq − 1` to `seq`, and its events. */
function patchMessage(
  engine: Engine,
  worldId: string,
  seq: number,
  ops: readonly PatchOp[],
  events: readonly GameEvent[],
  viewer: Viewer,
): PatchMessage {
  return {
    worldId,
    from: seq - 1,
    to: seq,
    ops: ops as PatchOp[],
    events: engine.eventsFor(events, viewer) as unknown as PatchMessage['events'],
  };
}

/** A logged order as the log stores it: its public patch and all its events. */
export interface StoredPatch {
  readonly seq: number;
  readonly patch: unknown;
  readonly events: unknown;
}

/** A logged order's stored public patch, as a spectator receives it (older than the memory holds). */
export const storedPatch = (engine: Engine, worldId: string, row: StoredPatch): PatchMessage =>
  patchMessage(engine, worldId, row.seq, row.patch as PatchOp[], row.events as GameEvent[], null);

interface Step {
  readonly seq: number;
  readonly state: GameState;
  readonly events: readonly GameEvent[];
  /** Per viewer ('' for spectators), its patch message, made on first demand. */
  readonly made: Map<string, PatchMessage>;
}

const key = (viewer: Viewer): string => viewer ?? '';

const VIEWER_ROOTS = new Set<string>(VIEWER_KEYS.map(escapePointer));
/** The first key of a JSON pointer, escaped ("/realm/players/p1" → "realm"). */
const rootOf = (path: string): string => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

/**
 * A seat's ops for one order: the spectators' ops outside the engine's VIEWER_KEYS (there every
 * viewer's view holds what the spectators' holds, so the ops are the same) and the diff of the
 * seat's own part. Each view is walked once per order for all seats, not once per seat.
 */
function seatOps(publicOps: readonly PatchOp[], ownOps: readonly PatchOp[]): PatchOp[] {
  const out: PatchOp[] = [];
  for (const op of publicOps) if (!VIEWER_ROOTS.has(rootOf(op.path))) out.push(op);
  for (const op of ownOps) out.push(op);
  return out;
}

export class ViewerPatches {
  /** The state before the first step held. */
  private base: { seq: number; state: GameState };
  private steps: Step[] = [];
  /** Each state's views, per viewer: every view is made once, however many patches read it. */
  private readonly views = new WeakMap<GameState, Map<string, GameView>>();

  constructor(
    private readonly engine: Engine,
    private readonly worldId: string,
    seq: number,
    state: GameState,
    private readonly capacity: number,
  ) {
    this.base = { seq, state };
  }

  /** The latest version held. */
  get version(): number {
    return this.steps.at(-1)?.seq ?? this.base.seq;
  }

  /** The earliest version a viewer may be brought on from with patches. */
  get oldest(): number {
    return this.base.seq;
  }

  /**
   * Order `seq` left `state`, with `events`. `publicOps`, when the caller has them (the commit made
   * them for the log), is the spectators' patch, so it is not computed twice.
   */
  push(seq: number, state: GameState, events: readonly GameEvent[], publicOps?: readonly PatchOp[]): void {
    if (seq !== this.version + 1) {
      // A gap (a world reloaded, a version skipped): what came before no longer leads here.
      this.reset(seq, state);
      return;
    }
    const made = new Map<string, PatchMessage>();
    if (publicOps) made.set('', patchMessage(this.engine, this.worldId, seq, publicOps, events, null));
    this.steps.push({ seq, state, events, made });
    while (this.steps.length > this.capacity) {
      const first = this.steps.shift()!;
      this.base = { seq: first.seq, state: first.state };
    }
  }

  /** Starts afresh at `seq` (a loaded world, a rollback): nothing earlier is held. */
  reset(seq: number, state: GameState): void {
    this.base = { seq, state };
    this.steps = [];
  }

  /** Forgets the steps after `seq` (a transaction that wrote them failed). */
  truncate(seq: number): void {
    this.steps = this.steps.filter((s) => s.seq <= seq);
  }

  /** The state at version `seq`, if held. */
  stateAt(seq: number): GameState | undefined {
    if (seq === this.base.seq) return this.base.state;
    const i = seq - this.base.seq - 1;
    return this.steps[i]?.seq === seq ? this.steps[i].state : this.steps.find((s) => s.seq === seq)?.state;
  }

  /** `viewer`'s view of the state at version `seq`, if held. */
  view(seq: number, viewer: Viewer): GameView | undefined {
    const state = this.stateAt(seq);
    return state ? this.viewOf(state, viewer) : undefined;
  }

  /**
   * `viewer`'s patches from version `from` to `to` (each order's), or undefined when the memory
   * does not reach back to `from`.
   */
  patches(from: number, to: number, viewer: Viewer): PatchMessage[] | undefined {
    if (from < this.base.seq || to > this.version || from > to) return undefined;
    const out: PatchMessage[] = [];
    for (let i = from - this.base.seq; i < to - this.base.seq; i++) out.push(this.patchAt(i, viewer));
    return out;
  }

  private patchAt(i: number, viewer: Viewer): PatchMessage {
    const step = this.steps[i]!;
    const k = key(viewer);
    let msg = step.made.get(k);
    if (!msg) {
      const before = i === 0 ? this.base.state : this.steps[i - 1]!.state;
      const publicOps = viewer === null ? null : this.patchAt(i, null).ops;
      const ops =
        publicOps === null || publicOps.some((op) => op.path === '')
          ? // A spectator, or (never from two views, which are objects) a change of the whole view.
            diffViews(this.viewOf(before, viewer), this.viewOf(step.state, viewer))
          : seatOps(
              publicOps,
              diffViews(this.engine.viewerPart(before, viewer), this.engine.viewerPart(step.state, viewer)),
            );
      msg = patchMessage(this.engine, this.worldId, step.seq, ops, step.events, viewer);
      step.made.set(k, msg);
    }
    return msg;
  }

  private viewOf(state: GameState, viewer: Viewer): GameView {
    let byViewer = this.views.get(state);
    if (!byViewer) {
      byViewer = new Map();
      this.views.set(state, byViewer);
    }
    let v = byViewer.get(key(viewer));
    if (!v) {
      v = this.engine.view(state, viewer);
      byViewer.set(key(viewer), v);
    }
    return v;
  }
}
