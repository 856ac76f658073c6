/**
 * The analysis board's lines: a tree of positions. The root is the position the board opened on;
 * each move (an order by one side, with the dice set for it, if any) leads to a child. Playing from
 * a position that already has a continuation starts a new line beside it (a branch) unless it is
 * the same move again, which simply walks that way. Stepping back goes to the parent; stepping
 * forward follows the line last walked from there. A line is the path from the root to a leaf.
 *
 * Written here rather than taken from a library: chess libraries keep their move trees inside
 * their own game types; this one holds any state, and is a few small pure functions.
 */

export interface Move<O = unknown> {
  /** The side that gave the order. */
  readonly actor: string;
  readonly order: O;
  /** The faces the person set for the next roll before this order (null: rolled from the board's seed). */
  readonly dice: readonly number[] | null;
}

export interface LineNode<S, O = unknown> {
  readonly id: number;
  readonly parent: number | null;
  /** How this position was reached from its parent (null at the root). */
  readonly move: Move<O> | null;
  /** What the move caused, in the engine's events. */
  readonly events: readonly unknown[];
  readonly state: S;
  readonly children: readonly number[];
  /** The child last walked to from here: where stepping forward goes. */
  readonly next: number | null;
}

export interface Lines<S, O = unknown> {
  readonly nodes: readonly LineNode<S, O>[];
  /** The position shown. */
  readonly at: number;
}

export const startLines = <S, O = unknown>(root: S): Lines<S, O> => ({
  nodes: [{ id: 0, parent: null, move: null, events: [], state: root, children: [], next: null }],
  at: 0,
});

const sameMove = (a: Move<unknown> | null, b: Move<unknown>): boolean =>
  !!a &&
  a.actor === b.actor &&
  JSON.stringify(a.order) === JSON.stringify(b.order) &&
  JSON.stringify(a.dice) === JSON.stringify(b.dice);

const node = <S, O>(lines: Lines<S, O>, id: number): LineNode<S, O> => {
  const n = lines.nodes[id];
  if (!n) throw new Error(`no position ${id} in these lines`);
  return n;
};

export const current = <S, O>(lines: Lines<S, O>): LineNode<S, O> => node(lines, lines.at);

/** With `id` remembered as the child walked to from its parent, and so on up to the root. */
function remember<S, O>(nodes: LineNode<S, O>[], id: number): void {
  let child = nodes[id];
  while (child && child.parent !== null) {
    const parent = nodes[child.parent]!;
    nodes[parent.id] = { ...parent, next: child.id };
    child = nodes[parent.id];
  }
}

/** The lines after playing `move` from the position shown, which it reached as `state` with `events`. */
export function play<S, O>(
  lines: Lines<S, O>,
  move: Move<O>,
  state: S,
  events: readonly unknown[],
): Lines<S, O> {
  const here = current(lines);
  const again = here.children.map((c) => node(lines, c)).find((c) => sameMove(c.move, move));
  const nodes = [...lines.nodes];
  if (again) {
    remember(nodes, again.id);
    return { nodes, at: again.id };
  }
  const id = nodes.length;
  nodes.push({ id, parent: here.id, move, events, state, children: [], next: null });
  nodes[here.id] = { ...here, children: [...here.children, id] };
  remember(nodes, id);
  return { nodes, at: id };
}

export const canBack = <S, O>(lines: Lines<S, O>): boolean => current(lines).parent !== null;
export const canForward = <S, O>(lines: Lines<S, O>): boolean => current(lines).next !== null;

export const back = <S, O>(lines: Lines<S, O>): Lines<S, O> => ({
  ...lines,
  at: current(lines).parent ?? lines.at,
});

export const forward = <S, O>(lines: Lines<S, O>): Lines<S, O> => ({
  ...lines,
  at: current(lines).next ?? lines.at,
});

/** Go to any position of the tree; the way to it becomes the line stepped along. */
export function goTo<S, O>(lines: Lines<S, O>, id: number): Lines<S, O> {
  node(lines, id);
  const nodes = [...lines.nodes];
  remember(nodes, id);
  return { nodes, at: id };
}

/** The path of positions from the root to `id` (both included). */
function pathTo<S, O>(lines: Lines<S, O>, id: number): LineNode<S, O>[] {
  const out: LineNode<S, O>[] = [];
  for (
    let n: LineNode<S, O> | undefined = node(lines, id);
    n;
    n = n.parent === null ? undefined : node(lines, n.parent)
  )
    out.unshift(n);
  return out;
}

/** The line through the position shown: from the root, through it, on to the end last walked. */
export function lineShown<S, O>(lines: Lines<S, O>): LineNode<S, O>[] {
  const path = pathTo(lines, lines.at);
  for (let n = current(lines); n.next !== null; ) {
    n = node(lines, n.next);
    path.push(n);
  }
  return path;
}

/** Every line, as the leaf it ends at, in the order they were first played. */
export const allLines = <S, O>(lines: Lines<S, O>): LineNode<S, O>[] =>
  lines.nodes.filter((n) => n.children.length === 0 && n.parent !== null);
