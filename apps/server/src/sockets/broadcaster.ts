/**
 * A world's changes to the sockets of this process, after the acknowledgement. Each viewer gets its
 * own messages, made from what the engine says it may see (worlds/viewer-patches.ts): a seat's
 * sockets, in that seat's room, get its patches with its legal orders; spectators share the
 * spectators' patches. With several processes each one tells its own sockets (`io.local`) from its
 * own copy of the world, told of the others' changes by cluster/world-changes.ts.
 *
 * A commit's messages go out just after its acknowledgement, not before it: the sender's answer
 * waits for the durable commit only, not for every viewer's patch and legal orders (the work of a
 * turn end). Commits that come before the broadcast started are sent together, in order, each
 * viewer's legal orders computed once for them all. The world's status rides in the same messages
 * (one message per viewer and order, not two): each status goes with the patch of the version it
 * was taken at. A status taken while a broadcast is due or under way waits for it, so that no
 * viewer sees an older status after a newer one.
 */
import type { WorldStatusMessage } from '@bke/protocol';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import type { Viewer } from '../worlds/viewer-patches.ts';
import { playerRoom, worldRoom } from './rooms.ts';
import type { SeatLegalOrders } from './seat-legal-orders.ts';
import type { Io } from './typed-server.ts';
import { sendPatches } from './viewer-messages.ts';
import type { WorldStatus } from './world-status.ts';

/**
 * A broadcast gives the event loop back after this long (between two viewers), so that the orders
 * waiting to be read are not held behind a turn end's messages to every seat.
 */
const BROADCAST_SLICE_MS = 4;

/** The versions a world's viewers are due; `from` is null when only statuses are due. */
interface Due {
  from: number | null;
  to: number;
  statuses: Promise<WorldStatusMessage>[];
}

export class Broadcaster {
  /** Per world, what its viewers are due while a broadcast waits to start. */
  private readonly due = new Map<string, Due>();
  /** Worlds whose broadcast is under way (the next one starts when it is done). */
  private readonly sending = new Set<string>();

  constructor(
    private readonly io: Io,
    private readonly hub: WorldHub,
    private readonly legal: SeatLegalOrders,
    private readonly status: WorldStatus,
    private readonly log: (msg: string, data: object) => void,
  ) {}

  /** Hears every world's commits and status changes from the worlds' emitter (worlds/world-events.ts). */
  listen(): void {
    this.hub.events.on('patches', (rt, from, headChanged) => this.patches(rt, from, headChanged));
    this.hub.events.on('status', (rt) => this.statusChanged(rt));
  }

  /** A commit moved the world from `from` (its head too, when `headChanged`). */
  patches(rt: WorldRuntime, from: number, headChanged: boolean): void {
    const status = headChanged ? this.status.afterAck(rt) : null;
    if (rt.version !== from) this.soon(rt, from, status);
    else if (status) this.sendStatus(rt, status); // the head moved, not the state
  }

  /** The world's status changed without a commit of an order (a deadline, a pause, a seat). */
  statusChanged(rt: WorldRuntime): void {
    this.sendStatus(rt, this.status.afterAck(rt));
  }

  private soon(rt: WorldRuntime, from: number | null, status: Promise<WorldStatusMessage> | null): void {
    const pending = this.due.get(rt.id);
    // Only committed versions are sent: `to` is the version of the latest commit told here (a
    // moderator's transaction may have moved the world in memory before it commits).
    if (pending) {
      if (from !== null) {
        pending.from ??= from;
        pending.to = rt.version;
      }
      if (status) pending.statuses.push(status);
      return;
    }
    this.due.set(rt.id, { from, to: from === null ? -1 : rt.version, statuses: status ? [status] : [] });
    if (!this.sending.has(rt.id)) setImmediate(() => this.start(rt));
  }

  /** The world's status to every viewer: at once, or after the broadcast due or under way. */
  private sendStatus(rt: WorldRuntime, status: Promise<WorldStatusMessage>): void {
    if (this.due.has(rt.id) || this.sending.has(rt.id)) {
      this.soon(rt, null, status);
      return;
    }
    status
      .then((s) => this.io.local.to(worldRoom(rt.id)).emit('world/status', s))
      .catch((e) => this.log('world status not sent', { world: rt.id, err: String(e) }));
  }

