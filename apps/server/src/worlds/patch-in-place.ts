/**
 * Stored patches applied to a view in place, for the rebuild: it owns the view it rebuilds and
 * applies every patch of the log to it, one after another. `applyPatch` (protocol) never mutates
 * its input, so each op copies every object and array on its path; on a 300-turn world that copying
 * was most of the rebuild's main-thread time. The same ops give the same document and fail with the
 * same errors as `applyPatch`; a patch that fails leaves the view as it was (what it had changed is
 * undone), so that it can be tried again on the upgraded view (rebuild-checks.ts).
 */
import type { PatchOp } from '@bke/protocol';

type Json = unknown;
type Container = Json[] | Record<string, Json>;

const unescapePointer = (key: string): string => key.replace(/~1/g, '/').replace(/~0/g, '~');

/** Applies `ops` to `doc` in place; returns the document (a new one only when an op replaces the root). */
export function applyPatchInPlace(doc: Json, ops: readonly PatchOp[]): Json {
  const undo: (() => void)[] = [];
  let out = doc;
  try {
    for (const op of ops) {
      if (op.path === '') {
        if (op.op === 'remove') throw new Error('cannot remove the root');
        out = op.value;
        continue;
      }
      applyOp(out, op.path.split('/').slice(1).map(unescapePointer), op, undo);
    }
    return out;
  } catch (e) {
    for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
    throw e;
  }
}

/** One op on the container its path leads to, checked as `applyPatch` checks it, step by step. */
function applyOp(root: Json, keys: string[], op: PatchOp, undo: (() => void)[]): void {
  let node = root;
  for (let i = 0; i < keys.length - 1; i++) node = child(node, keys[i] as string);
  const key = keys.at(-1) as string;
  if (Array.isArray(node)) {
    const idx = arrayIndex(node, key);
    if (op.op === 'remove') {
      const removed = node.splice(idx, 1);
      undo.push(() => node.splice(idx, 0, ...removed));
    } else if (op.op === 'add') {
      node.splice(idx, 0, op.value);
      undo.push(() => node.splice(idx, 1));
    } else {
      const had = idx < node.length;
      const old = node[idx];
      node[idx] = op.value;
      undo.push(() => {
        if (had) node[idx] = old;
        else node.length = idx;
      });
    }
    return;
  }
  const obj = container(node, key) as Record<string, Json>;
  const had = Object.hasOwn(obj, key);
  const old = obj[key];
  if (op.op === 'remove') delete obj[key];
  else obj[key] = op.value;
  undo.push(() => {
    if (had) obj[key] = old;
    else delete obj[key];
  });
}

/** The value under `key` on the way down, with `applyPatch`'s errors for a bad step. */
function child(node: Json, key: string): Json {
  if (Array.isArray(node)) return node[arrayIndex(node, key)];
  return (container(node, key) as Record<string, Json>)[key];
}

function arrayIndex(node: Json[], key: string): number {
  const idx = key === '-' ? node.length : Number(key);
  if (!Number.isInteger(idx) || idx < 0 || idx > node.length) throw new Error(`bad index ${key}`);
  return idx;
}

function container(node: Json, key: string): Container {
  if (node === null || typeof node !== 'object') throw new Error(`no container at ${key}`);
  return node as Container;
}
