/**
 * View patches from structural sharing. The engine never mutates a state: an order returns a new
 * state that shares every untouched subtree with the old one. So the patch is
 * found by walking only where references differ — the cost follows the size of the change, not
 * of the state (benchmark metric 5 checks it stays well under a JSON.stringify of the state).
 * This is not a whole-state diff: an identical reference ends the walk at once.
 */
import { escapePointer, type PatchOp } from '@bke/protocol';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function diffArrays(a: readonly unknown[], b: readonly unknown[], path: string, out: PatchOp[]): void {
  // Skip the unchanged head and tail (by reference), so taking the first of a queue or appending is
  // one op, not a shifted copy of the whole array.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: PatchOp[] = [];
  const common = Math.min(endA - start, endB - start);
  for (let i = 0; i < common; i++) diffValue(a[start + i], b[start + i], `${path}/${start + i}`, ops);
  for (let i = start + common; i < endB; i++) ops.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
  for (let i = endA - 1; i >= start + common; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
  // Many small ops can outweigh the array itself: then one replace is smaller.
  if (ops.length > 4 && JSON.stringify(ops).length > JSON.stringify(b).length + path.length + 30) {
    out.push({ op: 'replace', path, value: b });
    return;
  }
  for (const op of ops) out.push(op);
}

function diffValue(a: unknown, b: unknown, path: string, out: PatchOp[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    diffArrays(a, b, path, out);
    return;
  }
  if (isObj(a) && isObj(b)) {
    // A changed record (units, areas) has hundreds of keys and usually one or two changed
    // values: compare first, build a path only for what differs.
    for (const k of Object.keys(b)) {
      const vb = b[k];
      const va = a[k];
      if (va === vb || vb === undefined) continue;
      const p = `${path}/${escapePointer(k)}`;
      if (va === undefined) out.push({ op: 'add', path: p, value: vb });
      else diffValue(va, vb, p, out);
    }
    for (const k of Object.keys(a)) {
      if (a[k] !== undefined && b[k] === undefined)
        out.push({ op: 'remove', path: `${path}/${escapePointer(k)}` });
    }
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && Object.is(a, b)) return;
  out.push({ op: 'replace', path, value: b });
}

/** The ops that turn view `a` into view `b`; both must be immutable, structurally shared values. */
export function diffViews(a: unknown, b: unknown): PatchOp[] {
  const out: PatchOp[] = [];
  diffValue(a, b, '', out);
  return out;
}
