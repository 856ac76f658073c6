/**
 * JSON patches (RFC 6902 subset: add, remove, replace) taking a view from version n to n + 1, and
 * the function that applies them without mutating the input (the client uses it too).
 */
import { z } from 'zod';

export const patchOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
]);
export type PatchOp = z.infer<typeof patchOpSchema>;

export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (key: string): string => key.replace(/~1/g, '/').replace(/~0/g, '~');

type Json = unknown;

function setIn(node: Json, keys: string[], i: number, op: PatchOp): Json {
  const key = keys[i] as string;
  const last = i === keys.length - 1;
  if (Array.isArray(node)) {
    const copy = node.slice();
    const idx = key === '-' ? copy.length : Number(key);
    if (!Number.isInteger(idx) || idx < 0 || idx > copy.length) throw new Error(`bad index ${key}`);
    if (!last) copy[idx] = setIn(copy[idx], keys, i + 1, op);
    else if (op.op === 'remove') copy.splice(idx, 1);
    else if (op.op === 'add') copy.splice(idx, 0, op.value);
    else copy[idx] = op.value;
    return copy;
  }
  if (node === null || typeof node !== 'object') throw new Error(`no container at ${key}`);
  const copy: Record<string, Json> = { ...(node as Record<string, Json>) };
  if (!last) copy[key] = setIn(copy[key], keys, i + 1, op);
  else if (op.op === 'remove') delete copy[key];
  else copy[key] = op.value;
  return copy;
}

/** Applies ops in order; returns a new document sharing unchanged parts. Throws on a bad path. */
export function applyPatch<T>(doc: T, ops: readonly PatchOp[]): T {
  let out: Json = doc;
  for (const op of ops) {
    if (op.path === '') {
      if (op.op === 'remove') throw new Error('cannot remove the root');
      out = op.value;
      continue;
    }
    const keys = op.path.split('/').slice(1).map(unescapePointer);
    out = setIn(out, keys, 0, op);
  }
  return out as T;
}
