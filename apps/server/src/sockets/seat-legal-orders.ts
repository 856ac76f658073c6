/**
 * Each seat's legal orders as its sockets get them. After every commit each connected seat may
 * need its list again; the list is
 * - computed at most once per version (memoised per state),
 * - not computed at all when the engine says it cannot have changed since the seat's list was last
 *   computed (`sameLegalOrders`: in the economic phase another player's decisions, 4.5; another
 *   player's undo record, 4): the earlier list is kept, the same array,
 * - told again to a seat's room only when it differs from the last the room was sent, which the
 *   same array answers at once and an equal JSON otherwise, compared without writing it out.
 */
import type { Engine, GameState, LegalOrder, PlayerId } from '@bke/engine';

type Lister = Pick<Engine, 'legalOrders' | 'sameLegalOrders'>;

export class SeatLegalOrders {
  /** Per state, each seat's legal orders. */
  private readonly memo = new WeakMap<GameState, Map<PlayerId, LegalOrder[]>>();
  /** Per world (its runtime, gone with it), each seat's latest listed state and orders. */
  private readonly latest = new WeakMap<object, Map<PlayerId, { state: GameState; orders: LegalOrder[] }>>();
  /** The legal orders last sent to each seat's room (its key). */
  private readonly sent = new Map<string, LegalOrder[]>();

  constructor(private readonly engine: Lister) {}

  /** `seat`'s legal orders in `state`, a state of `world`. */
  at(world: object, state: GameState, seat: PlayerId): LegalOrder[] {
    let bySeat = this.memo.get(state);
    if (!bySeat) {
      bySeat = new Map();
      this.memo.set(state, bySeat);
    }
    const known = bySeat.get(seat);
    if (known) return known;
    let seats = this.latest.get(world);
    if (!seats) {
      seats = new Map();
      this.latest.set(world, seats);
    }
    const last = seats.get(seat);
    const orders =
      last && this.engine.sameLegalOrders(last.state, state, seat)
        ? last.orders
        : this.engine.legalOrders(state, seat);
    bySeat.set(seat, orders);
    if (!last || last.state.version <= state.version) seats.set(seat, { state, orders });
    return orders;
  }

  /**
   * The seat's legal orders in `state`, and whether they differ from the last its room was sent:
   * they are taken as sent now. Answers to one socket (a subscribe, a stale order) use `at` and
   * leave this alone: the room's other sockets have not seen them.
   */
  forRoom(
    world: object,
    state: GameState,
    seat: PlayerId,
    room: string,
  ): { orders: LegalOrder[]; changed: boolean } {
    const orders = this.at(world, state, seat);
    const before = this.sent.get(room);
    const changed = before === undefined || !sameJson(before, orders);
    this.sent.set(room, orders);
    return { orders, changed };
  }

  /** The room has no socket left: whoever comes next gets the orders in full anyway. */
  forget(room: string): void {
    this.sent.delete(room);
  }
}

/** An element of an array as JSON writes it: nothing writable becomes null. */
const asElement = (v: unknown): unknown =>
  v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;

/** A property JSON writes (others are left out). */
const written = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/**
 * Whether `JSON.stringify(a) === JSON.stringify(b)`, told without writing either out: keys in
 * their order, left-out values left out. Anything with its own JSON form is written out instead.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return JSON.stringify(a) === JSON.stringify(b);
  if ('toJSON' in a || 'toJSON' in b) return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(asElement(a[i]), asElement(b[i]))) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < kx.length && !written(x[kx[i]!])) i++;
    while (j < ky.length && !written(y[ky[j]!])) j++;
    if (i === kx.length || j === ky.length) return i === kx.length && j === ky.length;
    const k = kx[i]!;
    if (k !== ky[j] || !sameJson(x[k], y[k])) return false;
    i++;
    j++;
  }
}