  /**
   * Sends a world's due versions viewer by viewer (the spectators, then each seat), giving the
   * event loop back whenever BROADCAST_SLICE_MS have gone: a turn end's patches and legal orders for
   * every seat would otherwise run as one long task, and the orders that arrive meanwhile, of any
   * world, would wait for all of it before they are even read. A cheap broadcast still goes out in
   * one go. Each viewer receives its messages in version order: a world's next broadcast starts only
   * after this one reached every viewer.
   */
  private start(rt: WorldRuntime): void {
    const range = this.due.get(rt.id);
    if (!range) return;
    this.due.delete(rt.id);
    this.sending.add(rt.id);
    const done = (): void => {
      this.sending.delete(rt.id);
      if (this.due.has(rt.id)) setImmediate(() => this.start(rt));
    };
    if (range.statuses.length === 0) {
      this.sendRange(rt, range.from, range.to, [], done);
      return;
    }
    // A status's head is taken at its commit and its ready flags after the acknowledgement (with
    // early resolution they need no query); one that failed is left out, as a lost message would be.
    void Promise.all(
      range.statuses.map((p) =>
        p.catch((e: unknown) => {
          this.log('world status not sent', { world: rt.id, err: String(e) });
          return null;
        }),
      ),
    ).then((all) =>
      this.sendRange(
        rt,
        range.from,
        range.to,
        all.filter((s) => s !== null),
        done,
      ),
    );
  }

  /** Sends versions `from` → `to` (none when `from` is null or `to`) with `statuses`, then `done`. */
  private sendRange(
    rt: WorldRuntime,
    from: number | null,
    to: number,
    statuses: readonly WorldStatusMessage[],
    done: () => void,
  ): void {
    const statusOnly = () => {
      for (const s of statuses) this.io.local.to(worldRoom(rt.id)).emit('world/status', s);
    };
    if (from === null || from === to) {
      statusOnly();
      done();
      return;
    }
    let steps: (() => void)[];
    try {
      steps = this.steps(rt, from, to, statuses);
    } catch (e) {
      this.log('world patches not sent', { world: rt.id, err: String(e) });
      statusOnly();
      done();
      return;
    }
    let i = 0;
    const slice = (): void => {
      const began = performance.now();
      while (i < steps.length) {
        try {
          steps[i]!();
        } catch (e) {
          this.log('world patches not sent', { world: rt.id, err: String(e) });
        }
        i++;
        if (i < steps.length && performance.now() - began >= BROADCAST_SLICE_MS) {
          setImmediate(slice);
          return;
        }
      }
      done();
    };
    slice();
  }

  /** Each viewer's messages of a world from version `from` to `to`, one step per viewer. */
  private steps(
    rt: WorldRuntime,
    from: number,
    to: number,
    statuses: readonly WorldStatusMessage[],
  ): (() => void)[] {
    const seats = rt.state.players.map((p) => p.id);
    const seatRooms = seats.map((p) => playerRoom(rt.id, p));
    const sendTo = (sockets: ReturnType<Io['local']['to']>, viewer: Viewer) =>
      sendPatches(this.hub, this.legal, rt, { from, to }, viewer, statuses, {
        patch: (m) => sockets.emit('world/patch', m),
        view: (v) => sockets.emit('world/view', v),
      });
    const steps = [
      () => {
        // Spectators: the world's room but no seat's room; they all share one set of messages,
        // made and encoded only when there is one (an emit encodes its message before it looks
        // for sockets).
        if (!this.hasSpectators(rt.id, seatRooms)) return;
        sendTo(this.io.local.to(worldRoom(rt.id)).except(seatRooms), null);
      },
    ];
    for (const seat of seats)
      steps.push(() => {
        const room = playerRoom(rt.id, seat);
        if (!this.io.of('/').adapter.rooms.get(room)?.size) {
          this.legal.forget(room);
          return;
        }
        sendTo(this.io.local.to(room), seat);
      });
    return steps;
  }

  /** Whether a socket of this process watches the world from no seat of `seatRooms`. */
  private hasSpectators(worldId: string, seatRooms: readonly string[]): boolean {
    const rooms = this.io.of('/').adapter.rooms;
    const watching = rooms.get(worldRoom(worldId));
    if (!watching) return false;
    const seated = seatRooms.map((r) => rooms.get(r)).filter((r) => r !== undefined);
    for (const sid of watching) if (!seated.some((r) => r.has(sid))) return true;
    return false;
  }
}
