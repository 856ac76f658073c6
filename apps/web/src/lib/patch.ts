/**
 * Applies the server's versioned JSON patches (RFC 6902 add / remove / replace, the operations
 * the server emits) to the current view without mutating it, so Svelte sees a new object.
 */

export interface PatchOp {
  readonly op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

const unescapeKey = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

export function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`bad JSON pointer ${path}`);
  return path.slice(1).split('/').map(unescapeKey);
}

type Json = unknown;

function getAt(doc: Json, keys: string[]): Json {
  let cur: Json = doc;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, Json>)[k];
  }
  return cur;
}

/** Copy-on-write update of the container at `keys`, applying `edit` to a shallow copy of it. */
function updateAt(doc: Json, keys: string[], edit: (container: Json, last: string) => Json): Json {
  if (keys.length === 0) throw new Error('cannot edit the root in place');
  const [head, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) return edit(doc, head);
  if (doc === null || typeof doc !== 'object') throw new Error(`patch path missing at ${head}`);
  const child = (doc as Record<string, Json>)[head];
  const next = updateAt(child, rest, edit);
  if (Array.isArray(doc)) {
    const copy = doc.slice();
    copy[Number(head)] = next;
    return copy;
  }
  return { ...(doc as Record<string, Json>), [head]: next };
}

function setIn(container: Json, key: string, value: Json, insert: boolean): Json {
  if (Array.isArray(container)) {
    const copy = container.slice();
    const i = key === '-' ? copy.length : Number(key);
    if (insert) copy.splice(i, 0, value);
    else copy[i] = value;
    return copy;
  }
  return { ...(container as Record<string, Json>), [key]: value };
}

function removeIn(container: Json, key: string): Json {
  if (Array.isArray(container)) {
    const copy = container.slice();
    copy.splice(Number(key), 1);
    return copy;
  }
  const { [key]: _gone, ...rest } = container as Record<string, Json>;
  return rest;
}

export function applyPatch<T>(doc: T, ops: readonly PatchOp[]): T {
  let cur: Json = doc;
  for (const op of ops) {
    const keys = parsePointer(op.path);
    if (keys.length === 0) {
      if (op.op === 'replace' || op.op === 'add') cur = op.value;
      continue;
    }
    switch (op.op) {
      case 'add':
        cur = updateAt(cur, keys, (c, k) => setIn(c, k, op.value, true));
        break;
      case 'replace':
        cur = updateAt(cur, keys, (c, k) => setIn(c, k, op.value, false));
        break;
      case 'remove':
        cur = updateAt(cur, keys, (c, k) => removeIn(c, k));
        break;
      case 'copy':
      case 'move': {
        const from = parsePointer(op.from ?? '');
        const value = getAt(cur, from);
        if (op.op === 'move') cur = updateAt(cur, from, (c, k) => removeIn(c, k));
        cur = updateAt(cur, keys, (c, k) => setIn(c, k, value, true));
        break;
      }
      case 'test':
        break;
    }
  }
  return cur as T;
}
