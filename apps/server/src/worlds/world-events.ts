/**
 * What the worlds of this process tell the rest of the server, through one typed emitter: the
 * sockets send each viewer its patches and the status, the bots and the moderation tools act after
 * a commit, the cluster tells the other processes, the metrics count. Listeners run in the order
 * they were added, synchronously, as `emit` does; `emitInTurn` awaits each in turn, for a listener
 * that must finish inside the world's queue (holding a seat that went away).
 */
import { EventEmitter } from 'node:events';
import type { RuntimeHooks, WorldRuntime } from './runtime.ts';

export interface WorldEventMap {
  /**
   * The world moved on from version `from` to `rt.version`: each viewer is due its patches, and,
   * when `headChanged` (the step, its deadline or the status moved), the world's status with them.
   */
  patches: [rt: WorldRuntime, from: number, headChanged: boolean];
  /**
   * After every commit, inside the world's queue, after `patches` (the moderation tools hold absent
   * seats from here). A listener queues further work with `rt.run`, never awaits it inline.
   */
  committed: [rt: WorldRuntime, from: number];
  /** The world's status moved outside an order (ready flags, seats, another process's change). */
  status: [rt: WorldRuntime];
  /** A seat was given up: the sockets playing it stop receiving what only that seat may see. */
  seatEnded: [worldId: string, playerId: string];
  /** A world's seats changed here (a bot seated or gone, a stand-in set or ended). */
  seatsChanged: [rt: WorldRuntime];
  /**
   * A seat went away or came back, inside the world's queue (`emitInTurn`): the moderation tools
   * hold away seats with the engine's default orders (moderation/seats.ts).
   */
  awayChanged: [rt: WorldRuntime];
  /**
   * This process changed the world (its log, head, seats or ready flags): the other processes are
   * told (cluster/world-changes.ts). A listener never throws and never waits.
   */
  changedHere: [worldId: string];
  /** Another process changed the world (the bots and the moderation tools drop what they cached). */
  changedElsewhere: [worldId: string];
  /** This process fired the world's deadline (the metrics count them). */
  deadlineFired: [worldId: string];
  /**
   * The world was let go of (the bots and the moderation tools drop what they keep of it: nothing
   * tells them of other processes' changes to a world this one does not hold).
   */
  unloaded: [worldId: string];
}

export type WorldEventName = keyof WorldEventMap;

/**
 * Listeners per event before Node warns of a leak: each part of a server adds one or two, a test
 * a few more; far more means listeners added per world or per socket, which is a bug.
 */
const MAX_LISTENERS = 20;

export class WorldEvents extends EventEmitter<WorldEventMap> {
  constructor() {
    super();
    this.setMaxListeners(MAX_LISTENERS);
  }

  /** Calls each listener of `event` in turn and awaits what it returns before the next. */
  async emitInTurn<K extends WorldEventName>(event: K, ...args: WorldEventMap[K]): Promise<void> {
    for (const listener of this.listeners(event) as ((...a: WorldEventMap[K]) => unknown)[])
      await listener(...args);
  }
}

/**
 * What a runtime calls as it commits, said as events: the patches first, then the commit's other
 * listeners; orders of this process in the log are news for the other processes, and so is a seat
 * marked ready (with the world's status for its viewers).
 */
export function runtimeHooks(
  events: WorldEvents,
  log: (msg: string, data?: object) => void,
  reclaimed: (rt: WorldRuntime) => void,
  publish: (worldId: string) => void,
): RuntimeHooks {
  return {
    committed: (rt, from, headChanged) => {
      events.emit('patches', rt, from, headChanged);
      events.emit('committed', rt, from);
    },
    log,
    appended: (rt) => events.emit('changedHere', rt.id),
    reclaimed,
    readied: (rt) => {
      events.emit('status', rt);
      publish(rt.id);
    },
  };
}
